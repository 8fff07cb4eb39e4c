"""The Lie's rules beyond the scenarios: the card data (T1), typed errors that change nothing,
tampered driver answers, private knowledge, a seat's own check, and the plain-data codec."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import msgpack
import pytest

from fairdeal.engine import DRIVER, Ack, Arrangement, Faces, OracleDriver, get_game, lie
from fairdeal.engine.lie import (
    DECK,
    BadResolution,
    Claim,
    IllegalAction,
    LieOptions,
    LieState,
    Pass,
    Phase,
    Place,
    Play,
    Side,
    apply,
    check_action,
    fronts_behind,
    legal_actions,
    new_game,
    view_for,
)
from fairdeal.engine.lie.cards import BACK_OF, COLOUR_OF, NUMBER_OF
from fairdeal.engine.lie.codec import event_from_data, state_from_data, to_data
from fairdeal.engine.requests import Reveal


def _driver(players: int = 3, hand_size: int = 3, seed: int = 1, **options: int) -> OracleDriver:
    return OracleDriver(players, LieOptions(hand_size=hand_size, **options), seed=seed)


def _claim_round_robin(driver: OracleDriver) -> None:
    state: LieState = driver.state
    while state.phase is Phase.BUILD:
        for seat in state.actors():
            if driver.state.unplaced[seat] is None:
                driver.act(seat, Claim(driver.state.table[0]))
            if driver.state.unplaced[seat] is not None:  # T3: the first card places itself
                driver.act(seat, Place(Side.RIGHT))
            state = driver.state
            if state.phase is not Phase.BUILD:
                break


# -- T1, T2 ----------------------------------------------------------------------------------------
def test_T1_every_front_back_pair_exists_once_and_lies_about_one_thing() -> None:
    assert len(DECK) == 96
    pairs = Counter(((c.colour, c.number), (c.back_colour, c.back_number)) for c in DECK)
    assert len(pairs) == 96 and set(pairs.values()) == {1}
    for card in DECK:
        assert (card.colour == card.back_colour) != (card.number == card.back_number)
    assert set(Counter((c.colour, c.number) for c in DECK).values()) == {6}
    by_back: dict[int, set[tuple[int, int]]] = {}
    for card in DECK:
        by_back.setdefault(card.back, set()).add((card.colour, card.number))
    assert len(by_back) == 16
    for back, fronts in by_back.items():
        assert fronts == set(fronts_behind(back)) and len(fronts) == 6


@pytest.mark.parametrize("players", [1, 7])
def test_T2_two_to_six_players(players: int) -> None:
    with pytest.raises(ValueError, match="2-6 players"):
        new_game(players)
    for ok in range(2, 7):
        assert new_game(ok).state.players == ok


def test_T3_a_full_12_card_hand_is_the_default() -> None:
    assert LieOptions().hand_size == 12
    with pytest.raises(ValueError, match="cannot make"):
        new_game(6, LieOptions(hand_size=16))


# -- errors change nothing -------------------------------------------------------------------------
def test_illegal_actions_name_the_seat_and_change_nothing() -> None:
    driver = _driver()
    state = driver.state
    snapshot = to_data(state)
    cases: list[tuple[int, object, type[IllegalAction]]] = [
        (5, Claim(state.table[0]), lie.NoSuchSeat),
        (0, Claim(10_000), lie.SlotTaken),
        (0, Pass(), lie.NotPlaying),
        (0, Play((state.table[0],)), lie.NotPlaying),
        (0, "jump", lie.UnknownAction),
    ]
    for seat, action, error in cases:
        with pytest.raises(error) as info:
            apply(state, seat, action)
        assert info.value.seat == seat and info.value.reason
    assert to_data(state) == snapshot
    _claim_round_robin(driver)
    state = driver.state
    turn = state.to_act()
    assert turn is not None
    hand = state.hands[turn]
    other = (turn + 1) % state.players
    for seat, action, error in [
        (other, Pass(), lie.NotYourTurn),
        (turn, Pass(), lie.MustLead),
        (turn, Play(()), lie.BadCombination),
        (turn, Play(state.hands[other][:1]), lie.CardNotInHand),
        (turn, Play((hand[0], hand[2])), lie.NotAdjacent),
        (turn, Play((hand[1], hand[0])), lie.NotAdjacent),
        (turn, Claim(state.prize_pile[0]), lie.NotBuilding),
    ]:
        with pytest.raises(error) as info:
            apply(state, seat, action)
        assert info.value.seat == seat
    assert to_data(driver.state) == to_data(state)


def test_claims_may_arrive_while_earlier_deals_are_still_being_served() -> None:
    driver = _driver(players=2)
    state = driver.state
    step = apply(state, 0, Claim(state.table[0]))
    assert [type(r).__name__ for r in step.state.pending] == ["Deal"]
    second = apply(step.state, 1, Claim(state.table[1]))  # the first deal is still pending
    assert len(second.state.pending) == 2
    with pytest.raises(lie.SlotTaken):
        apply(step.state, 1, Claim(state.table[0]))


# -- the driver's answers, tampered ----------------------------------------------------------------
def _at_a_reveal() -> tuple[OracleDriver, LieState, Reveal]:
    driver = _driver(players=2, hand_size=2, seed=4)
    _claim_round_robin(driver)
    seat = driver.state.to_act()
    step = apply(driver.state, seat, Play(driver.state.hands[seat][:1]))
    request = step.state.pending[0]
    assert isinstance(request, Reveal)
    return driver, step.state, request


def test_a_reveal_answered_honestly_is_accepted() -> None:
    driver, state, request = _at_a_reveal()
    faces = tuple(driver.faces[s] for s in request.slots)
    assert not apply(state, DRIVER, Faces(request.id, faces)).state.pending


@pytest.mark.parametrize("tamper", ["other_back", "out_of_range", "wrong_id", "ack", "by_a_seat"])
def test_tampered_reveals_are_refused(tamper: str) -> None:
    driver, state, request = _at_a_reveal()
    (slot,) = request.slots
    true_face = driver.faces[slot]
    wrong = next(f for f in range(96) if BACK_OF[f] != BACK_OF[true_face])
    seat, answer = DRIVER, Faces(request.id, (true_face,))
    if tamper == "other_back":  # a face the slot's public back cannot hide
        answer = Faces(request.id, (wrong,))
    elif tamper == "out_of_range":
        answer = Faces(request.id, (96,))
    elif tamper == "wrong_id":
        answer = Faces(request.id + 1, (true_face,))
    elif tamper == "ack":
        answer = Ack(request.id)  # type: ignore[assignment]
    else:
        seat = 0
    with pytest.raises(BadResolution):
        apply(state, seat, answer)


def test_a_tampered_arrangement_is_refused() -> None:
    step = new_game(2)
    state = step.state
    while type(state.pending[0]).__name__ != "Arrange":
        state = apply(state, DRIVER, Ack(state.pending[0].id)).state
    request = state.pending[0]
    slots = list(request.slots)
    for bad in (slots[:-1], [*slots[:-1], 10_000], [*slots[:-1], slots[0]]):
        with pytest.raises(BadResolution):
            apply(state, DRIVER, Arrangement(request.id, tuple(bad)))
    assert apply(state, DRIVER, Arrangement(request.id, tuple(reversed(slots)))).state.table == (
        tuple(reversed(slots))
    )


# -- partial information ---------------------------------------------------------------------------
def test_views_hold_own_fronts_backs_for_all_and_prizes_stay_unseen() -> None:
    driver = _driver(players=3, hand_size=2, seed=9, rounds=1)
    _claim_round_robin(driver)
    state = driver.state
    for seat in range(3):
        view = view_for(state, driver.knowledge[seat], seat)
        assert all(face is not None for _, face in view.hand)
        assert set(driver.knowledge[seat]) == set(state.hands[seat])
        assert set(view.backs) >= set(state.prize_pile) | {s for h in state.hands for s in h}
    assert not state.revealed
    bots = [get_game("lie").make_bot("random", random.Random(s)) for s in range(3)]
    while driver.state.phase is Phase.PLAY:
        (seat,) = driver.state.actors()
        driver.act(seat, bots[seat].choose(view_for(driver.state, driver.knowledge[seat], seat)))
    won = {slot for prizes in driver.state.prizes for slot in prizes}
    assert won and not any(won & set(known) for known in driver.knowledge)  # T8: unseen


def test_check_action_refuses_what_own_fronts_forbid() -> None:
    driver = _driver(players=2, hand_size=12, seed=3, rounds=1)
    _claim_round_robin(driver)
    state = driver.state
    seat = state.to_act()
    assert seat is not None
    view = view_for(state, driver.knowledge[seat], seat)
    hand = view.hand
    mixed = next(
        (a, b)
        for (a, fa), (b, fb) in pairwise(hand)
        if COLOUR_OF[fa] != COLOUR_OF[fb]  # type: ignore[index]
    )
    with pytest.raises(lie.MixedColours) as info:
        check_action(view, Play(mixed))
    assert info.value.seat == seat
    for action in legal_actions(view):
        check_action(view, action)
    lead = next(a for a in legal_actions(view) if isinstance(a, Play) and len(a.slots) == 1)
    driver.act(seat, lead)
    follower = driver.state.to_act()
    fview = view_for(driver.state, driver.knowledge[follower], follower)
    colour = driver.state.lead_colour
    for slot, face in fview.hand:
        assert face is not None
        if COLOUR_OF[face] != colour:
            with pytest.raises(lie.WrongColour):
                check_action(fview, Play((slot,)))
        elif NUMBER_OF[face] <= driver.state.best:
            with pytest.raises(lie.NotGreater):
                check_action(fview, Play((slot,)))
    assert Pass() in legal_actions(fview)


# -- codec -----------------------------------------------------------------------------------------
def test_states_and_events_survive_plain_data_and_msgpack() -> None:
    driver = _driver(players=4, hand_size=4, seed=2)
    _claim_round_robin(driver)
    data = msgpack.unpackb(msgpack.packb(to_data(driver.state)), strict_map_key=False)
    assert state_from_data(data) == driver.state
    for event in driver.events:
        assert event_from_data(to_data(event)) == event
