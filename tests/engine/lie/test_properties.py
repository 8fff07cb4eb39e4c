"""Property tests over random games of The Lie, each with ≥ 500 examples.

Games have 2-6 players, small or full hands, 1-3 rounds, and every seat picks uniformly among
`legal_actions(view)` (so the listed actions are also checked to be legal: no Violation may
ever happen), or is the heuristic bot. Simultaneous claims come in a random order.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairdeal.engine import OracleDriver
from fairdeal.engine.lie import LieOptions, LieState, Phase, Play, legal_actions, view_for
from fairdeal.engine.lie.bots.heuristic import HeuristicBot
from fairdeal.engine.lie.cards import BACK_OF, DECK_SIZE, NUMBER_OF
from fairdeal.engine.lie.events import Violation

Check = Callable[[LieState, OracleDriver], None]  # (state before, driver after one action)
EXAMPLES = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ACTIONS = 5_000

games = st.fixed_dictionaries(
    {
        "players": st.integers(min_value=2, max_value=6),
        "hand_size": st.sampled_from([1, 2, 3, 4, 12]),
        "rounds": st.integers(min_value=1, max_value=3),
        "seed": st.integers(min_value=0, max_value=2**32 - 1),
        "heuristic": st.booleans(),
    }
)


def _options(params: dict[str, int]) -> LieOptions:
    return LieOptions(hand_size=params["hand_size"], rounds=params["rounds"])


def _play(params: dict[str, int], check: Check | None = None) -> OracleDriver:
    rng = random.Random(params["seed"])
    driver = OracleDriver(params["players"], _options(params), seed=params["seed"])
    heuristic = HeuristicBot(random.Random(params["seed"] + 1)) if params["heuristic"] else None
    actions = 0
    while not driver.state.over:
        state: LieState = driver.state
        seats = state.actors()
        assert seats, f"nobody can act in {state.phase}"
        seat = rng.choice(seats)
        view = view_for(state, driver.knowledge[seat], seat)
        if heuristic is not None and seat == 0:
            action = heuristic.choose(view)
        else:
            legal = legal_actions(view)
            assert legal, f"seat {seat} may act but has no legal action"
            action = rng.choice(legal)
        before = driver.state
        driver.act(seat, action)
        if check is not None:
            check(before, driver)
        actions += 1
        assert actions < MAX_ACTIONS, "the game did not end"
    assert not any(isinstance(event, Violation) for event in driver.events)
    return driver


@EXAMPLES
@given(games)
def test_all_96_cards_are_always_accounted_for_and_none_is_in_two_places(
    params: dict[str, int],
) -> None:
    def check(_: LieState, driver: OracleDriver) -> None:
        state: LieState = driver.state
        slots = state.all_slots()
        assert len(slots) == len(set(slots)) == DECK_SIZE  # table, hands, trick, discard, prizes
        faces = [driver.faces[slot] for slot in slots]
        assert sorted(faces) == list(range(DECK_SIZE))  # every card exactly once

    _play(params, check)


@EXAMPLES
@given(games)
def test_every_back_hides_a_front_that_T1_allows(params: dict[str, int]) -> None:
    def check(_: LieState, driver: OracleDriver) -> None:
        state: LieState = driver.state
        assert set(state.backs) == set(state.all_slots())
        for slot, back in state.backs.items():
            assert BACK_OF[driver.faces[slot]] == back
        for slot, face in state.revealed.items():
            assert driver.faces[slot] == face

    _play(params, check)


@EXAMPLES
@given(games)
def test_hands_are_never_reordered(params: dict[str, int]) -> None:
    def check(before: LieState, driver: OracleDriver) -> None:
        after: LieState = driver.state
        if after.round_no != before.round_no or after.over:
            return
        for old, new in zip(before.hands, after.hands, strict=True):
            if len(new) == len(old) + 1:  # a claim: at the far left or the far right (T3)
                assert new[1:] == old or new[:-1] == old
            elif len(new) < len(old):  # a play: a block of adjacent cards left, the rest closes up
                cut = len(old) - len(new)
                assert any(old[:i] + old[i + cut :] == new for i in range(len(new) + 1))
            else:
                assert new == old

    _play(params, check)


@EXAMPLES
@given(games)
def test_every_game_ends_with_scores_from_the_prizes(params: dict[str, int]) -> None:
    driver = _play(params)
    state: LieState = driver.state
    assert state.phase is Phase.GAME_OVER and state.round_no == params["rounds"]
    points = [sum(NUMBER_OF[driver.faces[s]] for s in won) for won in state.prizes]
    assert list(state.scores) == points  # T10
    best = max(zip(points, map(len, state.prizes), strict=True))
    expected = [s for s in range(state.players) if (points[s], len(state.prizes[s])) == best]
    assert list(state.winners) == expected


@EXAMPLES
@given(games)
def test_replaying_the_action_log_reproduces_the_state(params: dict[str, int]) -> None:
    driver = _play(params)
    replay = OracleDriver(params["players"], _options(params), seed=params["seed"])
    for seat, action in driver.log:
        replay.act(seat, action)
    assert replay.state == driver.state
    assert replay.events == driver.events
    assert any(isinstance(action, Play) for _, action in driver.log)
