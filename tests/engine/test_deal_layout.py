"""Point 11: the oracle's deal layout is one function, and the shuffles it served are reported."""

from __future__ import annotations

import pytest

from fairdeal.engine import OracleDriver, Shuffled
from fairdeal.engine.larry import LarryOptions
from fairdeal.engine.larry.cards import build_deck
from fairdeal.engine.larry.deal import deal_layout
from fairdeal.engine.larry.options import CARDS_PER_PLAYER


@pytest.mark.parametrize("players", sorted(CARDS_PER_PLAYER))
def test_the_layout_partitions_the_deck_by_L3(players: int) -> None:
    per = CARDS_PER_PLAYER[players]
    layout = deal_layout(players, per, 54)
    positions = [p for hand in layout.hands for p in hand] + list(layout.pickup)
    assert sorted(positions) == list(range(54))
    assert all(len(hand) == per for hand in layout.hands)
    assert layout.seat_of(layout.hands[-1][0]) == players - 1
    assert layout.seat_of(layout.pickup[0]) is None


def test_the_layout_refuses_a_deck_too_small() -> None:
    with pytest.raises(ValueError, match="cannot deal"):
        deal_layout(8, 7, 54)


@pytest.mark.parametrize("players", [2, 5, 8])
def test_every_hand_is_dealt_by_the_layout(players: int) -> None:
    options = LarryOptions(hands=2)
    size = len(build_deck(options))
    orders = [list(reversed(range(size))), list(range(size))]
    driver = OracleDriver(players, options, decks=orders)
    state = driver.state
    layout = deal_layout(players, options.cards_per_player(players), size)
    first = min(state.all_slots())
    hands, pickup = layout.slots(first)
    assert state.hands == hands and state.pickup == pickup
    for seat, hand in enumerate(layout.hands):
        assert [driver.knowledge[seat][first + p] for p in hand] == [orders[0][p] for p in hand]
    assert driver.shuffles == [
        Shuffled(0, "NewDeck", tuple(range(first, first + size)),
                 tuple(build_deck(options)[f].name for f in orders[0]))
    ]  # fmt: skip
