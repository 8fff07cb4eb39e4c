"""Only the giver can deliver a gift (L11), and only a provable
accusation blames it.

A give-away's forward is signed by its giver (protocol.md 10.8). A forward from any other seat
is refused and never stored; a receiver that reports a bad give-away shows the signed forward in
its receipt, every peer judges it, and a false (or unprovable) accusation blames the accuser.
"""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import pytest

from fairdeal.engine.bots import make_bot
from fairdeal.engine.larry import CardKind, LarryOptions, Transfer
from fairdeal.engine.larry.events import CardGiven
from fairdeal.p2p.deck import DeckFault, DeckSession
from fairdeal.p2p.games.larry.table import LarryTable
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.table.core.api import StateChanged
from fairdeal.p2p.table.core.forwards import ForwardError, SignedForward, sign_forward
from fairdeal.p2p.table.core.giveaways import GiveAways
from fairdeal.p2p.table.runtime.peer import TablePeer
from fairdeal.p2p.table.runtime.randomness import SeededRandom
from fairdeal.p2p.table.tools.audit import audit_transcript

from .cheaters import (
    BadForwardTable,
    BareAccuserTable,
    FalseAccuserTable,
    ForwardForgerTable,
    GiverBot,
    bogus_forward,
)
from .sansio import SansIOTable
from .support import open_table, play_to_end
from .test_cheating import CHEATER, assert_caught
from .test_driver import gifts

GIVE_TO = {0: 1, 1: 2, 2: 0, 3: 0}  # seat 3 (the forger) gives honestly too


def gifts_seen(peer: TablePeer) -> list[CardGiven]:
    """The gifts (L11) a networked peer reported."""
    return [
        event
        for change in peer.history.events
        if isinstance(change, StateChanged)
        for event in change.events
        if isinstance(event, CardGiven)
    ]


def givers(seats: int = 3) -> Any:
    bots = [GiverBot(make_bot("heuristic", random.Random(s)), GIVE_TO[s]) for s in range(seats)]
    return lambda seat, t: bots[seat].choose(t.view())


async def test_a_third_seats_forwards_are_refused_and_never_stored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    forger = 3
    wrap = {s: (lambda b, s=s: GiverBot(b, GIVE_TO[s])) for s in range(4)}
    caplog.set_level(logging.INFO)
    table = await open_table(4, tmp_path, wrap=wrap, tables={forger: ForwardForgerTable}, seed=3)
    try:
        await play_to_end(table, timeout=90)
        for peer in table.peers:
            assert peer.table is not None
            assert peer.table.fault is None, peer.table.fault  # nobody is blamed
            assert peer.table.state is not None and peer.table.state.over
        honest = gifts_seen(table.peers[0])
        given = [g for g in honest if forger not in (g.seat, g.target)]
        assert given, "no gift between two honest seats with this seed"
        forging = table.peers[forger].table
        assert isinstance(forging, ForwardForgerTable) and forging.forged > 64 * 3
        refused = caplog.text.count("sent a forward in seat")  # forged in the giver's name
        assert refused >= len(given)
        for peer in table.peers:  # item 5: only checked forwards from real givers are kept
            kept = peer.secrets.get(f"table/{table.roster.table.hex()}/forwards", [])
            received = {(g.seat, g.slot) for g in honest if g.target == peer.seat}
            assert {(k["m"]["seat"], k["slot"]) for k in kept} <= received
            assert len(kept) <= len(received)
            assert all(k["m"]["shares"] for k in kept)
        for seat in range(4):
            report = audit_transcript(table.transcript(seat))
            assert report.verified, report.fault
    finally:
        await table.close()


async def test_a_false_accusation_after_a_good_forward_blames_the_accuser(
    tmp_path: Path,
) -> None:
    wrap = {s: (lambda b: GiverBot(b, CHEATER)) for s in (1, 2, 3)}
    table = await open_table(4, tmp_path, wrap=wrap, tables={CHEATER: FalseAccuserTable}, seed=1)
    try:
        await assert_caught(table, "falsely accused")
    finally:
        await table.close()


def every_seat_blames(seat: int, words: str, tables: dict[int, Any]) -> SansIOTable:
    """Run a 3-seat sans-IO table of givers with these seats' table classes: every seat stops
    with a fault naming `seat`, `words` in its reason. Returns the table."""
    table = SansIOTable(3, LarryOptions(short_game=True), seed=3, tables=tables)
    table.run(givers())
    faults = [(t.fault.seat, t.fault.what) for t in table.tables if t.fault is not None]
    assert len(faults) == 3, faults
    assert all(blamed == seat and words in what for blamed, what in faults), faults
    return table


def test_an_accusation_without_the_forward_blames_the_accuser() -> None:
    every_seat_blames(1, "without its signed forward", {1: BareAccuserTable})


class ForgedEvidenceGifts(GiveAways):
    def receipt(
        self, request: Transfer, forward: SignedForward | None, fault: str | None
    ) -> dict[str, Any]:
        receipt = super().receipt(request, forward, fault or "bad")
        if forward is not None:
            signature = bytes([forward.signature[0] ^ 1]) + forward.signature[1:]
            receipt["forward"] = {**forward.to_data(), "sig": signature}
        return receipt


