"""`fairdeal play --game lie`, `fairdeal host lie` and the open-table dialog's game choice."""

from __future__ import annotations

import io
import sys

import pytest
from textual.widgets import Button, Label, Select

import fairdeal.ui.launch as launch
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.cli import main
from fairdeal.ui.screens.lie_table import LieTableScreen
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


def test_play_game_lie_opens_a_lie_table_with_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    in_a_terminal(monkeypatch)
    opened: list[TableSpec] = []
    monkeypatch.setattr(launch, "run_app", lambda spec, **_: opened.append(spec) or 0)
    argv = ["play", "--game", "lie", "--players", "5", "--seed", "9", "--pace", "0.7"]
    assert main([*argv, "--bot-delay", "0.2"]) == 0
    (spec,) = opened
    assert (spec.game, spec.seats, spec.bots, spec.seed) == ("lie", 5, 4, 9)
    assert (spec.claim_pace, spec.bot_delay) == (0.7, 0.2)


def test_absurd_lie_tables_are_refused_before_the_app_opens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    in_a_terminal(monkeypatch)
    with pytest.raises(SystemExit) as refused:  # an argument error: usage, exit 2 (issue 14.8)
        main(["play", "--game", "lie", "--players", "7"])
    assert refused.value.code == 2
    assert "The Lie is played by 2 to 6 players" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="0 to 60 seconds"):
        main(["play", "--game", "lie", "--pace", "1e9"])


def test_the_lie_has_no_plain_mode_and_no_networked_host_yet(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["play", "--game", "lie", "--plain"])
    assert refused.value.code == 2 and "app only" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="The Lie at a networked table is not available yet"):
        main(["host", "lie", "--seats", "4"])


async def test_the_open_table_dialog_offers_the_lie_against_bots() -> None:
    app = FairdealApp(PLAYER, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        dialog = pilot.app.screen
        assert isinstance(dialog, OpenTableDialog)
        dialog.query_one("#game", Select).value = "lie"
        dialog.query_one("#bots", Select).value = 2
        dialog.query_one("#seats", Select).value = 3
        dialog.query_one("#networked", Select).value = True
        await pilot.pause()
        dialog.query_one("#open", Button).press()
        await pilot.pause()
        assert isinstance(pilot.app.screen, OpenTableDialog)  # refused, and said why
        error = str(dialog.query_one("#open-error", Label).render())
        assert "The Lie at a networked table is not available yet" in error
        dialog.query_one("#networked", Select).value = False
        await pilot.pause()
        dialog.query_one("#open", Button).press()
        for _ in range(100):  # the dialog closes, then the app opens the table: wait for it
            if isinstance(pilot.app.screen, LieTableScreen):
                break
            await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, LieTableScreen)
        assert len(screen.session.seats) == 3
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, LobbyScreen)


async def test_help_covers_both_games_in_the_lobby_and_the_lie_at_its_table() -> None:
    from textual.widgets import Markdown

    from fairdeal.ui.local_table import LocalTable
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
