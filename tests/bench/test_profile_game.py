"""bench/profile_game.py sums py-spy's raw stacks by function and by group, over every peer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

PEER = 'process 7:"python -m fairdeal.p2p.table.tools.sim_peer"'
MAIN = "<module> (p2p/table/tools/sim_peer.py:34);apply (p2p/table/core/driver.py:210)"


def test_samples_are_grouped_by_their_innermost_frame(
    tmp_path: Path, load_bench: Callable[[str], ModuleType]
) -> None:
    profile = load_bench("profile_game")
    raw = tmp_path / "profile.raw"
    raw.write_text(
        "\n".join(
            [
                f"{PEER};{MAIN};mul (p2p/deck/group.py:80);"
                "crypto_scalarmult_ristretto255 (rbcl/rbcl.py:120) 6",
                f"{PEER};{MAIN};sync (p2p/log/transcript.py:150);"
                "Transcript._flush (p2p/log/transcript.py:182) 3",
                f"{PEER};{MAIN} 1",
                "a line that is not a stack",
            ]
        )
        + "\n"
    )
    summary = profile.summarise(raw, top=5)
    assert summary["samples"] == 10
    groups = dict(summary["groups_percent"])
    assert groups == {
        "Ristretto255 through rbcl (libsodium)": 60.0,
        "fsync of the transcript (mostly waiting on the disk)": 30.0,
        "fairdeal p2p/table (Python)": 10.0,
    }
    inclusive = dict(summary["inclusive_percent"])
    assert inclusive["apply (p2p/table/core/driver.py)"] == 100.0
    assert dict(summary["self_percent"])["Transcript._flush (p2p/log/transcript.py)"] == 30.0
