"""A seat that stays silent past the limit is shown to the others as holding up the game; the
table waits (no fault, no crash) and goes on when the seat acts."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from fairdeal.engine.bots import make_bot
from fairdeal.engine.larry import legal_actions
from fairdeal.p2p.table.api import SeatStatus
from fairdeal.p2p.table.peer import TablePeer

from .support import open_table, play_to_end

SILENT = 1
LIMIT = 0.3


async def status_of(peer: TablePeer, holding_up: bool, after: int) -> SeatStatus:
    """The first SeatStatus about the silent seat among `peer`'s events from index `after`."""
    async with asyncio.timeout(20):
        index = 0
        async for event in peer.events():
            index += 1
            if index <= after:
                continue
            if (
                isinstance(event, SeatStatus)
                and event.seat == SILENT
                and (event.waiting_seconds is not None) == holding_up
            ):
                return event
    raise AssertionError("the session closed")


async def test_a_silent_seat_is_shown_as_holding_up_the_game_and_the_game_waits(
    tmp_path: Path,
) -> None:
    table = await open_table(3, tmp_path, silence_limit=LIMIT, wrap={SILENT: lambda bot: None})
    silent = table.peers[SILENT]
    others = [peer for peer in table.peers if peer.seat != SILENT]
    try:
        await silent.sync.wait_until(lambda: silent.table.my_turn(), timeout=30)
        marks = [len(peer.history) for peer in others]
        statuses = [
            await status_of(peer, holding_up=True, after=mark)
            for peer, mark in zip(others, marks, strict=True)
        ]
        for status in statuses:
            assert status.connected
            assert status.waiting_seconds >= LIMIT
        assert all(peer.table.fault is None and not peer.table.over for peer in table.peers)
        # The seat comes back: the others clear the status and the game goes on to the end.
        marks = [len(peer.history) for peer in others]
        silent.bot = make_bot("heuristic", random.Random(1))
        await silent.act(legal_actions(silent.view())[0])
        for peer, mark in zip(others, marks, strict=True):
            resumed = await status_of(peer, holding_up=False, after=mark)
            assert resumed.waiting_seconds is None
        await play_to_end(table, timeout=60)
        assert all(peer.table.fault is None for peer in table.peers)
    finally:
        await table.close()
