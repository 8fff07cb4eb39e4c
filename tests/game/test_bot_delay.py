"""A bot with a delay "thinks" before each move so that people at a networked table can follow:
its move is published only once the delay has passed, the peer keeps working meanwhile, a move
made stale by then is chosen again from the table as it is, and closing drops a pending move.

The delay is waited through an injected sleep the test releases by hand, so nothing here depends
on the wall clock."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from fairdeal.engine.larry import legal_actions
from fairdeal.p2p.table.core.api import FaultDetected
from fairdeal.p2p.table.runtime.peer import TablePeer

from .support import LocalTable, open_table, play_to_end

DELAY = 0.6


class GatedSleep:
    """A sleep that ends only when the test says so; each wait is queued for the test."""

    def __init__(self) -> None:
        self.requests: asyncio.Queue[tuple[float, asyncio.Future[None]]] = asyncio.Queue()

    async def __call__(self, delay: float) -> None:
        gate: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.requests.put_nowait((delay, gate))
        await gate


def thinking_peer(table: LocalTable) -> TablePeer:
    """The one seat whose bot is waiting out its delay (it must be that seat's turn)."""
    (peer,) = [p for p in table.peers if p.pump.thinking is not None]
    assert peer.table is not None and peer.table.my_turn()
    return peer


def published(peer: TablePeer) -> int:
    """How many envelopes this seat has signed into its log so far."""
    assert peer.sync is not None
    return peer.sync.log.next_seq(peer.seat)


async def let_the_loop_run(rounds: int = 50) -> None:
    """Give every other task its chance to run (to catch a move published too early)."""
    for _ in range(rounds):
        await asyncio.sleep(0)


def faults(table: LocalTable) -> list[FaultDetected]:
    return [e for p in table.peers for e in p.history.events if isinstance(e, FaultDetected)]


async def test_a_delayed_bot_publishes_only_after_its_delay_and_the_game_completes(
    tmp_path: Path,
) -> None:
    sleep = GatedSleep()
    table = await open_table(3, tmp_path, bot_delay=DELAY, bot_sleep=sleep)
    finished = asyncio.ensure_future(play_to_end(table, timeout=60))
    moves = 0
    try:
        while not finished.done():
            request = asyncio.ensure_future(sleep.requests.get())
            await asyncio.wait([request, finished], return_when=asyncio.FIRST_COMPLETED)
            if not request.done():
                request.cancel()
                break
            delay, gate = request.result()
            assert delay == DELAY
            peer = thinking_peer(table)
            before = published(peer)
            await let_the_loop_run()
            assert published(peer) == before, "the bot moved before its delay passed"
            gate.set_result(None)
            await let_the_loop_run()
            assert published(peer) > before, "the bot did not move once its delay passed"
            moves += 1
        await finished
    finally:
        await table.close()
    assert moves > 3
    assert all(p.table is not None and p.table.over for p in table.peers)
    assert not faults(table)


async def test_a_move_made_while_the_bot_waits_is_not_followed_by_a_stale_one(
    tmp_path: Path,
) -> None:
    """The seat's move is made for it while its bot still thinks; when the delay ends the bot
    decides again from the table as it is now, so no second (out-of-turn) move is published."""
    sleep = GatedSleep()
    table = await open_table(3, tmp_path, bot_delay=DELAY, bot_sleep=sleep)
    try:
        _, stale_gate = await asyncio.wait_for(sleep.requests.get(), 30)
        peer = thinking_peer(table)
        before = published(peer)
        await peer.act(legal_actions(peer.view())[0])
        assert published(peer) == before + 1
        stale_gate.set_result(None)
        await let_the_loop_run()
        assert published(peer) == before + 1, "a stale bot move was published"

        async def release_the_rest() -> None:
            while True:
                _, gate = await sleep.requests.get()
                gate.set_result(None)

        releaser = asyncio.ensure_future(release_the_rest())
        try:
            await play_to_end(table, timeout=60)
        finally:
            releaser.cancel()
    finally:
        await table.close()
    assert not faults(table)
    assert all(p.table is not None and p.table.over for p in table.peers)


async def test_close_cancels_a_pending_bot_move(tmp_path: Path) -> None:
    sleep = GatedSleep()
    table = await open_table(3, tmp_path, bot_delay=DELAY, bot_sleep=sleep)
    try:
        _, gate = await asyncio.wait_for(sleep.requests.get(), 30)
        peer = thinking_peer(table)
        thinking = peer.pump.thinking
        assert thinking is not None
        await peer.close()
        assert thinking.cancelled() and gate.cancelled()
        assert peer.pump.thinking is None
        before = published(peer)
        await let_the_loop_run()
        assert published(peer) == before
    finally:
        await table.close()


def test_a_negative_delay_is_refused(tmp_path: Path) -> None:
    from fairdeal.engine.larry import LarryOptions

    from .support import identity

    with pytest.raises(ValueError, match="negative"):
        TablePeer(
            identity(0),
            None,  # type: ignore[arg-type]  # refused before the roster is looked at
            0,
            LarryOptions(),
            None,  # type: ignore[arg-type]
            transcript=tmp_path / "t",
            secrets=None,  # type: ignore[arg-type]
            bot_delay=-1,
        )


async def test_a_racing_bot_waits_human_reaction_times_shorter_to_place(tmp_path: Path) -> None:
    """The Lie's Phase 1 with reaction times (p2p/table/runtime/reaction.py): every wait of a bot is
    a draw, none a fixed pace; a placement's wait comes from the quicker follow-up distribution.
    The waits are recorded and skipped (no wall clock)."""
    import statistics

    from fairdeal.engine.lie import LieOptions
    from fairdeal.p2p.table.runtime.reaction import FLOOR, NORMAL

    waited: list[float] = []

    async def record(delay: float) -> None:
        waited.append(delay)
        await asyncio.sleep(0)

    options = LieOptions(rounds=1, hand_size=4)  # type: ignore[call-arg]
    table = await open_table(
        3, tmp_path, options, seed=6, bot_sleep=record, claim_pace=9.0, reactions=NORMAL
    )
    try:
        await play_to_end(table, timeout=90)
        assert all(p.table.over and p.table.fault is None for p in table.peers)
    finally:
        await table.close()
    assert len(waited) >= 2 * 3 * 4  # a take and a place per card, 4 cards, 3 seats
    assert 9.0 not in waited and min(waited) >= FLOOR and len(set(waited)) == len(waited)
    # A take's wait is rarely under 0.35 s (about 1 in 30); a place's mostly is.
    quick = sum(w < 0.35 for w in waited) / len(waited)
    assert quick > 0.2, quick
    assert statistics.fmean(waited) < NORMAL.choose.mean
