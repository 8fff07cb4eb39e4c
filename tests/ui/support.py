"""Shared helpers for the UI tests: a fixed player, a seeded local table, settling the app."""

from __future__ import annotations

import io
from typing import Any, TypeVar

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from fairdeal.engine.bots import Bot
from fairdeal.p2p.table.core.api import StateChanged
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.larry.screen import TableScreen
from fairdeal.ui.player import Player
from fairdeal.ui.table_finder import FixedFinder

EventT = TypeVar("EventT")
ScreenT = TypeVar("ScreenT")

PLAYER = Player("Tess", "01234 56789 13579 24680 11223", "0123456789abcdef")


def make_app(table: LocalTable | None = None, finder: FixedFinder | None = None) -> FairdealApp:
    return FairdealApp(PLAYER, session=table, finder=finder or FixedFinder(), reveal_interval=0)


def screen_of(app: FairdealApp, kind: type[ScreenT]) -> ScreenT:
    """The topmost screen of type `kind` on the app's stack."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, kind):
            return screen
    raise AssertionError(f"no {kind.__name__} in {app.screen_stack}")


def table_screen(app: FairdealApp) -> TableScreen:
    return screen_of(app, TableScreen)


async def settle(pilot: Pilot[None], table: LocalTable, kind: type[Any] = TableScreen) -> None:
    """Wait until the bots are done (the human is to act or the game is over) and the table
    screen (of type `kind`) has handled every event the table emitted."""
    await table.wait_idle()
    screen = screen_of(pilot.app, kind)  # type: ignore[arg-type]
    while screen.events_seen < table.event_count:
        await pilot.pause()
    await pilot.pause()


def static_text(widget: Static, width: int = 80) -> str:
    """What a Static shows, as plain text (its content rendered by Rich)."""
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


async def play_out(table: LocalTable, bot: Bot) -> None:
    """Play the human seat with `bot` until the game ends."""
    while True:
        await table.wait_idle()
        view = table.view()
        if view.state.over:
            return
        await table.act(bot.choose(view))


def engine_events(table: LocalTable, kind: type[EventT]) -> list[EventT]:
    """The engine events of type `kind` the table has emitted so far, in order."""
    return [
        e
        for change in table.history
        if isinstance(change, StateChanged)
        for e in change.events
        if isinstance(e, kind)
    ]


async def play_the_first_card(pilot: Pilot[None], table: LocalTable) -> None:
    """Once the bots are done, play the selected card face-down with the honest total
    (Enter, Enter), and let the table and the app settle again."""
    await settle(pilot, table)
    await pilot.press("enter", "enter")
    await settle(pilot, table)
