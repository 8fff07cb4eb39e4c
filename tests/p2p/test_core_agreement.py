"""Property: peers that receive the same envelopes in any order, with duplicates, agree on the
log and on every fault; an equivocation is found by every peer that sees both envelopes."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.p2p.errors import EnvelopeError
from fairdeal.p2p.log.envelope import Envelope, sign_envelope
from fairdeal.p2p.log.tablelog import Roster, TableLog, seat_order
from tests.p2p.core_support import make_identity

IDS = [make_identity(i) for i in range(3)]
ROSTER = Roster(b"agreement", tuple(identity.key for identity in IDS))
PROPERTY = settings(max_examples=60, deadline=None)


def new_log() -> TableLog:
    return TableLog(ROSTER, seat_order([0, 1, 2]))


@st.composite
def scenarios(draw: st.DrawFn) -> list[Envelope]:
    """Seats sign on their own, partial views; some envelopes name a bogus head."""
    views = [new_log() for _ in range(3)]
    made: list[Envelope] = []
    for step in range(draw(st.integers(1, 12))):
        seat = draw(st.integers(0, 2))
        view = views[seat]
        if draw(st.integers(0, 9)) == 0:  # a cheat: a head nobody ever had
            envelope = sign_envelope(
                IDS[seat],
                table=ROSTER.table,
                seat=seat,
                seq=view.author(IDS[seat], seat, "m", None).seq,
                prev=bytes([step]) * 32,
                kind="m",
                body=step,
            )
        else:
            envelope = view.author(IDS[seat], seat, "m", step)
        made.append(envelope)
        for other in views:
            if other is view or draw(st.booleans()):
                with contextlib.suppress(EnvelopeError):
                    other.receive(envelope, "gossip")
    return made


def deliver(envelopes: list[Envelope]) -> TableLog:
    sink = new_log()
    for envelope in envelopes:
        with contextlib.suppress(EnvelopeError):
            sink.receive(envelope, "peer")
    return sink


@PROPERTY
@given(scenarios(), st.randoms(use_true_random=False))
def test_any_arrival_order_gives_the_same_log_and_faults(made: list[Envelope], rng) -> None:
    results = []
    for _ in range(3):
        arrival = made + rng.sample(made, k=len(made) // 2)  # with duplicates
        rng.shuffle(arrival)
        sink = deliver(arrival)
        results.append(
            (
                [e.signed for e in sink.entries],
                [(f.seat, f.kind, f.evidence[0].seq) for f in sink.faults],
            )
        )
    assert all(result == results[0] for result in results)


@PROPERTY
@given(scenarios(), st.integers(0, 2), st.randoms(use_true_random=False))
def test_equivocation_is_found_whatever_the_order(made: list[Envelope], seat: int, rng) -> None:
    place = {"table": ROSTER.table, "seat": seat, "seq": 50, "kind": "m"}
    prev = new_log().head
    first = sign_envelope(IDS[seat], prev=prev, body="one", **place)
    second = sign_envelope(IDS[seat], prev=prev, body="two", **place)  # same place, other body
    arrival = [*made, first, second]
    rng.shuffle(arrival)
    sink = deliver(arrival)
    equivocations = [f for f in sink.faults if f.kind == "equivocation"]
    assert len(equivocations) == 1 and equivocations[0].seat == seat
    assert {e.signed for e in equivocations[0].evidence} == {first.signed, second.signed}
