"""Every fair-deck object goes to plain data and back unchanged; parsing is strict."""

from __future__ import annotations

import msgpack
import pytest

from fairdeal.p2p.deck import DeckSession, LoopbackTable, ParseError, Slot
from fairdeal.p2p.deck.group import mul_base
from fairdeal.p2p.deck.masking import MaskedCard
from fairdeal.p2p.deck.messages import parse_message

from .conftest import TABLE_ID, seeded, shuffled_table


def test_every_logged_message_round_trips_through_msgpack_and_the_parser() -> None:
    table = shuffled_table(3, 4, seed=81)
    table.command(lambda s: s.deal({Slot("d0", 0): 1}))
    table.command(lambda s: s.coin("c"))
    gives = [s.give(Slot("d0", 0), 2) for s in table.sessions]
    messages = [*table.log, (1, gives[1].messages[0])]
    kinds = {m["kind"] for _, m in messages}
    assert kinds == {
        "deck.key",
        "deck.shuffle",
        "deck.shares",
        "deck.forward",
        "deck.coin.commit",
        "deck.coin.reveal",
    }
    for sender, message in messages:
        wire = msgpack.unpackb(msgpack.packb(message, use_bin_type=True), raw=False)
        parsed = parse_message(wire, sender, 3)
        assert parsed.to_data() == message


def test_small_objects_round_trip() -> None:
    slot = Slot("pile-2", 17)
    assert Slot.from_data(slot.to_data()) == slot
    card = MaskedCard(mul_base(3), mul_base(5))
    assert MaskedCard.from_data(card.to_data()) == card


@pytest.mark.parametrize(
    "data",
    [
        {"list": "x"},
        {"list": "", "i": 0},
        {"list": "x", "i": 1.0},
        {"list": "x", "i": 5000},
        {"list": b"x", "i": 0},
        ["x", 0],
    ],
)
def test_bad_slots_are_rejected(data) -> None:
    with pytest.raises(ParseError):
        Slot.from_data(data)


def test_masked_card_needs_exactly_two_valid_points() -> None:
    good = mul_base(3)
    for data in ([good], [good, good, good], [good, bytes(32)], (good, "x"), {"a": good}):
        with pytest.raises(ParseError):
            MaskedCard.from_data(data)


def test_a_game_runs_when_every_message_crosses_msgpack() -> None:
    def through_msgpack(_sender: int, message: dict) -> dict:
        return msgpack.unpackb(msgpack.packb(message, use_bin_type=True), raw=False)

    sessions = [DeckSession(TABLE_ID, s, 3, random_bytes=seeded(90 + s)) for s in range(3)]
    table = LoopbackTable(sessions, tamper=through_msgpack)
    table.command(lambda s: s.start())
    table.command(lambda s: s.new_deck("d0", "larry", range(5)))
    table.command(lambda s: s.deal({Slot("d0", 0): 0, Slot("d0", 1): 1}))
    table.command(lambda s: s.give(Slot("d0", 0), 2))
    table.command(lambda s: s.reveal([Slot("d0", 0), Slot("d0", 1)]))
    faces = {s.revealed_card(Slot("d0", 0)) for s in sessions}
    assert len(faces) == 1 and None not in faces
    assert all(not s._sent for s in sessions)  # every own message came back and was recognised
