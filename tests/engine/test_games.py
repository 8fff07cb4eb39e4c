"""The registry maps each game's name to the same small surface (docs/architecture.md)."""

from __future__ import annotations

import random

import pytest

from fairdeal.engine import DRIVER, IllegalAction, OracleDriver, get_game
from fairdeal.engine.larry import errors as LE
from fairdeal.engine.larry.actions import PlayFaceUp
from fairdeal.engine.larry.cards import CardKind


def test_unknown_game_names_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown game 'poker'"):
        get_game("poker")


def test_larry_surface_plays_a_game_through_the_registry_only() -> None:
    game = get_game("larry")
    assert game.name == "larry"
    options = game.options_from_data({"short_game": True})
    driver = OracleDriver(3, options, seed=5, game=game)
    bots = [game.make_bot("random", random.Random(seat)) for seat in range(3)]
    moves = 0
    while not driver.state.over:
        (seat,) = game.actors(driver.state)
        view = game.view_for(driver.state, driver.knowledge[seat], seat)
        action = bots[seat].choose(view)
        game.check_action(view, action)  # a bot's legal move passes its own check
        assert action in game.legal_actions(view) or type(action).__name__ == "PlayFaceDown"
        driver.act(seat, action)
        moves += 1
    assert moves > 0
    assert game.from_data(game.to_data(driver.state), game.state_type) == driver.state


def test_larry_check_action_refuses_a_claim_its_own_face_contradicts() -> None:
    game = get_game("larry")
    driver = OracleDriver(2, game.default_options(), seed=3, game=game)
    seat = driver.state.to_act()
    view = game.view_for(driver.state, driver.knowledge[seat], seat)
    deck = view.deck
    slot = next(s for s, f in view.hand if deck[f].kind is not CardKind.PICK_UP_2)
    with pytest.raises(LE.BadClaim) as info:
        game.check_action(view, PlayFaceUp(slot, CardKind.PICK_UP_2, target=1 - seat))
    assert info.value.seat == seat
    before = driver.state
    with pytest.raises(LE.NotYourTurn):
        other = 1 - seat
        other_view = game.view_for(before, driver.knowledge[other], other)
        game.check_action(other_view, PlayFaceUp(slot, CardKind.FACE_UP, target=seat))
    assert driver.state is before


def test_base_errors_are_shared_by_class() -> None:
    assert issubclass(LE.NotYourTurn, IllegalAction)
    assert LE.NotYourTurn is __import__("fairdeal.engine", fromlist=["NotYourTurn"]).NotYourTurn
    assert DRIVER == -1


def test_lie_surface_plays_a_game_through_the_registry_only() -> None:
    game = get_game("lie")
    assert game.name == "lie" and (game.min_players, game.max_players) == (2, 6)
    options = game.options_from_data({"hand_size": 3, "rounds": 2})
    with pytest.raises(ValueError):
        game.options_from_data({"hand_size": "three"})
    driver = OracleDriver(3, options, seed=2, game=game)
    bots = [game.make_bot("heuristic", random.Random(seat)) for seat in range(3)]
    rng = random.Random(0)
    while not driver.state.over:
        seat = rng.choice(game.actors(driver.state))
        view = game.view_for(driver.state, driver.knowledge[seat], seat)
        action = bots[seat].choose(view)
        game.check_action(view, action)
        assert action in game.legal_actions(view)
        driver.act(seat, action)
    assert driver.state.phase.value == "game_over"
    assert game.from_data(game.to_data(driver.state), game.state_type) == driver.state
    with pytest.raises(ValueError, match="pace"):
        game.make_bot("random", random.Random(0), 0)  # type: ignore[call-arg]
