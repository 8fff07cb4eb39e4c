"""Bots act on their view only and play legal moves; the heuristic bot plays sensibly."""

from __future__ import annotations

import random

import pytest

from fairdeal.engine.bots import make_bot
from fairdeal.engine.larry import (
    CardKind,
    Doubt,
    LarryOptions,
    OracleDriver,
    PlayFaceDown,
    view_for,
)
from fairdeal.engine.larry.bots.heuristic import HeuristicBot
from fairdeal.engine.selfplay import make_bots, play_game
from tests.engine.larry_deals import DECK, deck_dealing


def test_the_heuristic_bot_doubts_an_impossible_total() -> None:
    # Seat 2 holds all three 7s, so seat 1's step of 7 (-1 to 6) cannot be honest.
    options = LarryOptions(hand_size=3)
    deck = deck_dealing([["-1", "4", "4"], ["2", "4", "4"], ["7", "7", "7"]], per=3)
    driver = OracleDriver(3, options, decks=[deck])
    minus = next(s for s in driver.state.hands[0] if DECK[driver.faces[s]].name == "-1")
    driver.act(0, PlayFaceDown(minus, -1))
    two = next(s for s in driver.state.hands[1] if DECK[driver.faces[s]].name == "2")
    driver.act(1, PlayFaceDown(two, 6))
    bot = HeuristicBot(random.Random(0))
    view = view_for(driver.state, driver.knowledge[2], 2)
    assert bot.chance_correct(view) < 0.2
    assert bot.choose(view) == Doubt()


def test_the_heuristic_bot_announces_truthfully_when_a_card_fits() -> None:
    deck = deck_dealing([["3", "4", "-1", "2", "2", "1", "0", "3", "4"], [], []], per=9)
    driver = OracleDriver(3, decks=[deck])
    view = view_for(driver.state, driver.knowledge[0], 0)
    action = HeuristicBot(random.Random(0)).choose(view)
    assert isinstance(action, PlayFaceDown)
    face = driver.faces[action.slot]
    assert action.announce == DECK[face].value  # an empty pile: the total is the card's value
    assert DECK[face].kind is CardKind.NUMBER


def test_the_heuristic_bot_calls_larry() -> None:
    options = LarryOptions(hand_size=2)
    deck = deck_dealing([["3", "1"], ["2", "2"], ["4", "4"]], per=2)
    driver = OracleDriver(3, options, decks=[deck])
    action = HeuristicBot(random.Random(0)).choose(view_for(driver.state, driver.knowledge[0], 0))
    assert isinstance(action, PlayFaceDown) and action.larry


@pytest.mark.parametrize("spec", ["random", "heuristic"])
def test_bots_play_whole_games_from_their_views(spec: str) -> None:
    rng = random.Random(3)
    for players in (2, 5, 8):
        result = play_game(make_bots(spec, players, rng), LarryOptions(), seed=players)
        assert result.hands == 3 and result.winners


def test_the_heuristic_bot_beats_random_bots() -> None:
    rng = random.Random(7)
    games, wins = 60, 0.0
    for _ in range(games):
        result = play_game(make_bots("heuristic,random", 4, rng), seed=rng.randrange(1 << 32))
        wins += (0 in result.winners) / len(result.winners)
    assert wins / games > 0.45  # far above the 1/4 of an equal player


def test_unknown_bots_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle", random.Random(0))
    with pytest.raises(ValueError, match="5 bots for 4 seats"):
        make_bots("random,random,random,random,random", 4, random.Random(0))
