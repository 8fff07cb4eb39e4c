"""`check_action(view, action)`: a seat's own action checked against everything it knows, before
it is sent. The public rules first, then its own faces (L12); and the L6 bounds on
announcements, which the rules and the codec both enforce."""

from __future__ import annotations

import random

import pytest

from fairdeal.engine.bots import make_bot
from fairdeal.engine.events import Violation
from fairdeal.engine.larry import (
    CardKind,
    LarryOptions,
    OracleDriver,
    PlayFaceDown,
    PlayFaceUp,
    apply,
    legal_actions,
    view_for,
)
from fairdeal.engine.larry import errors as E
from fairdeal.engine.larry.actions import ANNOUNCE_MAX, ANNOUNCE_MIN, Doubt
from fairdeal.engine.larry.codec import DecodeError, action_from_data, to_data
from fairdeal.engine.larry.legal import check_action
from tests.engine.larry_deals import DECK, driver_with_hands, slot_of


def _view(driver: OracleDriver, seat: int):
    return view_for(driver.state, driver.knowledge[seat], seat)


def _obliged_seat_1(hand: list[str]) -> OracleDriver:
    """Seat 0 puts "play face-up" before seat 1 (L12), whose hand starts with `hand`."""
    driver = driver_with_hands([["face_up"], hand, []])
    driver.act(0, PlayFaceUp(slot_of(driver, 0, "face_up"), CardKind.FACE_UP, 1))
    assert driver.state.obligated[1] and driver.state.to_act() == 1
    return driver


def test_a_gloat_under_the_obligation_while_holding_numbers_is_refused_before_it_is_sent() -> None:
    """The issue's case: `u` on a gloat while obliged and holding number cards. The public rules
    accept it (they cannot see the hand), the reveal would prove it a cheat; check_action refuses
    it with the reason and the ruling."""
    driver = _obliged_seat_1(["gloat", "3"])
    gloat = PlayFaceUp(slot_of(driver, 1, "gloat"), CardKind.GLOAT)
    apply(driver.state, 1, gloat)  # the public state cannot tell
    with pytest.raises(E.FalseClaim) as info:
        check_action(_view(driver, 1), gloat)
    assert info.value.seat == 1
    assert "L12" in info.value.reason and "gloat" in info.value.reason
    # Sent anyway, the table would stop the game on the revealed hand: that is the fault path.
    driver.act(1, gloat)
    assert any(isinstance(e, Violation) and e.seat == 1 for e in driver.events)


def test_an_honest_zero_play_with_only_gloats_passes() -> None:
    """L12: a hand of only gloat cards plays one face-up, counting 0 (three-card hands here)."""
    options = LarryOptions(hand_size=3)
    deck = [c.id for c in DECK]
    order = [
        *[c.id for c in DECK if c.name == "face_up"][:1],
        *[c.id for c in DECK if c.name == "7"][:2],
        *[c.id for c in DECK if c.name == "gloat"],
    ]
    rest = [card for card in deck if card not in order]
    driver = OracleDriver(3, options, decks=[order + rest])
    driver.act(0, PlayFaceUp(slot_of(driver, 0, "face_up"), CardKind.FACE_UP, 1))
    view = _view(driver, 1)
    assert all(DECK[face].kind is CardKind.GLOAT for _, face in view.hand)
    check_action(view, PlayFaceUp(view.hand[0][0], CardKind.GLOAT))  # nothing raised


@pytest.mark.parametrize(
    ("card", "claim", "target"),
    [
        ("7", CardKind.PICK_UP_2, 1),  # a number claimed as an action card
        ("pick_up_2", CardKind.FACE_UP, 1),  # one action card claimed as another
        ("change_direction", CardKind.PICK_UP_2, 2),
    ],
)
def test_a_face_up_claim_the_own_card_contradicts_is_refused(
    card: str, claim: CardKind, target: int
) -> None:
    driver = driver_with_hands([[card], [], []])
    action = PlayFaceUp(slot_of(driver, 0, card), claim, target)
    apply(driver.state, 0, action)  # publicly fine
    with pytest.raises(E.FalseClaim, match=r"that card is .*\(L6, L12\)"):
        check_action(_view(driver, 0), action)


def test_an_obliged_number_claimed_on_a_gloat_is_refused() -> None:
    driver = _obliged_seat_1(["gloat", "3"])
    with pytest.raises(E.FalseClaim, match="gloat card, not a number card"):
        check_action(_view(driver, 1), PlayFaceUp(slot_of(driver, 1, "gloat"), CardKind.NUMBER))
    check_action(_view(driver, 1), PlayFaceUp(slot_of(driver, 1, "3"), CardKind.NUMBER))


def test_the_public_rules_come_first() -> None:
    driver = driver_with_hands([["3"], [], []])
    with pytest.raises(E.NotYourTurn):
        check_action(_view(driver, 1), Doubt())
    with pytest.raises(E.CannotDoubtEmptyPile, match="L7"):
        check_action(_view(driver, 0), Doubt())
    with pytest.raises(E.LimitExceeded, match="L6"):
        check_action(_view(driver, 0), PlayFaceDown(slot_of(driver, 0, "3"), 8))


def test_every_listed_legal_action_passes_the_check() -> None:
    """Bots choose from legal_actions: the check must never refuse one of them."""
    rng = random.Random(5)
    checked = 0
    for game in range(12):
        driver = OracleDriver(2 + game % 4, seed=game)
        bots = [make_bot("random", random.Random(rng.random())) for _ in range(driver.players)]
        while not driver.state.over:
            seat = driver.state.to_act()
            assert seat is not None
            view = _view(driver, seat)
            actions = legal_actions(view)
            for action in rng.sample(actions, min(len(actions), 8)):
                check_action(view, action)
                checked += 1
            driver.act(seat, bots[seat].choose(view))
    assert checked > 1000


# -- L6 bounds ----------------------------------------------------------------------------------
def test_announcements_below_the_floor_are_refused_by_the_rules() -> None:
    driver = driver_with_hands([["3"], [], []])
    slot = slot_of(driver, 0, "3")
    apply(driver.state, 0, PlayFaceDown(slot, ANNOUNCE_MIN))
    for absurd in (ANNOUNCE_MIN - 1, -99999999999999999999):
        with pytest.raises(E.AnnounceOutOfRange, match="at least -99"):
            apply(driver.state, 0, PlayFaceDown(slot, absurd))
    with pytest.raises(E.LimitExceeded):
        apply(driver.state, 0, PlayFaceDown(slot, 10**30))


@pytest.mark.parametrize("announce", [ANNOUNCE_MIN - 1, ANNOUNCE_MAX + 1, -(2**64), 2**70])
def test_the_codec_refuses_announcements_out_of_range(announce: int) -> None:
    with pytest.raises(DecodeError, match=r"\$\.announce: .* is outside -99\.\.99"):
        action_from_data({"type": "PlayFaceDown", "slot": 1, "announce": announce})
    data = to_data(PlayFaceDown(1, ANNOUNCE_MIN))
    assert action_from_data(data) == PlayFaceDown(1, ANNOUNCE_MIN)


def test_limits_outside_the_announcement_range_are_refused() -> None:
    with pytest.raises(ValueError, match="limits"):
        LarryOptions(limits=(100, 5)).validate(3)
