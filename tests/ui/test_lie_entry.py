"""`fairdeal play --game lie`, `fairdeal host lie` and the open-table dialog's game choice."""

from __future__ import annotations

import io
import sys

import pytest
from textual.widgets import Button, Input, Label, Select

import fairdeal.ui.launch as launch
from fairdeal.engine.lie import LieOptions
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.cli import main
from fairdeal.ui.games.lie.screen import LieTableScreen
from fairdeal.ui.screens.lobby import LobbyScreen
from fairdeal.ui.screens.open_table import OpenTableDialog
from fairdeal.ui.table_factory import TableSpec
from fairdeal.ui.table_finder import FixedFinder

from .support import PLAYER


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


def in_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside the test: pytest's capture resets sys.stdout between a fixture and the test."""
    monkeypatch.setattr(sys, "stdin", FakeTty())
    monkeypatch.setattr(sys, "stdout", FakeTty())


def spec_opened_by(monkeypatch: pytest.MonkeyPatch, *argv: str) -> TableSpec:
    """`fairdeal ARGV` in a terminal, which must open the app once: the table it opened."""
    in_a_terminal(monkeypatch)
    opened: list[TableSpec] = []
    monkeypatch.setattr(launch, "run_app", lambda spec, **_: opened.append(spec) or 0)
    assert main(list(argv)) == 0
    (spec,) = opened
    return spec


def test_play_game_lie_opens_a_lie_table_with_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["play", "--game", "lie", "--players", "5", "--seed", "9", "--pace", "0.7"]
    spec = spec_opened_by(monkeypatch, *argv, "--bot-delay", "0.2")
    assert (spec.game, spec.seats, spec.bots, spec.seed) == ("lie", 5, 4, 9)
    assert (spec.claim_pace, spec.bot_delay) == (0.7, 0.2)


def test_absurd_lie_tables_are_refused_before_the_app_opens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    in_a_terminal(monkeypatch)
    with pytest.raises(SystemExit) as refused:  # an argument error: usage, exit 2
        main(["play", "--game", "lie", "--players", "7"])
    assert refused.value.code == 2
    assert "The Lie is played by 2 to 6 players" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="0 to 60 seconds"):
        main(["play", "--game", "lie", "--pace", "1e9"])


def test_the_lie_has_no_plain_mode(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["play", "--game", "lie", "--plain"])
    assert refused.value.code == 2 and "app only" in capsys.readouterr().err


