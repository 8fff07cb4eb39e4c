"""No group work twice: each received point is validated once, when its message is
parsed, and never again inside the arithmetic of a proof check."""

from __future__ import annotations

import pytest
import rbcl

from fairdeal.p2p.deck import Slot, wire
from fairdeal.p2p.deck.chain_check import verify_batch
from fairdeal.p2p.deck.messages import ShuffleMessage, parse_message
from fairdeal.p2p.deck.shuffle import ShuffleStatement, verify

from .conftest import TABLE_ID, keyed_table, shuffled_table


def count_validations(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    seen: list[bytes] = []
    original = wire.parse_point

    def counting(raw: object, what: str = "point"):
        seen.append(raw)  # type: ignore[arg-type]
        return original(raw, what)

    monkeypatch.setattr(wire, "parse_point", counting)
    return seen


def test_a_shuffle_check_validates_no_point_inside_the_arithmetic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = keyed_table(3, seed=9)
    outputs = [s.new_deck("d0", "larry", range(8)) for s in table.sessions]
    data = outputs[0].messages[0]
    message = parse_message(data, 0, 3)
    assert isinstance(message, ShuffleMessage)
    inputs = tuple(table.sessions[1].masked_card(Slot("d0", i)) for i in range(8))
    statement = ShuffleStatement(
        TABLE_ID, "d0", 0, table.sessions[1].joint_key, inputs, message.deck
    )
    calls: list[bytes] = []
    original = rbcl.crypto_core_ristretto255_is_valid_point

    def counting(point: bytes) -> bool:
        calls.append(point)
        return original(point)

    monkeypatch.setattr(rbcl, "crypto_core_ristretto255_is_valid_point", counting)
    verify(statement, message.proof)
    verify_batch([(statement, message.proof)])
    assert calls == []
    parse_message(data, 0, 3)  # parsing is where the 5N + 5 points are checked, once each
    assert len(calls) == 5 * 8 + 5


def test_a_shares_message_parsed_by_the_caller_is_not_parsed_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = shuffled_table(3, 6, seed=10)
    outputs = [s.deal({Slot("d0", 0): 2}) for s in table.sessions]
    share_of_seat_1 = outputs[1].messages[0]
    owner = table.sessions[2]
    seen = count_validations(monkeypatch)
    parsed = owner.parse(1, share_of_seat_1)
    assert len(seen) == 1  # the one share point d
    out = owner.handle(1, share_of_seat_1, parsed)
    assert len(seen) == 1
    assert out.events == []  # seat 0's share is still missing
