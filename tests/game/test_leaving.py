"""Leaving is a decision: a seat that leaves signs `left` (protocol.md 10.12), every
other seat shows it by name, and the remaining players end the table with the result so far.
A forged, tampered or foreign `left` is refused and changes nothing."""

from __future__ import annotations

import asyncio
import stat
from collections.abc import Iterable
from pathlib import Path

import pytest

from fairdeal.engine.larry import legal_actions
from fairdeal.p2p.errors import EnvelopeError
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.net.framing import MAX_FRAME_SIZE
from fairdeal.p2p.table.core.api import SeatLeft, TableEnded
from fairdeal.p2p.table.core.leaving import LEFT_DOMAIN, parse_left, sign_left
from fairdeal.p2p.table.runtime.departures import Departures
from fairdeal.p2p.table.runtime.left_file import MAX_KEPT_PER_SEAT, read_left
from fairdeal.p2p.table.runtime.peer import TablePeer, left_path

from .support import identity, open_table

WAIT_S = 30.0


async def until(peer: TablePeer, ready) -> None:
    async with asyncio.timeout(WAIT_S):
        while not ready():
            await peer.history.changed()


def events_of(peer: TablePeer, kind: type) -> list:
    return [e for e in peer.history.events if isinstance(e, kind)]


async def test_a_seat_that_leaves_is_named_and_the_others_end_the_table(tmp_path: Path) -> None:
    table = await open_table(3, tmp_path, bots=False)
    try:
        for peer in table.peers:  # setup done: the game waits for a move
            await until(peer, lambda p=peer: p.table.state is not None)
        leaver, stayer, other = table.peers[1], table.peers[0], table.peers[2]
        await leaver.end_table("peer1 left the table")
        assert [(e.hands, e.leaders) for e in events_of(leaver, TableEnded)] == [(0, ())]
        assert leaver.history.closed  # it takes no more moves and signs nothing more
        for peer in (stayer, other):
            await until(peer, lambda p=peer: bool(events_of(p, SeatLeft)))
            assert events_of(peer, SeatLeft) == [SeatLeft(1, "peer1 left the table")]
            assert peer.left_seats == {1: "peer1 left the table"}
            evidence = left_path(peer.transcript_path)
            assert stat.S_IMODE(evidence.stat().st_mode) == 0o600
            assert evidence.stat().st_size > 0
        await stayer.end_table("ended the table after peer1 left")
        ended = events_of(stayer, TableEnded)
        assert len(ended) == 1 and ended[0].scores == (0, 0, 0) and ended[0].hands == 0
        await until(other, lambda: 0 in other.left_seats)  # the one who ended told the rest
        assert other.left_seats[0] == "ended the table after peer1 left"
    finally:
        await table.close()


async def test_a_forged_left_sent_over_the_mesh_is_refused(tmp_path: Path) -> None:
    table = await open_table(3, tmp_path, bots=False)
    try:
        target = table.peers[2]
        await until(target, lambda: target.table.state is not None)
        roster = table.roster
        # seat 0 signs a "left" claiming to be seat 1: the signature is not seat 1's
        forged = sign_left(identity(0), roster, 1, b"\0" * 32, "peer1 left")
        table.meshes[0].send(roster.keys[2], forged.to_wire())
        table.meshes[0].send(roster.keys[2], {"t": "left", "d": b"junk", "s": b"x" * 64})
        honest = sign_left(identity(0), roster, 0, b"\0" * 32, "peer0 left")
        table.meshes[0].send(roster.keys[2], honest.to_wire())  # sent last, on the same channel
        await until(target, lambda: bool(events_of(target, SeatLeft)))
        assert events_of(target, SeatLeft) == [SeatLeft(0, "peer0 left")]
        assert target.left_seats == {0: "peer0 left"}
    finally:
        await table.close()


ROSTER = Roster(b"t" * 16, (identity(0).key, identity(1).key))


def test_a_left_message_parses_only_untampered() -> None:
    good = sign_left(identity(1), ROSTER, 1, b"h" * 32, "peer1 left")
    assert parse_left(good.to_wire(), ROSTER, "x").reason == "peer1 left"
    flipped = bytearray(good.signed)
    flipped[-1] ^= 1  # one bit of the reason
    other_table = Roster(b"u" * 16, ROSTER.keys)
    bad_sig = bytes([good.signature[0] ^ 1]) + good.signature[1:]
    cases = [
        ({"t": "left", "d": bytes(flipped), "s": good.signature}, "not signed by seat 1"),
        ({"t": "left", "d": good.signed, "s": bad_sig}, "not signed by seat 1"),
        ({"t": "left", "d": good.signed, "s": good.signature[:10]}, "64 bytes"),
        ({"t": "left", "d": "text", "s": good.signature}, "bytes fields"),
        ({"t": "left", "d": b"\xc1", "s": good.signature}, "canonical"),
    ]
    for message, why in cases:
        with pytest.raises(EnvelopeError, match=why):
            parse_left(message, ROSTER, "peer9")
    with pytest.raises(EnvelopeError, match="another table"):
        parse_left(good.to_wire(), other_table, "peer9")


