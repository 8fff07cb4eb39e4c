"""The app's part of each game: one `ScreenGame` record per engine game, found through the
`fairdeal.screens` entry points (ui/screen_game.py), and the generic modules built from it."""

from __future__ import annotations

import argparse

import pytest

from fairdeal.engine.games import game_names, get_game
from fairdeal.ui.commands import options
from fairdeal.ui.game_options import game_options
from fairdeal.ui.screen_game import SCREENS, ScreenGame, app_styles, screen_game, screen_games


def test_every_engine_game_has_a_record_in_the_same_order() -> None:
    assert SCREENS.names() == game_names()
    for record in screen_games():
        assert isinstance(record, ScreenGame)
        rules = get_game(record.name)
        assert record.title == rules.title
        assert record.unit in ("hand", "round")
        assert record.help_text().startswith(f"# {rules.title}: keys and rules")


def test_an_unknown_game_is_refused_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown game 'poker' \\(choose larry or lie\\)"):
        screen_game("poker")


def test_a_number_of_another_game_is_refused_naming_both_games() -> None:
    with pytest.raises(ValueError, match="hand size are options of The Lie, not of Larry"):
        game_options("larry", seats=4, numbers={"hand_size": 6})
    lie = game_options("lie", seats=4, short_game=True, numbers={"hand_size": 6})
    assert (lie.rounds, lie.hand_size) == (1, 6)  # type: ignore[attr-defined]  # a short game (T9)


def test_a_game_without_a_plain_game_says_why_it_is_played_in_the_app() -> None:
    for record in screen_games():
        assert (record.plain is None) == bool(record.app_only)


def test_the_command_line_flags_come_from_the_records() -> None:
    parser = argparse.ArgumentParser()
    options.add_game_options(parser)
    flags = {a.option_strings[0]: a for a in parser._actions if a.option_strings[1:] == []}
    for record in screen_games():
        for option in record.number_options:
            assert flags[option.flag].help.startswith(f"{record.title}: {option.label}")  # type: ignore[union-attr]
    args = parser.parse_args(["--rounds", "2"])
    assert options.number_choices(args) == {"rounds": 2, "hand_size": None}
    with pytest.raises(SystemExit):
        parser.parse_args(["--rounds", "9"])  # out of range (T9): an argument error


def test_each_games_styles_are_beside_its_screens_and_exist() -> None:
    paths = app_styles()
    assert paths[0].name == "app.tcss"
    for path in paths:
        assert path.is_file(), path
    for record in screen_games():
        for path in record.styles:
            assert path.parent.name == record.name
