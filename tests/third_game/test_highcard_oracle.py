"""High card, a game that lives only in tests/, registered from outside fairdeal through the
entry points `fairdeal.games` and `fairdeal.tables`, plays under the oracle driver to a winner
(docs/architecture.md "Adding a game")."""

from __future__ import annotations

import importlib
import random
from pathlib import Path

import pytest

from fairdeal.engine import DRIVER, IllegalAction, OracleDriver
from fairdeal.engine.errors import GameIsOver, NotYourTurn, WaitingForDriver
from fairdeal.engine.games import game_names, game_of_options, get_game
from fairdeal.engine.requests import Faces
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.games import table_class, table_class_for
from tests.third_game.plugin import installed


def _highcard(name: str):  # the plugin's modules import only once it is on the path
    return importlib.import_module(f"highcard.{name}")


def play(driver: OracleDriver) -> int:
    """Every seat's bot shows when its turn comes; the number of moves."""
    game = driver.game
    bots = [game.make_bot("random", random.Random(seat)) for seat in range(driver.players)]
    moves = 0
    while not driver.state.over:
        (seat,) = game.actors(driver.state)
        view = game.view_for(driver.state, driver.knowledge[seat], seat)
        action = bots[seat].choose(view)
        game.check_action(view, action)
        assert action in game.legal_actions(view)
        driver.act(seat, action)
        moves += 1
    return moves


def test_the_registries_find_it_only_while_its_distribution_is_on_the_path() -> None:
    assert "highcard" not in game_names()
    with installed():
        names = game_names()
        assert names[-1] == "highcard" and names[0] != "highcard"  # the default game stays
        assert get_game("highcard").title == "High card"
        options = get_game("highcard").default_options()
        assert game_of_options(options).name == "highcard"
        assert issubclass(table_class("highcard"), TableDriver)
        assert table_class_for(options).game_name == "highcard"
    assert "highcard" not in game_names()
    with pytest.raises(ValueError, match="unknown game 'highcard'"):
        get_game("highcard")


@pytest.mark.parametrize("players", [2, 3, 8])
def test_it_plays_under_the_oracle_to_the_highest_card(highcard: Path, players: int) -> None:
    game = get_game("highcard")
    driver = OracleDriver(players, game.default_options(), seed=players)
    assert driver.game is game  # found from the options' type
    assert play(driver) == players  # one Show per seat
    state = driver.state
    dealt = [driver.faces[slot] for (slot,) in state.hands]
    assert list(state.shown) == dealt
    winner = dealt.index(max(dealt))
    assert state.winners == (winner,)
    assert state.scores == tuple(int(seat == winner) for seat in range(players))
    won = [e for e in driver.events if type(e).__name__ == "Won"]
    assert len(won) == 1 and (won[0].seat, won[0].face) == (winner, max(dealt))
    assert game.from_data(game.to_data(state), game.state_type) == state


def test_a_given_deck_order_decides_the_winner_and_suits_break_equal_ranks(
    highcard: Path,
) -> None:
    game = get_game("highcard")
    options = game.options_from_data({"ranks": 2, "suits": 4})  # K and A, four suits each
    names = game.card_names(options)
    assert names == ("KC", "KD", "KH", "KS", "AC", "AD", "AH", "AS")
    # seat k is dealt slot k: seat 0 the ace of clubs, seat 1 the ace of hearts
    driver = OracleDriver(3, options, decks=[[4, 6, 3, 0, 1, 2, 5, 7]])
    play(driver)
    assert driver.state.winners == (1,)  # AH beats AC: equal ranks, the later suit


def test_a_seat_sees_its_own_card_and_no_other_before_the_show(highcard: Path) -> None:
    game = get_game("highcard")
    driver = OracleDriver(3, game.default_options(), seed=1)
    for seat in range(3):
        view = game.view_for(driver.state, driver.knowledge[seat], seat)
        assert view.my_face == driver.faces[seat]
        assert driver.knowledge[seat].keys() == {seat}
    assert driver.state.shown == (None, None, None)


def test_illegal_actions_name_the_seat_and_change_nothing(highcard: Path) -> None:
    game = get_game("highcard")
    show = _highcard("actions").Show()
    driver = OracleDriver(2, game.default_options(), seed=4)
    before = driver.state
    with pytest.raises(NotYourTurn) as info:
        driver.act(1, show)
    assert info.value.seat == 1 and driver.state is before
    with pytest.raises(NotYourTurn):
        game.check_action(game.view_for(before, driver.knowledge[1], 1), show)
    asked = game.apply(before, 0, show).state  # seat 0 shows: its card is not open yet
    with pytest.raises(WaitingForDriver):
        game.apply(asked, 1, show)
    play(driver)
    with pytest.raises(GameIsOver):
        driver.act(0, show)
    with pytest.raises(ValueError, match="ranks"):
        game.options_from_data({"ranks": "K"})
    with pytest.raises(ValueError, match="ranks must be 1-13"):
        game.options_from_data({"ranks": 14}).validate(2)
    with pytest.raises(ValueError, match="high card needs 2-8 players"):
        OracleDriver(9, game.default_options())


def test_a_driver_that_opens_a_card_already_shown_is_refused(highcard: Path) -> None:
    game = get_game("highcard")
    show = _highcard("actions").Show()
    driver = OracleDriver(2, game.default_options(), seed=6)
    driver.act(0, show)
    first = driver.state.shown[0]
    state = game.apply(driver.state, 1, show).state
    (reveal,) = state.pending
    with pytest.raises(IllegalAction) as info:  # a tampered answer: seat 0's card again
        game.apply(state, DRIVER, Faces(reveal.id, (first,)))
    assert info.value.seat == DRIVER and state.shown[1] is None
