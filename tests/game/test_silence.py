"""A seat that stays silent past the limit is shown to the others as holding up the game; the
table waits (no fault, no crash) and goes on when the seat acts."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from fairdeal.engine.bots import make_bot
from fairdeal.engine.larry import legal_actions
from fairdeal.p2p.log.envelope import sign_envelope
from fairdeal.p2p.table.core.api import SeatStatus
from fairdeal.p2p.table.runtime.peer import TablePeer

from .cheaters import GiverBot
from .support import identity, open_table, play_to_end
from .test_gift_forwards import GIVE_TO
from .test_owes import WithholdingGiver

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


async def test_a_silent_seat_is_shown_owing_its_turn(tmp_path: Path) -> None:
    """protocol.md 10.6: the status says what the table waits for from the seat."""
    table = await open_table(3, tmp_path, silence_limit=LIMIT, wrap={SILENT: lambda bot: None})
    silent = table.peers[SILENT]
    try:
        await silent.sync.wait_until(lambda: silent.table.my_turn(), timeout=30)
        other = table.peers[0]
        status = await status_of(other, holding_up=True, after=len(other.history))
        assert status.owes == ("their turn",)
    finally:
        await table.close()


async def test_a_withheld_give_away_forward_shows_the_giver_holding_up_the_game(
    tmp_path: Path,
) -> None:
    """A giver that never sends its forward is the seat shown holding up the game at the
    receiver (before, the receiver was shown, at every seat); a third seat shows both, with
    what each owes, since only the receiver can tell whether the forward came."""
    giver, receiver, third = 0, GIVE_TO[0], 2
    wrap = {s: (lambda b, s=s: GiverBot(b, GIVE_TO[s])) for s in range(3)}
    table = await open_table(
        3, tmp_path, seed=3, silence_limit=LIMIT, wrap=wrap, tables={giver: WithholdingGiver}
    )
    try:
        at_receiver, at_third = table.peers[receiver], table.peers[third]
        await at_receiver.sync.wait_until(
            lambda: at_receiver.table.pending_transfer() is not None, timeout=60
        )
        mark = len(at_receiver.history)
        named = await first_holdup(at_receiver, after=mark)
        assert named == {giver: ("a give-away forward",)}
        # From the give-away on: on a loaded machine a seat may also be slower than LIMIT
        # with its shares for the deal, which the third seat rightly reports first.
        await at_third.sync.wait_until(
            lambda: at_third.table.pending_transfer() is not None, timeout=60
        )
        named = await first_holdup(at_third, after=len(at_third.history), count=2)
        assert named == {
            giver: ("a give-away forward",),
            receiver: ("their receipt of the give-away",),
        }
        assert all(peer.table.fault is None for peer in table.peers)
    finally:
        await table.close()


async def first_holdup(peer: TablePeer, after: int, count: int = 1) -> dict[int, tuple[str, ...]]:
    """The seats first reported holding up the game (with what they owe) from event `after`."""
    named: dict[int, tuple[str, ...]] = {}
    async with asyncio.timeout(30):
        index = 0
        async for event in peer.events():
            index += 1
            if index > after and isinstance(event, SeatStatus) and event.waiting_seconds:
                named[event.seat] = event.owes
                if len(named) >= count:
                    return named
    raise AssertionError("the session closed")


async def test_a_silent_seat_that_signs_ahead_is_still_shown_holding_up_the_game(
    tmp_path: Path,
) -> None:
    """The seat whose turn it is withholds its move and sends a valid envelope for the place
    after it: every other peer holds that one, and still shows the seat holding up the game,
    owing its turn (protocol.md 10.6: only a seat's next envelope counts). Before, any envelope
    of the seat held here hid it from every screen."""
    table = await open_table(3, tmp_path, silence_limit=LIMIT, wrap={SILENT: lambda bot: None})
    silent = table.peers[SILENT]
    others = [peer for peer in table.peers if peer.seat != SILENT]
    try:
        await silent.sync.wait_until(lambda: silent.table.my_turn(), timeout=30)
        log = silent.sync.log
        later = sign_envelope(
            identity(SILENT),
            table=table.roster.table,
            seat=SILENT,
            seq=log.next_seq(SILENT) + 1,
            prev=log.head,
            kind="larry.act",
            body={"ahead": True},
        )
        table.meshes[SILENT].broadcast(later.to_wire())
        for peer in others:
            await peer.sync.wait_until(
                lambda peer=peer: peer.sync.log.holds(SILENT, later.seq), timeout=30
            )
        marks = [len(peer.history) for peer in others]  # from here on it is held everywhere
        for peer, mark in zip(others, marks, strict=True):
            status = await status_of(peer, holding_up=True, after=mark)
            assert status.owes == ("their turn",) and status.waiting_seconds >= LIMIT
        assert all(peer.table.fault is None for peer in table.peers)
    finally:
        await table.close()