class ForgedEvidenceTable(LarryTable):
    """A receiver that accuses its giver with the giver's forward, its signature spoiled."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gifts = ForgedEvidenceGifts(self.gifts.terms, self.deck)


def test_an_accusation_with_a_forward_the_giver_did_not_sign_blames_the_accuser() -> None:
    every_seat_blames(1, "did not sign for this gift", {1: ForgedEvidenceTable})


def test_a_bad_forward_is_proved_by_the_receiver_and_blames_the_giver() -> None:
    giver = 0
    table = every_seat_blames(giver, "gave a bad card", {giver: BadForwardTable})
    receiver = table.tables[GIVE_TO[giver]]
    assert not receiver.kept_forwards  # item 5: a forward that failed is never kept


def test_a_forward_from_a_seat_that_is_not_the_giver_is_refused_and_kept_nowhere() -> None:
    """Sans-IO: seat 2's forward for the pending gift 0→1 is refused by seat 1 (and the
    giver's real forward then opens the card)."""
    table = SansIOTable(3, LarryOptions(short_game=True), seed=3)
    sent: list[str] = []
    original = table.tables[1].receive_private

    def forge_first(sender: int, data: Any) -> None:
        forward = SignedForward.from_data(data, 3)
        forged = sign_forward(
            table.ids[2].sign,
            table.table_id,
            forward.transfer,
            forward.slot,
            bogus_forward(2, 1),
            game="larry",
        )
        with pytest.raises(DeckFault, match="not giving") as refused:
            original(2, forged.to_data())
        assert refused.value.seat == 2
        sent.append("forged")
        original(sender, data)

    table.tables[1].receive_private = forge_first  # type: ignore[method-assign]
    table.run(givers())
    assert sent, "no gift to seat 1 with this seed"
    assert all(t.fault is None for t in table.tables)
    assert all(f.giver == 0 for f in table.tables[1].kept_forwards)
    assert any(g.target == 1 for g in gifts(table.tables[1]))
    assert CardKind.GIVE_AWAY_1  # the card the givers play


def test_a_receiver_rebuilt_after_a_crash_opens_its_gifts_from_the_kept_forwards() -> None:
    """A receiver that restarts replays its log with the forwards it kept (checked and used
    before its receipts went out) and knows its given cards again, with no giver online."""
    table = SansIOTable(3, LarryOptions(short_game=True), seed=3)
    table.run(givers())
    receiver = table.tables[1]
    assert receiver.kept_forwards, "no gift to seat 1 with this seed"
    rebuilt = LarryTable(
        table.table_id,
        3,
        LarryOptions(short_game=True),
        DeckSession(table.table_id, 1, 3, random_bytes=SeededRandom(bytes([3, 1]) * 16)),
        keys=table.roster.keys,
    )
    rebuilt.start()
    for forward in receiver.kept_forwards:
        rebuilt.restore_forward(forward.to_data())
    for envelope in table.logs[1].entries:
        rebuilt.apply(envelope)
    assert rebuilt.fault is None and rebuilt.head == receiver.head
    gifted = {f.slot for f in receiver.kept_forwards}
    known = [rebuilt.deck.known_card(rebuilt.masked_slot(s)) for s in gifted]
    assert gifted and all(face is not None for face in known)
    assert not rebuilt.kept_forwards  # on disk already: nothing is written twice


class ExtraKeyGifts(GiveAways):
    def receipt(
        self, request: Transfer, forward: SignedForward | None, fault: str | None
    ) -> dict[str, Any]:
        return {**super().receipt(request, forward, fault), "note": "thanks"}


class ExtraKeyReceiptTable(LarryTable):
    """A receiver whose receipts carry a key besides `slot`, `fault` and `forward`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gifts = ExtraKeyGifts(self.gifts.terms, self.deck)


def test_a_receipt_with_another_key_is_a_fault_of_its_author() -> None:
    """protocol.md 10.8 and section 8: a `larry.received` body holds `slot`, and `fault` with
    `forward` when it accuses; any other key is a fault of the receiver, not ignored."""
    every_seat_blames(1, "receipt with unknown fields", {1: ExtraKeyReceiptTable})


def test_an_accusation_with_the_givers_real_forward_blames_the_accuser() -> None:
    """10.8: the receipt shows the forward the giver really signed for this gift, and its shares
    verify: whatever the `fault` text says, every peer blames the accuser."""
    every_seat_blames(1, "falsely accused", {1: FalseAccuserTable})


def test_a_forward_with_another_field_is_refused_and_kept_nowhere() -> None:
    """10.8: a signed forward has exactly four fields; `fwd` is read strictly, not leniently."""
    giver = Identity.generate("giver")
    forward = sign_forward(giver.sign, b"t" * 16, 4, 9, bogus_forward(0, 1), game="larry")
    SignedForward.from_data(forward.to_data(), 2)
    with pytest.raises(ForwardError, match="exactly the fields"):
        SignedForward.from_data({**forward.to_data(), "note": 1}, 2)
