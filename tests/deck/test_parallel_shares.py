"""The shares of one message are checked half on the chains' worker, half on the caller's
thread: the faces are those of the sequential check, and a message with two bad shares is
blamed for the first of them in message order, as in sequence."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from fairdeal.p2p.deck import LoopbackTable, ProofError
from fairdeal.p2p.deck.ledger import PARALLEL_SHARES

from .conftest import shuffled_table, slots

CARDS = 2 * PARALLEL_SHARES


def swap_shares(message: dict[str, Any], *pairs: tuple[int, int]) -> dict[str, Any]:
    """`message` with share i carrying share j's point (a valid point, a proof for another
    card): a wrong share, caught by its proof."""
    shares = [dict(s) for s in message["shares"]]
    for i, j in pairs:
        shares[i]["share"] = message["shares"][j]["share"]
    return {**message, "shares": shares}


def deal_all_to_seat_0(table: LoopbackTable, tamper: bool) -> None:
    if tamper:
        table.tamper = lambda seat, m: (
            swap_shares(m, (2, 3), (CARDS - 2, CARDS - 1))
            if seat == 1 and m["kind"] == "deck.shares"
            else m
        )
    table.command(lambda s: s.deal({slot: 0 for slot in slots("d0", CARDS)}))


def test_checked_on_two_threads_the_faces_are_the_sequential_ones() -> None:
    with ThreadPoolExecutor(max_workers=1) as worker:
        parallel = shuffled_table(3, CARDS, seed=9, parallel=worker)
        deal_all_to_seat_0(parallel, tamper=False)
    sequential = shuffled_table(3, CARDS, seed=9)
    deal_all_to_seat_0(sequential, tamper=False)
    faces = [parallel.sessions[0].known_card(slot) for slot in slots("d0", CARDS)]
    assert faces == [sequential.sessions[0].known_card(slot) for slot in slots("d0", CARDS)]
    assert sorted(faces) == list(range(CARDS))  # type: ignore[type-var]


def test_the_first_bad_share_in_message_order_is_blamed_whichever_thread_found_it() -> None:
    verdicts = []
    for worker in (ThreadPoolExecutor(max_workers=1), None):
        table = shuffled_table(3, CARDS, seed=9, parallel=worker)
        with pytest.raises(ProofError) as info:
            deal_all_to_seat_0(table, tamper=True)
        verdicts.append((info.value.seat, info.value.what))
        if worker is not None:
            worker.shutdown()
    assert verdicts[0] == verdicts[1]
    assert verdicts[0][0] == 1
    # Share 2 is in the worker's half, share CARDS - 2 in the caller's: the first is blamed.
    assert verdicts[0][1].endswith("(d0[2])")