def test_a_left_reason_is_printable_and_short() -> None:
    message = sign_left(identity(0), ROSTER, 0, b"h" * 32, "bye\x1b[2J" + "x" * 500)
    parsed = parse_left(message.to_wire(), ROSTER, "x")
    assert parsed.reason.isprintable() and len(parsed.reason) == 200
    assert len(message.signed) < MAX_FRAME_SIZE and LEFT_DOMAIN.endswith(b"\0")


class StubMesh:
    """What `Departures` asks of a mesh: who is connected, and who a broadcast reaches."""

    def __init__(self, *connected: bytes) -> None:
        self.peers: dict[bytes, object] = dict.fromkeys(connected)
        self.reached: list[set[bytes]] = []

    def broadcast(self, message: dict[str, object], exclude: Iterable[bytes] = ()) -> int:
        reached = set(self.peers) - set(exclude)
        self.reached.append(reached)
        return len(reached)


def test_a_left_goes_to_the_seats_never_to_a_watcher(tmp_path: Path) -> None:
    """protocol.md 4.8: a watcher receives `watching` and `env` alone. Neither a seat's own
    `left` nor one it relays goes to a watcher connected to it (before, both did)."""
    seats = [identity(s) for s in range(3)]
    roster = Roster(b"t" * 16, tuple(s.key for s in seats))
    watcher = identity(7)
    mesh = StubMesh(seats[1].key, seats[2].key, watcher.key)
    departures = Departures(0, roster, mesh, tmp_path / "t", [].append, lambda: False)  # type: ignore[arg-type]
    gone = sign_left(seats[1], roster, 1, b"h" * 32, "peer1 left")
    departures.on_left(seats[1].public, gone.to_wire())  # relayed
    assert mesh.reached == [{seats[2].key}]
    own = sign_left(seats[0], roster, 0, b"h" * 32, "peer0 ended the table")
    assert departures.send(own) == 2
    assert mesh.reached[1] == {seats[1].key, seats[2].key}


def test_a_seat_leaving_and_returning_again_and_again_cannot_grow_the_left_file(
    tmp_path: Path,
) -> None:
    """Each `left` of a seat that comes back and leaves again is shown, but the file beside the
    transcript keeps one per log head and at most MAX_KEPT_PER_SEAT per seat (protocol.md
    10.12); before, every one was appended, without bound."""
    transcript = tmp_path / "table.fairdeal"
    shown: list[object] = []
    departures = Departures(0, ROSTER, StubMesh(), transcript, shown.append, lambda: False)  # type: ignore[arg-type]
    griefer = identity(1)
    sent = 0
    for head in range(3 * MAX_KEPT_PER_SEAT):
        for reason in ("bye", "bye again"):  # a second `left` at the same head
            message = sign_left(griefer, ROSTER, 1, bytes([head]) * 32, f"{reason} {head}")
            departures.on_left(griefer.public, message.to_wire())
            departures.connected(1)  # it comes back
            sent += 1
    assert len([e for e in shown if isinstance(e, SeatLeft)]) == sent  # every one shown
    kept = read_left(transcript, ROSTER)
    assert len(kept) == MAX_KEPT_PER_SEAT
    assert len({m.head for m in kept}) == MAX_KEPT_PER_SEAT  # one per head
    # After a restart the file's share is still used up: nothing more is kept.
    again = Departures(0, ROSTER, StubMesh(), transcript, shown.append, lambda: False)  # type: ignore[arg-type]
    again.restore()
    again.connected(1)
    later = sign_left(griefer, ROSTER, 1, b"\xff" * 32, "bye for good")
    again.on_left(griefer.public, later.to_wire())
    assert len(read_left(transcript, ROSTER)) == MAX_KEPT_PER_SEAT


async def test_envelopes_that_reach_a_seat_after_it_left_are_not_written_anywhere(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A seat that left has closed its transcript, but its channels stay up until its mesh
    closes: an envelope arriving then is dropped, never appended to the closed file."""
    table = await open_table(3, tmp_path, bots=False)
    try:
        for peer in table.peers:  # setup done: the game waits for a move
            await until(peer, lambda p=peer: p.table.state and p.table.state.to_act() is not None)
        leaver = table.peers[1]
        await leaver.end_table("peer1 left the table")
        size = table.transcript(1).stat().st_size
        held = len(leaver.sync.log.entries)
        mover = table.peers[table.peers[0].table.state.to_act()]
        await mover.act(legal_actions(mover.view())[0])
        others = [p for p in table.peers if p is not leaver]
        for peer in others:  # the move reached every channel, the leaver's included
            await peer.sync.wait_for_length(held + 1, WAIT_S)
        await table.meshes[1].drain()
        await asyncio.sleep(0)  # the leaver's reader takes in what it was sent
        assert table.transcript(1).stat().st_size == size
        assert len(leaver.sync.log.entries) == held
        failures = [r for r in caplog.records if r.exc_info is not None]
        assert not failures, [r.getMessage() for r in failures]
    finally:
        await table.close()
