"""Cheating is caught in play: each cheat is detected by every honest peer, blamed on the
cheater's seat with evidence, the hand stops, nobody crashes, and `fairdeal audit` flags it."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.engine.bots import Bot
from fairdeal.engine.larry import PlayFaceDown, legal_actions
from fairdeal.engine.larry.codec import to_data
from fairdeal.p2p.canonical import pack_canonical, unpack_canonical
from fairdeal.p2p.deck.messages import SHARES
from fairdeal.p2p.games.larry.table import ACT
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.table.core.api import FaultDetected
from fairdeal.p2p.table.runtime.peer import TablePeer, evidence_path
from fairdeal.p2p.table.tools.audit import audit_transcript

from .cheaters import (
    FakeNumberBot,
    ForeignSlotBot,
    ForgedRosterTable,
    OverLimitBot,
    PlacerBot,
    RefusingTable,
    TamperedShuffleTable,
    WrongShareTable,
)
from .support import LocalTable, open_table, play_to_end

CHEATER = 0


async def assert_caught(table: LocalTable, what: str) -> None:
    await play_to_end(table, timeout=60)
    for peer in table.peers:
        fault = peer.table.fault
        assert fault is not None, f"seat {peer.seat} did not stop"
        if peer.seat != CHEATER:
            assert fault.seat == CHEATER, fault
            assert what in fault.what, fault
            assert fault.evidence
    heads = {peer.table.head for peer in table.peers if peer.seat != CHEATER}
    assert len(heads) == 1  # the honest peers stopped at the same place
    for seat in range(1, len(table.peers)):
        report = audit_transcript(table.transcript(seat))
        assert not report.verified
        assert report.fault.seat == CHEATER, report.fault
        assert what in report.fault.what


def _placers_on_the_cheater(bot: Bot) -> Bot:
    return PlacerBot(bot, CHEATER)


# One cheat each: (seats, the cheater's table class or bot wrapper, other seats' wrappers, seed,
# the words the fault names). L12: in the face-up case seats 1-3 put "play face-up" on seat 0
# whenever they can; seat 0 then claims a number card face-up and shows an action card.
CHEATS = {
    "a wrong decryption share": (4, {CHEATER: WrongShareTable}, {}, 0, "share"),
    "an announcement above the limit": (3, {}, {CHEATER: OverLimitBot}, 0, "above the limit"),
    "playing a slot it does not hold": (3, {}, {CHEATER: ForeignSlotBot}, 0, "not in your hand"),
    "a non-number under the face-up obligation": (
        4,
        {},
        {CHEATER: FakeNumberBot, **dict.fromkeys((1, 2, 3), _placers_on_the_cheater)},
        8,
        "claimed number face-up",
    ),
    "a refused reveal": (3, {CHEATER: RefusingTable}, {}, 0, "deck.refuse"),
}


@pytest.mark.parametrize("cheat", CHEATS)
async def test_a_cheat_is_caught(cheat: str, tmp_path: Path) -> None:
    seats, tables, wrap, seed, what = CHEATS[cheat]
    table = await open_table(seats, tmp_path, tables=tables, wrap=wrap, seed=seed)
    try:
        await assert_caught(table, what)
    finally:
        await table.close()


async def test_a_tampered_shuffle_proof_is_caught_before_any_card_is_dealt(
    tmp_path: Path,
) -> None:
    """The honest seats verify the shuffles on a worker and the next seats shuffle on before
    the checks end: the proof is still refused, its author blamed, at the same place by every
    honest seat, and no share of that deck is on the log."""
    table = await open_table(4, tmp_path, tables={CHEATER: TamperedShuffleTable})
    try:
        await assert_caught(table, "shuffle")
        for peer in table.peers:
            kinds = [e.body.get("kind") for e in peer.sync.log.entries if e.kind == "deck"]
            assert SHARES not in kinds, f"seat {peer.seat} saw shares of an unverified deck"
    finally:
        await table.close()


async def test_an_action_out_of_turn_is_caught(tmp_path: Path) -> None:
    table = await open_table(3, tmp_path)
    cheater = table.peers[CHEATER]
    try:

        def others_turn() -> bool:
            expect = cheater.table.expected() if cheater.table else None
            return expect is not None and expect.kind == ACT and expect.seat != CHEATER

        await cheater.sync.wait_until(others_turn, timeout=30)
        slot = cheater.table.state.hands[CHEATER][0]
        cheater.sync.publish(ACT, to_data(PlayFaceDown(slot, 0)))
        await assert_caught(table, "out of turn")
    finally:
        await table.close()


async def two_actions_for_one_place(table: LocalTable) -> tuple[Envelope, Envelope]:
    """At the cheater's (botless) turn, sign two different legal moves for the same place,
    sending neither."""
    cheater = table.peers[CHEATER]
    await cheater.sync.wait_until(lambda: cheater.table.my_turn(), timeout=30)
    # two different legal moves (whatever the deal: an L12 obligation allows other ones)
    one, other = legal_actions(cheater.table.view())[:2]
    log = cheater.sync.log
    first = log.author(cheater.identity, CHEATER, ACT, to_data(one))
    second = log.author(cheater.identity, CHEATER, ACT, to_data(other))
    return first, second


async def assert_stopped_for_equivocation(table: LocalTable, peer: TablePeer) -> FaultDetected:
    """The honest `peer` stops naming the cheater for equivocation, and its transcript's audit
    says the same; returns the peer's fault."""
    await peer.finished(timeout=30)
    fault = peer.table.fault
    assert fault is not None and fault.seat == CHEATER
    assert "equivocation" in fault.what
    report = audit_transcript(table.transcript(peer.seat))
    assert not report.verified and report.fault.seat == CHEATER
    assert "equivocation" in report.fault.what
    return fault


