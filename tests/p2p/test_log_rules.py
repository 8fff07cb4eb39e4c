"""The table log is told the game's rules when it is made (p2p/log/tablelog.py `Rules`): it
asks them whose envelope comes next and hands them each envelope, with no callback into
whoever built it."""

from __future__ import annotations

from dataclasses import dataclass, field

from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import Rejected, Roster, Rules, SeatOrder, TableLog, seat_order
from tests.p2p.core_support import make_identity

TABLE = b"table-rules1"
IDS = [make_identity(i) for i in range(3)]
ROSTER = Roster(TABLE, tuple(identity.key for identity in IDS))


@dataclass
class CountdownRules:
    """Seat 2, then seat 0, then seat 1, then nobody; refuses a body that says "cheat"."""

    order: list[int] = field(default_factory=lambda: [2, 0, 1])
    applied: list[Envelope] = field(default_factory=list)

    def expected_seat(self) -> int | None:
        return self.order[0] if self.order else None

    def apply(self, envelope: Envelope) -> None:
        if envelope.body == "cheat":
            raise Rejected("a cheat")
        self.applied.append(envelope)
        self.order.pop(0)


def authored(seat: int, body: str) -> Envelope:
    return TableLog(ROSTER, seat_order([seat])).author(IDS[seat], seat, "move", body)


def test_a_log_given_rules_applies_in_their_order_through_their_apply() -> None:
    rules = CountdownRules()
    assert isinstance(rules, Rules)
    log = TableLog(ROSTER, rules)
    first, second, third = authored(0, "a"), authored(1, "b"), authored(2, "c")
    assert log.receive(first) == [] and log.receive(second) == []  # held: seat 2 is first
    assert log.waiting_for() == frozenset({2})
    assert log.receive(third) == [third, first, second]
    assert rules.applied == [third, first, second] and log.entries == rules.applied
    assert log.waiting_for() == frozenset()


def test_an_envelope_the_rules_refuse_is_a_fault_and_not_an_entry() -> None:
    rules = CountdownRules()
    log = TableLog(ROSTER, rules)
    assert log.receive(authored(2, "cheat")) == []
    assert log.entries == [] and rules.applied == []
    assert [(f.seat, f.kind) for f in log.faults] == [(2, "rejected")]


def test_seat_order_is_data() -> None:
    assert seat_order([1, 0]) == SeatOrder((1, 0))
    assert not isinstance(SeatOrder((0,)), Rules)
