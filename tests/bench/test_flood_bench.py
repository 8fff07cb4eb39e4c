"""bench/flood.py, small: whatever the griefing seat sends, each honest peer's held bytes, faults,
`.faults` file and answers to `need`s stay within the bounds protocol.md states (4.4, 4.6,
10.4); the peaks are printed (run with -s to read them)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import ModuleType


def test_a_griefing_seat_leaves_every_honest_peer_within_its_bounds(
    load_bench: Callable[[str], ModuleType],
) -> None:
    flood = load_bench("flood")
    figures = asyncio.run(flood.run(places=64, equivocations=40, needs=40))
    limits = figures["limits"]
    ahead, equivocation, need = figures["ahead"], figures["equivocation"], figures["need"]
    # bytes held ahead: at most the seats' budgets (64 places of 1 MiB and 64 of ~43 KB sent)
    assert 0 < ahead["worst_peer"]["peak_held_ahead_bytes"] <= limits["held_ahead_bound_per_peer"]
    # and what the process held over that flood, all four peers: the refused frames are not kept
    # (the last 256 errors once pinned each its envelope through its traceback: 400 MiB here)
    assert ahead["python_peak_over_flood_bytes"] < 64 * 2**20
    # one proof of 40 envelopes for one place: one fault, one record of two envelopes
    assert equivocation["worst_peer"]["faults"] == 1
    assert equivocation["worst_peer"]["faults_file_bytes"] <= 2 * limits["default_cap"] + 512
    # 40 needs and 10 new channels: each channel's answer once (the log and what is held)
    per_channel = need["log_bytes"] + limits["held_ahead_bound_per_peer"]
    assert need["worst_peer"]["need_answer_bytes"] <= 11 * per_channel
    assert need["worst_peer"]["need_answer_bytes"] < 50 * need["log_bytes"]