def test_play_with_fewer_bots_opens_the_lie_on_the_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`play --game lie --bots K` with K below the other seats hosts the table."""
    argv = ["play", "--game", "lie", "--players", "4", "--bots", "1", "--rounds", "2"]
    spec = spec_opened_by(monkeypatch, *argv, "--hand-size", "5")
    assert (spec.game, spec.seats, spec.bots, spec.local) == ("lie", 4, 1, False)
    assert spec.options() == LieOptions(rounds=2, hand_size=5)


def test_host_lie_opens_the_app_on_a_networked_lie_table(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["host", "lie", "--seats", "3", "--bots", "1", "--short", "--pace", "0.2"]
    spec = spec_opened_by(monkeypatch, *argv)
    assert (spec.game, spec.seats, spec.bots, spec.networked) == ("lie", 3, 1, True)
    assert spec.options() == LieOptions(rounds=1) and spec.claim_pace == 0.2


@pytest.mark.parametrize(
    ("argv", "culprit"),
    [
        (["host", "lie", "--seats", "7"], "--seats 7: The Lie is played by 2 to 6 players (T2)"),
        (["host", "lie", "--seats", "4", "--rounds", "0"], "--rounds: rounds 0 is out of range"),
        (["host", "lie", "--seats", "4", "--hand-size", "13"], "hand size 13 is out of range"),
        (["host", "lie", "--seats", "4", "--hand-size", "x"], "'x' is not a whole number"),
        (["host", "larry", "--seats", "4", "--rounds", "2"], "an option of The Lie, not of Larry"),
        (["play", "--game", "lie", "--hand-size", "-1"], "hand size -1 is out of range"),
        (["play", "--game", "lie", "--players", "7", "--bots", "2"], "2 to 6 players (T2)"),
    ],
)
def test_absurd_lie_tables_at_the_command_line_exit_2_naming_the_option(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    culprit: str,
) -> None:
    in_a_terminal(monkeypatch)
    opened: list[object] = []
    monkeypatch.setattr(launch, "run_app", lambda spec, **_: opened.append(spec) or 0)
    with pytest.raises(SystemExit) as refused:
        main(argv)
    assert refused.value.code == 2
    assert culprit in capsys.readouterr().err
    assert opened == []  # nothing opened, nothing hosted


async def test_the_open_table_dialog_offers_each_games_options() -> None:
    app = FairdealApp(PLAYER, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        dialog = pilot.app.screen
        assert isinstance(dialog, OpenTableDialog)
        assert dialog.query_one("#larry-options").display  # Larry first: its length
        assert not dialog.query_one("#lie-options").display
        dialog.query_one("#game", Select).value = "lie"
        await pilot.pause()
        assert dialog.query_one("#lie-options").display  # The Lie: rounds and hand size
        assert not dialog.query_one("#larry-options").display
        dialog.query_one("#seats", Select).value = 7
        await pilot.pause()  # the Bots list follows the seats: 0 to seats - 1
        dialog.query_one("#bots", Select).value = 6
        await pilot.pause()
        dialog.query_one("#open", Button).press()
        await pilot.pause()
        error = str(dialog.query_one("#open-error", Label).render())
        assert isinstance(pilot.app.screen, OpenTableDialog)  # refused, and said why
        assert "The Lie is played by 2 to 6 players (T2)" in error
        dialog.query_one("#seats", Select).value = 3
        await pilot.pause()  # the Bots list follows the seats: 0 to seats - 1
        dialog.query_one("#bots", Select).value = 2
        dialog.query_one("#rounds", Input).value = "0"
        await pilot.pause()
        dialog.query_one("#open", Button).press()
        await pilot.pause()
        assert "rounds 0 is out of range: 1-3 (T9)" in str(
            dialog.query_one("#open-error", Label).render()
        )
        dialog.query_one("#rounds", Input).value = "1"
        dialog.query_one("#hand-size", Input).value = "99"
        dialog.query_one("#open", Button).press()
        await pilot.pause()
        assert "hand size 99 is out of range: 1-12 (T3)" in str(
            dialog.query_one("#open-error", Label).render()
        )
        assert isinstance(pilot.app.screen, OpenTableDialog)
        dialog.query_one("#hand-size", Input).value = "4"
        dialog.query_one("#open", Button).press()
        for _ in range(100):  # the dialog closes, then the app opens the table: wait for it
            if isinstance(pilot.app.screen, LieTableScreen):
                break
            await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, LieTableScreen)
        assert len(screen.session.seats) == 3
        assert screen.session.view().options == LieOptions(rounds=1, hand_size=4)
        assert (
            pilot.app.table_defaults.numbers()["hand_size"] == 4
        )  # the next dialog starts from it
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, LobbyScreen)


async def test_help_covers_both_games_in_the_lobby_and_the_lie_at_its_table() -> None:
    from textual.widgets import Markdown

    from fairdeal.p2p.table.runtime.local import LocalTable
    from fairdeal.ui.screens.help import HelpScreen

    from .support import make_app

    app = make_app(LocalTable(2, game="lie", seed=1, human_name=PLAYER.name))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        text = pilot.app.screen.query_one(Markdown).source
        assert "The Lie: keys and rules" in text and "Larry: keys" not in text
        for ruling in (f"T{n}" for n in range(1, 11)):
            assert f"**{ruling}**" in text, ruling
        await pilot.press("escape", "escape")  # close the help, leave for the lobby
        await pilot.pause()
        assert isinstance(pilot.app.screen, LobbyScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        text = pilot.app.screen.query_one(Markdown).source
        assert "Larry: keys and rules" in text and "The Lie: keys and rules" in text


async def test_the_lobby_shows_each_tables_game_and_refuses_one_it_lacks() -> None:
    from textual.widgets import DataTable

    from fairdeal.p2p.lobby.discovery import DiscoveredTable, TableAd

    def found(name: str, game: str) -> DiscoveredTable:
        ad = TableAd("ab" * 16, name, game, 1, 4, "fedcba9876543210")
        return DiscoveredTable(f"{name}._fairdeal._tcp.local.", ad, ("127.0.0.1",), 9)

    tables = [found("Friday", "larry"), found("Lies", "lie"), found("Later", "poker")]
    app = FairdealApp(PLAYER, finder=FixedFinder(tables), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = pilot.app.screen
        assert isinstance(lobby, LobbyScreen)
        grid = lobby.query_one(DataTable)
        games = {str(grid.get_row(key)[0]): str(grid.get_row(key)[1]) for key in grid.rows}
        assert games == {"Friday": "Larry", "Lies": "The Lie", "Later": "poker (not here)"}
        grid.move_cursor(row=[str(grid.get_row(k)[0]) for k in grid.rows].index("Later"))
        await pilot.press("j")  # a game this fairdeal lacks: refused with the reason, no table
        await pilot.pause()
        assert isinstance(pilot.app.screen, LobbyScreen)
        assert any("a game this fairdeal lacks" in str(n.message) for n in pilot.app._notifications)


async def test_the_open_table_dialog_sets_the_bots_difficulty() -> None:
    """The new-table dialog's Level row: how hard the bots are to race (README, "Difficulty")."""
    app = FairdealApp(PLAYER, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        dialog = pilot.app.screen
        assert isinstance(dialog, OpenTableDialog)
        assert dialog.query_one("#difficulty", Select).value == "normal"
        dialog.query_one("#difficulty", Select).value = "hard"
        assert dialog._chosen().difficulty == "hard"
        assert dialog._chosen().race_difficulty == "hard"  # no fixed pace replaces it


def test_play_races_at_the_difficulty_unless_a_pace_is_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spec = spec_opened_by(monkeypatch, "play", "--game", "lie", "--difficulty", "easy")
    assert (spec.race_difficulty, spec.race_pace) == ("easy", 0.0)
    spec = spec_opened_by(monkeypatch, "play", "--game", "lie", "--pace", "0.4")
    assert (spec.race_difficulty, spec.race_pace) == (None, 0.4)
