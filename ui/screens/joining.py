"""Joining a table typed in as HOST:PORT: its game is unknown until its lobby says it.

The screen starts the session, shows its news (connecting, the seat taken, a refusal) and, as
soon as the session knows the table's game, hands it to the app, which replaces this screen with
that game's table screen (the session's events are replayed to it from the start, so nothing is
missed). Escape gives up and goes back to the lobby.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from fairdeal.p2p.table.core.api import Notice, TableSession
from fairdeal.ui.background import reported


class JoiningScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", "Lobby")]

    def __init__(
        self, session: TableSession[Any, Any], sit_down: Callable[[TableSession[Any, Any]], None]
    ) -> None:
        """`sit_down(session)` opens the table screen once the game is known."""
        super().__init__()
        self.session = session
        self._sit_down = sit_down
        self._handed_on = False
        self.news = "Connecting…"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static("Joining the table…", classes="title")
            yield Static("Connecting…", id="joining-news", markup=False)  # text from peers
            yield Static("Esc: back to the lobby", classes="dim")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.follow()

    @work(exclusive=True, group="joining")
    @reported("Joining the table")
    async def follow(self) -> None:
        await self.session.start()
        async for event in self.session.events():
            if isinstance(event, Notice):
                self.news = event.text
                self.query_one("#joining-news", Static).update(self.news)
            if self.session.game is not None:
                self._handed_on = True
                self._sit_down(self.session)
                return
        if not self.news.startswith("✗"):  # a refusal or no answer says it all: no table closed
            self.news = f"{self.news.rstrip('.…')}. The table closed."
        self.query_one("#joining-news", Static).update(self.news)

    def action_leave(self) -> None:
        self.app.pop_screen()

    async def on_unmount(self) -> None:
        if not self._handed_on:  # given up: nobody else will close it
            await self.session.close()
