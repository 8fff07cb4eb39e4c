"""The app's part of a game: what the generic screens and commands ask a game for.

Each game's folder under ui/games/<game>/ builds one `ScreenGame` and registers it under the
entry-point group `fairdeal.screens` (pyproject.toml), found by the one `Registry`
(fairdeal.engine.registry). The lobby, the open-table dialog, the commands, the replay and the
app name no game: they look the chosen game's record up here (docs/architecture.md).

A record is light to load: its screens, narrator and plain-text game are imported only when one
is asked for (through the callables), so `fairdeal --help` never loads a table screen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from fairdeal.engine.registry import Registry
from fairdeal.p2p.table.core.presenter import presenter_for

if TYPE_CHECKING:
    import argparse

    from textual.screen import Screen
    from textual.widget import Widget

    from fairdeal.p2p.table.core.api import TableSession
    from fairdeal.ui.number_option import NumberOption
    from fairdeal.ui.replay_session import ReplaySession
    from fairdeal.ui.report.part import ReportPart

ViewT = TypeVar("ViewT")
ActionT = TypeVar("ActionT")


@dataclass(frozen=True)
class TableChoice:
    """What a game's rows of the open-table dialog chose: a short game or not, and its numbers
    by name (None: the game's default)."""

    short_game: bool = False
    numbers: Mapping[str, int | None] = field(default_factory=dict)


class DialogFields(Protocol):
    """What a game's rows read back from the open-table dialog (ui/screens/open_table.py)."""

    def number(self, field: str, label: str) -> int:
        """The whole number typed in the field `field`; ValueError naming `label` otherwise."""
        ...

    def selected(self, field: str) -> object:
        """The value chosen in the field `field`."""
        ...


@dataclass(frozen=True)
class ScreenGame(Generic[ViewT, ActionT]):
    """One game as the app shows it and the command line offers it."""

    name: str  # the entry point's name: "larry" in `fairdeal play --game larry`
    title: str  # for people: the engine's title
    seats_ruling: str  # the RULINGS id of the player count
    # The table screen for a seat at a table of this game, and the reveal interval (seconds
    # between a doubt's cards turning over) it shows them with.
    table_screen: Callable[[TableSession[ViewT, ActionT], float], Screen[None]]
    replay_screen: Callable[[ReplaySession], Screen[None]]
    help_text: Callable[[], str]  # the keys and rules, Markdown
    # The replay's story (--plain): one engine event as a line (None: nothing to tell), and a
    # card's face as the owner's view names it.
    event_text: Callable[[object, list[str], ViewT], str | None]
    card_text: Callable[[ViewT, int], str]
    # Choices a player makes when opening a table: whole numbers (flags, dialog fields) and what
    # a short game changes in the engine's options.
    number_options: tuple[NumberOption, ...] = ()
    short_help: str = ""  # "one hand (L18)"
    short_changes: Mapping[str, object] = field(default_factory=dict)
    # The engine's options for `seats` players, a short game or not, and the numbers chosen
    # (None: the default); ValueError naming the option for a choice that makes no game.
    make_options: Callable[[int, bool, Mapping[str, int | None]], object] = lambda s, sh, n: None
    # The open-table dialog's rows for this game's options, filled from the last table's choice,
    # and what they say (ValueError naming a field that says nothing usable).
    dialog_rows: Callable[[TableChoice], Iterable[Widget]] = lambda base: ()
    dialog_values: Callable[[DialogFields], TableChoice] = lambda dialog: TableChoice()
    dialog_note: str = ""  # the dialog's line on this game's seats and options
    fine_marks: bool = False  # the replay's PgUp/PgDn stops at tricks as well as rounds
    simulate_numbers: tuple[tuple[NumberOption, str], ...] = ()  # `fairdeal simulate`'s, help
    selfplay_short_refusal: str | None = None  # why `selfplay --short` makes no game of this one
    # The plain-text game of `fairdeal play --plain` (None: this game is played in the app only,
    # for the reason in `app_only`).
    plain: Callable[[argparse.Namespace], int] | None = None
    app_only: str = ""
    claim_pace_help: str | None = None  # what --pace means for this game (None: nothing)
    styles: tuple[Path, ...] = ()  # the game's .tcss files, beside its screens
    # What the game adds to its `fairdeal report` page (None: the shared page alone)
    report_part: Callable[[], ReportPart] | None = None

    @property
    def unit(self) -> str:
        """What the game is played in ("hand", "round"): its presenter's `round_name`, the one
        place that says it (p2p/table/core/presenter.py)."""
        return presenter_for(self.name).round_name


def app_styles() -> list[str | PurePath]:
    """The app's style sheet (ui/app.tcss), then every game's, beside its screens (the list
    type Textual's `App(css_path=...)` takes)."""
    styles: list[str | PurePath] = [Path(__file__).with_name("app.tcss")]
    return styles + [path for game in screen_games() for path in game.styles]


SCREENS: Registry[ScreenGame[Any, Any]] = Registry("fairdeal.screens", ScreenGame)


def screen_game(name: str) -> ScreenGame[Any, Any]:
    """The app's part of the game called `name`; ValueError naming the choices otherwise."""
    return SCREENS.get(name)


def screen_games() -> tuple[ScreenGame[Any, Any], ...]:
    """Every game the app can show, the default game first (fairdeal.engine.games)."""
    return tuple(SCREENS.get(name) for name in SCREENS.names())


def owner_of(option_name: str) -> ScreenGame[Any, Any]:
    """The game whose number option is called `option_name`."""
    for game in screen_games():
        if any(option.name == option_name for option in game.number_options):
            return game
    raise KeyError(option_name)
