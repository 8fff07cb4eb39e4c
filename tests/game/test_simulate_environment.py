"""The peers a `Simulation` spawns (p2p/table/tools/simulate.py) import fairdeal from this checkout
and keep the parent's PYTHONPATH after it, so a game installed by a path entry reaches them too;
never the working directory's; and a peer that dies is reported at once, with its last
error line."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from fairdeal.p2p.table.tools.simulate import PeerExited, Simulation, peer_environment

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


def dying_python(directory: Path) -> str:
    """An executable that stands in for python and dies at once, as a peer does that cannot
    import fairdeal: an error line on stderr, status 1."""
    probe = directory / "dying"
    probe.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        "print('Traceback (most recent call last):', file=sys.stderr)\n"
        "print(\"ModuleNotFoundError: No module named 'fairdeal.p2p'\", file=sys.stderr)\n"
        "sys.exit(1)\n"
    )
    probe.chmod(0o755)
    return str(probe)


async def test_a_peer_that_dies_at_start_is_reported_at_once_with_its_error(
    tmp_path: Path,
) -> None:
    simulation = Simulation(3, tmp_path / "sim", python=dying_python(tmp_path), timeout=600)
    async with asyncio.timeout(60):  # never waited on until the simulation's own timeout
        with pytest.raises(PeerExited, match=r"exited with status 1: ModuleNotFoundError"):
            await simulation.start()
        await simulation.stop()


async def test_a_peer_that_dies_mid_game_is_reported_while_waiting_for_another_seat(
    tmp_path: Path,
) -> None:
    simulation = Simulation(3, tmp_path / "sim", short=True, timeout=600)
    try:
        await simulation.start()
        simulation.kill(2)  # before the table's setup is done: nobody can finish without it
        async with asyncio.timeout(60):
            with pytest.raises(PeerExited, match="seat 2's peer exited"):
                await simulation.finish()  # waits for seat 0's result first
    finally:
        await simulation.stop()


def test_a_peer_ignores_the_working_directory(tmp_path: Path) -> None:
    """From a checkout's root, its `fairdeal/` folder (the version alone) must not hide the
    installed package: the peers run in Python's safe-path mode."""
    assert peer_environment()["PYTHONSAFEPATH"] == "1"
