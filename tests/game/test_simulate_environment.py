"""The peers a `Simulation` spawns (p2p/table/simulate.py) import fairdeal from this checkout and
keep the parent's PYTHONPATH after it, so a game installed by a path entry reaches them too."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from fairdeal.p2p.table.simulate import Simulation

REPOSITORY = Path(__file__).resolve().parents[2]


def probe_python(directory: Path) -> str:
    """An executable that stands in for python: whatever it is asked to run, it prints the
    PYTHONPATH it was given as the JSON line a peer would print."""
    probe = directory / "probe"
    probe.write_text(
        f"#!{sys.executable}\n"
        "import json, os\n"
        'print(json.dumps({"pythonpath": os.environ.get("PYTHONPATH")}), flush=True)\n'
    )
    probe.chmod(0o755)
    return str(probe)


async def spawned_pythonpath(directory: Path) -> list[str]:
    simulation = Simulation(2, directory / "sim", python=probe_python(directory))
    await simulation.spawn(0)
    peer = simulation.peers[0]
    assert peer.process is not None and peer.reader is not None
    await peer.reader
    await peer.process.wait()
    (line,) = peer.lines
    return str(line["pythonpath"]).split(os.pathsep)


async def test_a_peer_keeps_the_parents_pythonpath_after_this_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), "/elsewhere"]))
    assert await spawned_pythonpath(tmp_path) == [str(REPOSITORY), str(site), "/elsewhere"]


async def test_a_peer_without_a_parent_pythonpath_gets_this_checkout_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PYTHONPATH", raising=False)
    assert await spawned_pythonpath(tmp_path) == [str(REPOSITORY)]
