"""Each game's table-level knowledge comes from its presenter (p2p/table/core/presenter.py): found
by the game's name through the `fairdeal.presenters` entry points, a plain one for a game that
registers none, and the result of a table that ends early (`result_so_far`) worked out by it."""

from __future__ import annotations

import random

import pytest

from fairdeal.engine.bots import make_bot
from fairdeal.engine.games import game_names, get_game
from fairdeal.engine.oracle import OracleDriver
from fairdeal.engine.registry import Registry
from fairdeal.p2p.table.core import presenter as presenter_module
from fairdeal.p2p.table.core.api import ProofStatus, TableEnded
from fairdeal.p2p.table.core.presenter import (
    Mark,
    Presenter,
    presenter_for,
    presenter_of_state,
    result_so_far,
)


def finished(game: str, players: int, seed: int) -> OracleDriver:
    """A whole game of `game` between heuristic bots under the oracle driver."""
    rules = get_game(game)
    options = rules.default_options()
    if hasattr(options, "short_game"):
        options = type(options)(short_game=True)
    if hasattr(options, "rounds"):
        options = type(options)(rounds=1, hand_size=2)
    driver = OracleDriver(players, options, seed=seed, game=rules)
    bots = [make_bot("heuristic", random.Random(s), game) for s in range(players)]
    while not driver.state.over:
        seat = driver.state.to_act()
        seat = seat if seat is not None else rules.actors(driver.state)[0]
        driver.act(
            seat, bots[seat].choose(rules.view_for(driver.state, driver.knowledge[seat], seat))
        )
    return driver


def test_every_registered_game_has_a_presenter_of_its_own() -> None:
    presenters = {name: presenter_for(name) for name in game_names()}
    assert all(isinstance(p, Presenter) for p in presenters.values())
    assert len({id(p) for p in presenters.values()}) == len(presenters)
    assert {p.round_name for p in presenters.values()} == {"hand", "round"}


def test_an_unknown_game_is_refused_naming_the_choices() -> None:
    with pytest.raises(ValueError, match=r"unknown game 'poker' \(choose "):
        presenter_for("poker")
    with pytest.raises(ValueError, match="int is not the state of any game"):
        presenter_of_state(3)


def test_a_game_that_registers_no_presenter_gets_the_plain_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        presenter_module, "PRESENTERS", Registry("fairdeal.no-such-group", Presenter)
    )
    plain = presenter_for(game_names()[0])
    assert type(plain) is Presenter
    assert plain.mark(object()) is None
    assert plain.table_events(object(), None, object(), ProofStatus.VERIFIED, 0, {}, 3) == ()
    assert plain.figures({}, []) == {}


@pytest.mark.parametrize("game", ["larry", "lie"])
def test_a_finished_game_stands_as_the_engine_scored_it(game: str) -> None:
    driver = finished(game, 3, seed=4)
    state = driver.state
    ended = result_so_far(state, 3, "over")
    assert ended.scores == state.scores
    assert ended.leaders == state.winners
    assert ended.hands == presenter_for(game).rounds(state) >= 1


def test_a_table_that_ends_before_its_first_deal_has_no_result() -> None:
    assert result_so_far(None, 3, "left") == TableEnded("left", 0, (0, 0, 0), ())


@pytest.mark.parametrize("game", ["larry", "lie"])
def test_a_game_just_dealt_has_no_hand_scored_and_no_leader(game: str) -> None:
    rules = get_game(game)
    state = OracleDriver(3, rules.default_options(), seed=1, game=rules).state
    ended = result_so_far(state, 3, "left")
    assert (ended.hands, ended.scores, ended.leaders) == (0, (0, 0, 0), ())


def test_each_game_marks_where_its_rounds_and_tricks_begin() -> None:
    for game, wanted in (("larry", {Mark.ROUND}), ("lie", {Mark.ROUND, Mark.TRICK})):
        driver = finished(game, 3, seed=2)
        mark = presenter_for(game).mark
        marks = [mark(event) for event in driver.events]
        assert {m for m in marks if m is not None} == wanted
        assert marks.count(Mark.ROUND) == presenter_for(game).rounds(driver.state)


def test_the_lie_shows_a_claimed_front_to_its_claimer_alone_and_a_played_one_to_all() -> None:
    """One wording of The Lie's opened cards for the local and the networked table
    (p2p/games/lie/presenter.py): a claimed front stays face-down to the others (T3), a play
    and the prizes are turned face-up (T5, T10)."""
    from fairdeal.engine.lie.events import Played
    from fairdeal.p2p.games.lie.presenter import PRESENTER

    claim = PRESENTER.claimed_card(7, 2, 41, ProofStatus.VERIFIED)
    assert claim.reason == "claim" and [c.face_up for c in claim.cards] == [False]
    played = Played(seat=1, slots=(3, 4), cards=(12, 13), colour=0, number=3)
    (shown,) = PRESENTER.shown_cards(played, ((), (), ()), ProofStatus.VERIFIED)
    assert shown.reason == "play" and shown.seat == 1
    assert [(c.slot, c.face, c.face_up) for c in shown.cards] == [(3, 12, True), (4, 13, True)]
    assert PRESENTER.shown_cards(object(), ((),), ProofStatus.VERIFIED) == ()
