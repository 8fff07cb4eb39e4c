"""Fixtures for the fair-deck tests: pinned randomness and small in-process tables."""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor

from fairdeal.p2p.deck import DeckSession, LoopbackTable, Slot

TABLE_ID = b"table-under-test"
VERIFIER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-deck-verify")
"""The worker that verifies the previous seat's shuffle while a session proves (`parallel`)."""


def seeded(seed: int) -> Callable[[int], bytes]:
    """Deterministic `random_bytes` so that every test run is the same run."""
    return random.Random(seed).randbytes


def keyed_table(seats: int, seed: int = 1, parallel: Executor | None = None) -> LoopbackTable:
    """`seats` sessions that have exchanged and verified their keys."""
    sessions = [
        DeckSession(
            TABLE_ID, seat, seats, random_bytes=seeded(seed * 100 + seat), parallel=parallel
        )
        for seat in range(seats)
    ]
    table = LoopbackTable(sessions)
    table.command(lambda s: s.start())
    return table


def shuffled_table(
    seats: int, cards: int, seed: int = 1, list_id: str = "d0", parallel: Executor | None = None
) -> LoopbackTable:
    table = keyed_table(seats, seed, parallel)
    table.command(lambda s: s.new_deck(list_id, "larry", range(cards)))
    return table


def slots(list_id: str, count: int) -> list[Slot]:
    return [Slot(list_id, i) for i in range(count)]
