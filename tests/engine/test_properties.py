"""Property tests over random games with random legal actions (issue item 10).

Each property runs at least 500 examples (hypothesis). The games use short or full rules, 2-8
players, and choose uniformly among `legal_actions(view)` (plus, now and then, a forgotten Larry
call), so they also check that the listed actions are legal and that a seat to act always has one.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairdeal.engine.larry import (
    DRIVER,
    IllegalAction,
    LarryOptions,
    OracleDriver,
    apply,
    legal_actions,
    view_for,
)
from fairdeal.engine.larry.actions import AcceptOut, Action, Doubt, PlayFaceDown, PlayFaceUp
from fairdeal.engine.larry.cards import CardKind, deck_of
from fairdeal.engine.larry.codec import event_from_data, state_from_data, to_data
from fairdeal.engine.larry.events import DoubtResolved, GameOver, HandScored
from fairdeal.engine.larry.rules import new_game
from fairdeal.engine.larry.state import LarryState, Phase

EXAMPLES = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ACTIONS = 5_000

games = st.fixed_dictionaries(
    {
        "players": st.integers(min_value=2, max_value=8),
        "seed": st.integers(min_value=0, max_value=2**32 - 1),
        "short": st.booleans(),
        "first": st.integers(min_value=0, max_value=7),
    }
)


def _choose(driver: OracleDriver, rng: random.Random) -> tuple[int, Action]:
    state = driver.state
    seat = state.to_act()
    assert seat is not None
    actions = legal_actions(view_for(state, driver.knowledge[seat], seat))
    assert actions, f"seat {seat} has no legal action in {state.phase}"
    action = rng.choice(actions)
    if isinstance(action, PlayFaceDown | PlayFaceUp) and action.larry and rng.random() < 0.1:
        action = replace(action, larry=False)  # forget to call Larry (L15)
    return seat, action


def _play(params: dict[str, int], check_each_state: bool = False) -> OracleDriver:
    players = params["players"]
    options = LarryOptions(short_game=bool(params["short"]), first_seat=params["first"] % players)
    driver = OracleDriver(players, options, seed=params["seed"])
    rng = random.Random(params["seed"] ^ 0x5EED)
    for _ in range(MAX_ACTIONS):
        if driver.state.over:
            return driver
        seat, action = _choose(driver, rng)
        driver.act(seat, action)
        if check_each_state:
            _check_accounting(driver)
    raise AssertionError(f"the game did not end within {MAX_ACTIONS} actions")


def _check_accounting(driver: OracleDriver) -> None:
    state = driver.state
    deck = deck_of(state.options)
    slots = state.all_slots()
    assert len(slots) == len(deck), "a card is missing or extra"
    assert len(set(slots)) == len(slots), "a slot is in two places"
    faces = sorted(driver.faces[slot] for slot in slots)
    assert faces == list(range(len(deck))), "the live slots are not the whole deck"
    for seat, hand in enumerate(state.hands):
        known = driver.knowledge[seat]
        assert all(slot in known for slot in hand), "a seat does not know its own card"
        view = view_for(state, known, seat)
        assert view.hand_sizes == state.hand_sizes()
        assert len(view.hand) == len(hand)
        assert all(face is not None for _, face in view.hand)
    assert len(state.pile_seats) == len(state.pile)
    for slot, face in state.revealed.items():
        assert driver.faces[slot] == face, "a revealed face differs from the dealt one"


@EXAMPLES
@given(games)
def test_every_card_is_always_in_exactly_one_place(params: dict[str, int]) -> None:
    _play(params, check_each_state=True)


@EXAMPLES
@given(games)
def test_every_game_ends_and_scores_follow_L17_and_L18(params: dict[str, int]) -> None:
    driver = _play(params)
    state = driver.state
    deck = deck_of(state.options)
    assert state.phase is Phase.GAME_OVER
    scored = [event for event in driver.events if isinstance(event, HandScored)]
    assert len(scored) == (1 if params["short"] else 3)
    totals = [0] * state.players
    for event in scored:
        for seat in range(state.players):
            if seat == event.out_seat:
                expected = 2
                assert event.hands[seat] == ()
            else:
                expected = -sum(deck[face].symbols for face in event.hands[seat])
                assert expected == -len(event.hands[seat])  # L2 default: one symbol a card
            assert event.hand_scores[seat] == expected
            totals[seat] += expected
        assert list(event.totals) == totals
    assert list(state.scores) == totals
    for event in driver.events:
        if isinstance(event, DoubtResolved):  # L8, L9
            assert event.total == sum(deck[face].value for face in event.cards)
            assert event.gloats == sum(deck[face].kind is CardKind.GLOAT for face in event.cards)
            assert event.correct == (event.gloats % 2 == 1 or event.total == event.announced)
            assert event.loser == (event.doubter if event.correct else event.last_player)
            assert event.doubter != event.last_player
            assert len(event.played_by) == len(event.cards)  # who played each pile card
            assert all(0 <= seat < state.players for seat in event.played_by)
    game_over = [event for event in driver.events if isinstance(event, GameOver)]
    assert len(game_over) == 1
    if params["short"]:
        assert game_over[0].winners == (scored[0].out_seat,)
    else:
        best = max(totals)
        assert game_over[0].winners == tuple(s for s, t in enumerate(totals) if t == best)


@EXAMPLES
@given(games)
def test_replaying_the_action_log_reproduces_the_game(params: dict[str, int]) -> None:
    driver = _play(params)
    replay = OracleDriver(driver.players, driver.options, seed=params["seed"])
    for seat, action in driver.log:
        replay.act(seat, action)
    assert replay.state == driver.state
    assert replay.events == driver.events


@EXAMPLES
@given(games)
def test_states_and_events_survive_plain_data_and_msgpack(params: dict[str, int]) -> None:
    driver = _play(params)
    for state in (driver.state,):
        packed = msgpack.packb(to_data(state))
        assert state_from_data(msgpack.unpackb(packed)) == state
    for event in driver.events:
        assert event_from_data(msgpack.unpackb(msgpack.packb(to_data(event)))) == event


@EXAMPLES
@given(games)
def test_the_pure_engine_matches_the_driver_step_by_step(params: dict[str, int]) -> None:
    """Replaying through bare `apply` with the recorded faces gives the same states."""
    driver = _play(params)
    step = new_game(driver.players, driver.options)
    state: LarryState = step.state
    events = list(step.events)
    log = iter(driver.log)
    oracle = OracleDriver(driver.players, driver.options, seed=params["seed"], start=False)
    while not state.over:
        if state.pending:
            resolution = oracle.answer(state.pending[0])
            step = apply(state, DRIVER, resolution)
        else:
            seat, action = next(log)
            step = apply(state, seat, action)
        state = step.state
        events.extend(step.events)
        slots = state.all_slots()  # accounting holds between requests too
        assert len(slots) == len(set(slots)) == len(deck_of(state.options))
    assert state == driver.state
    assert events == driver.events
    counts = Counter(type(event).__name__ for event in events)
    assert counts["HandStarted"] == counts["HandScored"]


def test_an_obliged_seat_always_has_a_legal_action() -> None:
    """The L12 zero play: a hand of gloats and a barred give-away still has a move."""
    options = LarryOptions(hand_size=2)
    deck = deck_of(options)
    gloat = next(c.id for c in deck if c.kind is CardKind.GLOAT)
    give = next(c.id for c in deck if c.kind is CardKind.GIVE_AWAY_1)
    face_up = next(c.id for c in deck if c.kind is CardKind.FACE_UP)
    rest = [c.id for c in deck if c.id not in (gloat, give, face_up)]
    order = [face_up, rest[0], give, gloat, *rest[1:]]
    driver = OracleDriver(2, options, decks=[order])
    driver.act(0, PlayFaceUp(driver.state.hands[0][0], CardKind.FACE_UP, 1, None, True))
    view = view_for(driver.state, driver.knowledge[1], 1)
    actions = legal_actions(view)
    assert actions, "seat 1 is stuck"
    assert all(isinstance(a, PlayFaceUp) and a.target is None for a in actions)
    assert {a.claim for a in actions if isinstance(a, PlayFaceUp)} == {
        CardKind.GIVE_AWAY_1,
        CardKind.GLOAT,
    }


def _arbitrary_action(rng: random.Random, state: LarryState) -> Action:
    """A well-typed action with random contents: any slot, seat, claim or total."""
    slot = rng.randrange(-1, state.next_slot + 2)
    seat = rng.randrange(-1, state.players + 1)
    maybe_seat = rng.choice([None, seat])
    choice = rng.randrange(4)
    if choice == 0:
        return Doubt()
    if choice == 1:
        return AcceptOut()
    if choice == 2:
        return PlayFaceDown(slot, rng.randrange(-20, 12), rng.random() < 0.5)
    give = rng.choice([None, rng.randrange(-1, state.next_slot + 2)])
    return PlayFaceUp(slot, rng.choice(list(CardKind)), maybe_seat, give, rng.random() < 0.5)


@EXAMPLES
@given(games)
def test_listed_actions_are_accepted_and_anything_else_is_refused_cleanly(
    params: dict[str, int],
) -> None:
    """Every sampled listed action is legal; random actions by random seats either pass or
    raise an IllegalAction naming that seat, never another exception, never a state change."""
    players = params["players"]
    options = LarryOptions(short_game=True, first_seat=params["first"] % players)
    driver = OracleDriver(players, options, seed=params["seed"])
    rng = random.Random(params["seed"])
    for _ in range(MAX_ACTIONS):
        state = driver.state
        if state.over:
            return
        seat = state.to_act()
        assert seat is not None
        listed = legal_actions(view_for(state, driver.knowledge[seat], seat))
        for action in rng.sample(listed, min(3, len(listed))):
            apply(state, seat, action)  # must not raise
        actor = rng.randrange(-1, players + 1)
        try:
            apply(state, actor, _arbitrary_action(rng, state))
        except IllegalAction as error:
            assert error.seat == actor
            assert error.reason
        assert driver.state is state
        driver.act(seat, rng.choice(listed))
    raise AssertionError("the game did not end")
