"""The table log: verification, ordering by the game's rules, buffering, duplicates,
equivocation evidence, catch-up sets; no clock in an envelope (protocol v3)."""

from __future__ import annotations

import random

import msgpack
import pytest

from fairdeal.p2p.errors import EnvelopeError
from fairdeal.p2p.log.envelope import Envelope, parse_envelope, sign_envelope
from fairdeal.p2p.log.tablelog import (
    EquivocationError,
    Rejected,
    Roster,
    TableLog,
    genesis_head,
    seat_order,
)
from tests.p2p.core_support import make_identity

TABLE = b"table-0001"
IDS = [make_identity(i) for i in range(4)]
ROSTER = Roster(TABLE, tuple(identity.key for identity in IDS))


def new_log(ordering=None, apply=None) -> TableLog:
    return TableLog(ROSTER, ordering or seat_order([0, 1, 2, 3]), apply)


def play_round(authoring: TableLog, rounds: int = 1) -> list[Envelope]:
    """Envelopes of `rounds` full seat-order rounds, authored on `authoring`."""
    made = []
    for _ in range(rounds):
        for seat in range(4):
            envelope = authoring.author(IDS[seat], seat, "move", {"n": len(made)})
            authoring.receive(envelope)
            made.append(envelope)
    return made


def seat_0_envelope(*, seq: int = 0, prev: bytes | None = None, kind: str = "m") -> Envelope:
    """An envelope seat 0 signs with no body, after the table's genesis unless `prev` is given."""
    return sign_envelope(
        IDS[0],
        table=TABLE,
        seat=0,
        seq=seq,
        prev=genesis_head(TABLE) if prev is None else prev,
        kind=kind,
        body=None,
    )


def test_envelopes_in_order_are_applied_and_heads_chain() -> None:
    source, sink = new_log(), new_log()
    envelopes = play_round(source, 2)
    for envelope in envelopes:
        assert sink.receive(envelope, "peer") == [envelope]
    assert sink.entries == envelopes and sink.head == source.head != genesis_head(TABLE)


def test_out_of_order_arrival_is_buffered_then_applied_in_the_rules_order() -> None:
    envelopes = play_round(new_log(), 3)
    shuffled = envelopes[:]
    random.Random(4).shuffle(shuffled)
    sink = new_log()
    for envelope in shuffled:
        sink.receive(envelope, "peer")
    assert sink.entries == envelopes
    assert sink.buffered == []


def test_early_message_waits_for_its_turn() -> None:
    source = new_log()
    first, second = play_round(source)[:2]
    sink = new_log()
    assert sink.receive(second, "peer") == []  # seat 1 signed before seeing seat 0's move
    assert sink.buffered == [second]
    assert sink.receive(first, "peer") == [first, second]


def test_duplicate_and_replayed_envelopes_are_ignored() -> None:
    envelopes = play_round(new_log())
    sink = new_log()
    for envelope in envelopes:
        sink.receive(envelope, "peer")
    for envelope in envelopes:
        assert sink.receive(envelope, "replayer") == []
    assert sink.entries == envelopes and sink.faults == []


def test_bad_signature_is_refused_naming_the_sender_and_changes_nothing() -> None:
    good = new_log().author(IDS[0], 0, "move", {"card": 3})
    forged = sign_envelope(
        IDS[3], table=TABLE, seat=0, seq=0, prev=good.prev, kind="move", body=None
    )
    sink = new_log()
    with pytest.raises(EnvelopeError, match=r"peer-x.*bad signature.*seat 0"):
        sink.receive(forged, "peer-x")
    tampered = parse_envelope(
        {"t": "env", "d": good.signed.replace(b"card", b"cars"), "s": good.signature}, "peer-y"
    )
    with pytest.raises(EnvelopeError, match="bad signature"):
        sink.receive(tampered, "peer-y")
    assert sink.entries == [] and sink.buffered == [] and sink.head == genesis_head(TABLE)
    assert sink.receive(good, "peer") == [good]  # the real one still goes through


def test_wrong_table_id_is_refused() -> None:
    other = TableLog(Roster(b"other-table", ROSTER.keys), seat_order([0, 1, 2, 3]))
    envelope = other.author(IDS[0], 0, "move", None)
    sink = new_log()
    with pytest.raises(EnvelopeError, match="not this table"):
        sink.receive(envelope, "peer")
    assert sink.buffered == []


def test_seat_outside_the_roster_is_refused() -> None:
    small = TableLog(Roster(TABLE, ROSTER.keys[:2]), seat_order([0, 1]))
    envelope = new_log().author(IDS[3], 3, "move", None)
    with pytest.raises(EnvelopeError, match="seat 3, which is empty"):
        small.receive(envelope, "peer")