async def test_two_signed_actions_for_one_place_are_caught(tmp_path: Path) -> None:
    table = await open_table(4, tmp_path, wrap={CHEATER: lambda bot: None})
    cheater = table.peers[CHEATER]
    try:
        first, second = await two_actions_for_one_place(table)
        assert (first.seq, first.signed) != (second.seq, second.signed) and first.seq == second.seq
        for seat, pair in ((1, (first, second)), (2, (second, first)), (3, (first, second))):
            for envelope in pair:
                cheater.mesh.send(table.roster.keys[seat], envelope.to_wire())
        for peer in table.peers[1:]:
            await assert_stopped_for_equivocation(table, peer)
    finally:
        await table.close()


async def test_a_forged_roster_record_is_caught_naming_the_forged_signature(
    tmp_path: Path,
) -> None:
    """protocol.md 5.5: seat 0's `roster` envelope must be exactly the roster every seat signed;
    one altered signature (seat 2's) stops every honest peer at the first envelope."""
    table = await open_table(3, tmp_path, tables={CHEATER: ForgedRosterTable})
    try:
        await assert_caught(table, "not the roster we signed")
        for peer in table.peers[1:]:
            assert peer.table.applied == 1
            assert "'signatures of seats': [2]" in peer.table.fault.evidence
    finally:
        await table.close()


async def test_two_actions_for_one_place_sent_to_disjoint_seats_are_caught(tmp_path: Path) -> None:
    """Attack 2 over loopback: one signed action to seat 1, a different one for the same seq to
    seats 2 and 3, each seat getting only one. The honest peers' relays make the two meet; each
    honest peer stops naming seat 0 with both envelopes, keeps them in its evidence file, and
    the auditor reports it from the transcript and that file."""
    table = await open_table(4, tmp_path, wrap={CHEATER: lambda bot: None})
    cheater = table.peers[CHEATER]
    try:
        first, second = await two_actions_for_one_place(table)
        cheater.mesh.send(table.roster.keys[1], first.to_wire())
        for seat in (2, 3):
            cheater.mesh.send(table.roster.keys[seat], second.to_wire())
        for peer in table.peers[1:]:
            fault = await assert_stopped_for_equivocation(table, peer)
            assert fault.what == "equivocation"
            assert first.id.hex()[:16] in fault.evidence and second.id.hex()[:16] in fault.evidence
            kept = evidence_path(table.transcript(peer.seat)).read_bytes()
            assert first.signature in kept and second.signature in kept
    finally:
        await table.close()


async def test_a_forged_second_envelope_names_only_the_seat_that_delivered_it(
    tmp_path: Path,
) -> None:
    """Seat 1 sends seat 2 another body under seat 0's signature of an envelope seat 2 holds:
    no equivocation is found against seat 0, seat 1 is named for a bad signature, the forgery
    goes no further and the game plays to its end."""
    table = await open_table(3, tmp_path)
    try:
        at_two = table.peers[2]
        await at_two.sync.wait_until(lambda: at_two.table.applied >= 12, timeout=30)
        genuine = next(e for e in at_two.sync.log.entries if e.seat == 0)
        fields = unpack_canonical(genuine.signed)
        fields[-1] = {"forged": True}
        forged = {"t": "env", "d": pack_canonical(fields), "s": genuine.signature}
        table.meshes[1].send(table.roster.keys[2], forged)
        await play_to_end(table, timeout=60)
        assert all(peer.table.fault is None for peer in table.peers)
        assert all(not peer.sync.log.faults for peer in table.peers)
        named = [str(error) for error in table.meshes[2].errors]
        assert any("seat 1" in line and "bad signature" in line for line in named), named
        assert not any("bad signature" in str(e) for e in table.meshes[0].errors)
    finally:
        await table.close()
