"""Wording: every sentence reads as a sentence, and no dialog cuts its text at 80×24."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Select, Static

from fairdeal.engine.larry.events import DoubtResolved
from fairdeal.engine.lie import events as lie_ev
from fairdeal.p2p.table.core.api import Notice, SeatInfo, TableEvent
from fairdeal.p2p.table.tools.session import seat_line
from fairdeal.ui.games.larry.help import HELP_TEXT as LARRY_HELP
from fairdeal.ui.games.larry.narrator import counted, event_text, seat_names
from fairdeal.ui.games.lie.help import HELP_TEXT as LIE_HELP
from fairdeal.ui.games.lie.narrator import lie_event_text
from fairdeal.ui.screens.connect import ConnectDialog
from fairdeal.ui.screens.help import HelpScreen
from fairdeal.ui.screens.joining import JoiningScreen
from fairdeal.ui.screens.open_table import OpenTableDialog
from fairdeal.ui.table_factory import TableSpec

from .support import make_app

CODE = "01234 56789 13579 24680 11223"


def cut_texts(screen: Screen[object]) -> list[str]:
    """The texts on `screen` that do not fit where they are shown: wider than the panel that
    holds them, or needing more lines than they have."""
    cut: list[str] = []
    for widget in screen.query(Static):
        if not widget.display or widget.region.area == 0 or isinstance(widget.parent, Select):
            continue
        parent = widget.parent
        width = widget.content_region.width
        needed = widget.get_content_height(Size(width, 1000), Size(width, 1000), width)
        outside = parent is not None and widget.region.right > parent.content_region.right  # type: ignore[union-attr]
        if outside or needed > widget.content_region.height:
            cut.append(str(widget.render()))
    return cut


def test_a_bots_name_is_not_followed_by_bot_or_player_again() -> None:
    assert (
        seat_line(1, SeatInfo("Ada (bot)", CODE, True, False))
        == f"Seat 1: Ada (bot), key code {CODE}"
    )
    # a peer cannot tell another peer's bot: its name says it
    assert (
        seat_line(2, SeatInfo("Ben (bot)", CODE, False, False))
        == f"Seat 2: Ben (bot), key code {CODE}"
    )
    assert (
        seat_line(0, SeatInfo("Tess", CODE, False, True)) == f"Seat 0: Tess (you), key code {CODE}"
    )
    assert (
        seat_line(3, SeatInfo("Cleo", CODE, False, False))
        == f"Seat 3: Cleo (player), key code {CODE}"
    )


def test_the_lie_game_over_line_agrees_with_its_winners() -> None:
    names = ["Tess", "Ada", "Ben"]
    one = lie_ev.GameOver((1,), (0, 5, 2), (0, 3, 1), ((), (1, 2, 3), (4,)))
    two = lie_ev.GameOver((0, 2), (4, 1, 4), (2, 1, 2), ((5, 6), (7,), (8, 9)))
    letters, colours = ("r", "y", "g", "b"), ("red", "yellow", "green", "blue")
    assert lie_event_text(one, names, letters, colours) == "Game over: Ada wins (T10)."
    assert lie_event_text(two, names, letters, colours) == "Game over: Tess and Ben win (T10)."


async def test_the_connect_dialogs_error_is_shown_whole_at_80x24() -> None:
    app = make_app()  # the app's own stylesheet lays the dialogs out
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ConnectDialog())
        await pilot.pause()
        await pilot.press(*"nonsense", "enter")
        await pilot.pause()
        error = str(app.screen.query_one("#connect-error", Static).render())
        assert error.endswith("(for example 192.168.1.20:45123)")
        assert cut_texts(app.screen) == []


async def test_the_open_table_dialog_shows_its_text_whole_and_bots_up_to_seats_less_one() -> None:
    app = make_app()  # the app's own stylesheet lays the dialogs out
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(OpenTableDialog(TableSpec(seats=4, bots=3)))
        await pilot.pause()
        assert cut_texts(app.screen) == []
        bots = app.screen.query_one("#bots", Select)
        assert [value for _, value in bots._options if isinstance(value, int)] == [0, 1, 2, 3]
        app.screen.query_one("#seats", Select).value = 2
        await pilot.pause()
        assert [value for _, value in bots._options if isinstance(value, int)] == [0, 1]
        assert bots.value == 1  # 3 bots do not fit a table of 2 with you at it


class RefusedSession:
    """A session that could not reach any table."""

    game = None

    async def start(self) -> None:
        return None

    async def events(self) -> AsyncIterator[TableEvent]:
        yield Notice("✗ Could not sit down at the table: nothing is listening at 127.0.0.1:1.")

    async def close(self) -> None:
        return None


async def test_no_table_closed_where_no_table_ever_was() -> None:
    app = make_app()  # the app's own stylesheet lays the dialogs out
    async with app.run_test(size=(80, 24)) as pilot:
        screen = JoiningScreen(RefusedSession(), lambda _session: None)  # type: ignore[arg-type]
        app.push_screen(screen)
        for _ in range(20):
            if screen.news.startswith("✗"):
                break
            await pilot.pause()
        await pilot.pause()
        assert (
            screen.news == "✗ Could not sit down at the table: nothing is listening at 127.0.0.1:1."
        )
        assert "closed" not in str(screen.query_one("#joining-news", Static).render())
        assert cut_texts(screen) == []


def test_a_tables_seat_numbers_read_as_names() -> None:
    names = ["Tess", "Ada", "Ben"]
    assert seat_names("joint coin: seat 2 starts hand 1 (L5)", names) == (
        "joint coin: Ben starts hand 1 (L5)"
    )
    for kept in ("All 3 seats taken; you are seat 2.", f"Seat 1: Ada (player), key code {CODE}"):
        assert seat_names(kept, names) == kept
    assert seat_names("seat 7 left", names) == "seat 7 left"  # no such seat


@pytest.mark.parametrize("game", ["larry", "lie"])
async def test_the_help_screens_text_fits_at_80x24(game: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(HelpScreen(game))
        await pilot.pause()
        assert cut_texts(app.screen) == []


def test_counts_agree_with_their_nouns() -> None:
    assert [counted(n, "hand") for n in (0, 1, 2)] == ["0 hands", "1 hand", "2 hands"]
    assert counted(1, "gloat card") == "1 gloat card"


def test_the_help_cites_the_rules_in_this_repository() -> None:
    """The help pointed at RULINGS.md, which is not in the repository; its ids are in RULES.md."""
    rules = (Path(__file__).parents[2] / "RULES.md").read_text(encoding="utf-8")
    for text in (LARRY_HELP, LIE_HELP):
        assert "RULINGS" not in text and "RULES.md" in text
    assert "**L9 Doubt.**" in rules and "**T3" in rules


def test_the_doubts_loser_picks_up_two() -> None:
    """L9: the loser picks up 2; the log said "picks up (L9; …)" without the 2."""
    resolved = DoubtResolved(1, 0, 9, 7, 0, False, 0, (3, 4), (0, 2))
    line = event_text(resolved, ["Tess", "Ada", "Ben"], None)
    assert "Tess picks up 2 (L9; doubter Ada, last player Tess)" in line


def test_larrys_help_says_the_idea_plainly_for_a_newcomer() -> None:
    """L6, L9: the new running total is said; never above the limit, so a card that takes the
    pile over forces a lie; the last player answers for the whole pile."""
    idea = LARRY_HELP.split("## The idea", 1)[1].split("##", 1)[0]
    assert "say the new total" in idea
    assert "never more than the limit" in idea and "you must lie" in idea
    assert "the last player answers for the whole pile" in idea


def test_the_replay_names_a_gift_to_its_giver_and_taker_only() -> None:
    """`replay --plain` tells the owner's gift as the app does (L11): "gave a 7", where it said
    "gave a card" though the owner knew it was a 7; another seat's gift stays "a card"."""
    from types import SimpleNamespace

    from fairdeal.engine.larry.cards import deck_of
    from fairdeal.engine.larry.events import CardGiven
    from fairdeal.engine.larry.options import LarryOptions
    from fairdeal.ui.screen_game import screen_game

    deck = deck_of(LarryOptions())
    seven = next(card.id for card in deck if card.name == "7")
    names = ["Tess", "Ada (bot)", "Ben (bot)"]
    record = screen_game("larry")
    ours = SimpleNamespace(seat=0, knowledge={12: seven}, deck=deck)
    assert (
        record.event_text(CardGiven(0, 2, 12), names, ours) == "Tess gave a 7 to Ben (bot) (L11)."
    )
    theirs = SimpleNamespace(seat=0, knowledge={}, deck=deck)
    assert record.event_text(CardGiven(1, 2, 12), names, theirs) == (
        "Ada (bot) gave a card to Ben (bot) (L11)."
    )