def test_equivocation_keeps_both_signed_envelopes_as_evidence() -> None:
    source = new_log()
    honest = source.author(IDS[0], 0, "move", {"card": 1})
    double = source.author(IDS[0], 0, "move", {"card": 2})
    assert (honest.seat, honest.seq) == (double.seat, double.seq)
    sink = new_log()
    sink.receive(honest, "peer")
    with pytest.raises(EquivocationError, match=r"seat 0 .*equivocated") as error:
        sink.receive(double, "relay")
    assert error.value.culprit.startswith("seat 0") and "delivered by relay" in str(error.value)
    (fault,) = sink.faults
    assert fault.seat == 0 and fault.kind == "equivocation"
    assert {e.signed for e in fault.evidence} == {honest.signed, double.signed}
    assert all(e.verify(IDS[0].key) for e in fault.evidence)
    assert sink.entries == [honest]


def test_game_rejection_is_a_fault_of_the_author_and_not_applied() -> None:
    def apply(envelope: Envelope) -> None:
        if envelope.body == {"n": 1}:
            raise Rejected("L12: must be a number card")

    source = new_log()
    envelopes = play_round(source)
    sink = new_log(apply=apply)
    for envelope in envelopes:
        sink.receive(envelope, "peer")
    (fault,) = sink.faults
    assert fault.seat == 1 and fault.kind == "rejected" and "L12" in fault.detail
    assert envelopes[1] not in sink.entries and len(sink.entries) == 1  # waits for seat 1


def test_unknown_prev_head_is_a_fault() -> None:
    bogus = seat_0_envelope(prev=b"\x07" * 32)
    sink = new_log()
    assert sink.receive(bogus, "peer") == []
    assert sink.faults[0].kind == "bad-prev" and sink.faults[0].seat == 0


def test_a_version_2_envelope_is_refused_naming_its_version() -> None:
    """Layout 1 (protocol version 2, with a Lamport time) is refused with a message naming it."""
    old = msgpack.packb([1, TABLE, 0, 0, 1, genesis_head(TABLE), "m", None])
    with pytest.raises(EnvelopeError, match="protocol version 2 or older"):
        parse_envelope({"t": "env", "d": old, "s": bytes(64)}, "peer")


def test_catch_up_lists_what_a_peer_lacks() -> None:
    source = new_log()
    envelopes = play_round(source, 2)
    early = source.author(IDS[1], 1, "move", None)  # not yet its turn: buffered
    source.receive(early)
    behind = new_log()
    for envelope in envelopes[:3]:
        behind.receive(envelope, "p")
    missing = source.envelopes_after(behind.have)
    assert missing == [*envelopes[3:], early]
    for envelope in missing:
        behind.receive(envelope, "relay")
    assert behind.entries == source.entries
    assert behind.buffered == [early]


def test_envelopes_far_ahead_or_beyond_the_buffer_are_refused() -> None:
    far = seat_0_envelope(seq=5000)
    with pytest.raises(EnvelopeError, match="too far ahead"):
        new_log().receive(far, "p")
    tiny = TableLog(ROSTER, seat_order([0, 1, 2, 3]), max_buffered=2)
    envelopes = play_round(new_log(), 2)
    tiny.receive(envelopes[1], "p")
    tiny.receive(envelopes[2], "p")
    with pytest.raises(EnvelopeError, match="buffer full"):
        tiny.receive(envelopes[3], "p")


def test_waiting_for_names_the_seat_whose_silence_blocks_the_log() -> None:
    log = new_log()
    assert log.waiting_for() == {0}  # seat 0's turn and nothing from it yet
    log.receive(log.author(IDS[1], 1, "move", None), "p")  # early: still waiting for seat 0
    assert log.waiting_for() == {0}
    log.receive(log.author(IDS[0], 0, "move", None), "p")
    assert len(log.entries) == 2 and log.waiting_for() == {2}


def test_envelope_kinds_are_printable_ascii_only() -> None:
    for kind in ("", "a b", "move\x1b[2J", "é", "x" * 65):
        envelope = seat_0_envelope(kind="placeholder")
        forged = envelope.signed.replace(b"\xabplaceholder", msgpack.packb(kind))
        with pytest.raises(EnvelopeError, match="printable ASCII"):
            parse_envelope({"t": "env", "d": forged, "s": envelope.signature}, "peer")


def test_a_known_envelope_with_a_forged_signature_is_still_refused() -> None:
    source = new_log()
    envelope = source.author(IDS[0], 0, "move", None)
    sink = new_log()
    sink.receive(envelope, "peer")
    forged = parse_envelope({"t": "env", "d": envelope.signed, "s": bytes(64)}, "relay")
    with pytest.raises(EnvelopeError, match=r"relay.*bad signature"):
        sink.receive(forged, "relay")
    assert sink.entries == [envelope] and sink.faults == []


def test_a_listener_that_leaves_while_told_lets_the_others_hear_the_envelope() -> None:
    """`off_applied` from inside a listener (a seat's last watcher gone): the listeners after it
    still hear the envelope being applied, and it hears no later one."""
    log, heard, late = new_log(), [], []

    def once(envelope: Envelope) -> None:
        heard.append(envelope)
        log.off_applied(once)

    log.on_applied(once)
    log.on_applied(late.append)
    envelopes = play_round(log)
    assert heard == envelopes[:1] and late == envelopes
