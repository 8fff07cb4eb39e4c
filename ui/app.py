"""The fairdeal Textual app: a lobby underneath, a table on top when one is open.

Background work (discovery, following a table) runs in workers owned by the screens; the app
only decides which table to open, through `ui.table_factory` (the one place that chooses between
the local table and the networked one).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from textual.actions import ActionParseResult
from textual.app import App
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen

from fairdeal.engine.games import default_game
from fairdeal.p2p.errors import P2PError
from fairdeal.p2p.lobby.discovery import DiscoveredTable
from fairdeal.p2p.table.core.api import TableSession
from fairdeal.ui.background import BackgroundFailed
from fairdeal.ui.messages import (
    ConnectRequested,
    JoinRequested,
    NewGameRequested,
    NewTableRequested,
)
from fairdeal.ui.player import Player
from fairdeal.ui.screen_game import app_styles, screen_game
from fairdeal.ui.screens.connect import ConnectDialog
from fairdeal.ui.screens.joining import JoiningScreen
from fairdeal.ui.screens.lobby import LobbyScreen
from fairdeal.ui.screens.open_table import OpenTableDialog
from fairdeal.ui.screens.presence import TablePresence
from fairdeal.ui.table_factory import (
    NetworkedPlayUnavailable,
    TableSpec,
    join_discovered,
    join_table,
    open_table,
)
from fairdeal.ui.table_finder import TableFinder

SessionFactory = Callable[[TableSpec], TableSession[Any, Any]]

log = logging.getLogger("fairdeal.ui")


class FairdealApp(App[None]):
    TITLE = "fairdeal"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", priority=False),
        # Ctrl+C does what q does (Textual's default only tells you to press Ctrl+Q).
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        player: Player,
        *,
        table: TableSpec | None = None,
        session: TableSession[Any, Any] | None = None,
        finder: TableFinder | None = None,
        reveal_interval: float = 0.4,
        table_defaults: TableSpec | None = None,
    ) -> None:
        """Open on `session` if given, else on a new table for `table`, else in the lobby."""
        super().__init__(css_path=app_styles())
        self.player = player
        self.first_table = table
        self.first_session = session
        self.finder = finder
        self.reveal_interval = reveal_interval
        self.table_defaults = table_defaults or TableSpec(name=player.name, fingerprint=player.code)
        self.failures: list[BaseException] = []  # errors the guard caught (shown, then kept)

    # -- the guard: no key, dialog, peer or network error takes the app down -------------------
    def report_failure(self, what: str, error: BaseException) -> None:
        """Show an error that escaped a handler and keep running (the table goes on)."""
        log.error("%s failed", what, exc_info=error)
        self.failures.append(error)
        self.notify(f"{what}: {error}", title="Something went wrong", severity="error")

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Every key binding and action runs through here: an exception in one is reported,
        never fatal (Textual's default ends the app with a traceback)."""
        try:
            return await super().run_action(action, default_namespace, namespaces)
        except Exception as error:
            self.report_failure(f"The {action_words(action)} key", error)
            return True

    def on_background_failed(self, message: BackgroundFailed) -> None:
        """A failed background worker (following a table, a dialog's flow: ui/background.py) is
        reported and the app goes on."""
        self.report_failure(message.what, message.error)

    async def action_quit(self) -> None:
        """q, Ctrl+C (and Ctrl+Q): quit, but at a networked game in progress ask first and tell
        the other seats (ui/screens/presence.py)."""
        tables = [s for s in self.screen_stack if isinstance(s, TablePresence)]
        if tables and tables[-1].others_would_wait():
            tables[-1].ask_to_leave(quit_app=True)
            return
        self.exit()

    def on_mount(self) -> None:
        self.push_screen(LobbyScreen(self.player, self.finder))
        if self.player.problem is not None:  # a local game goes on without a key (ui/player.py)
            self.notify(
                f"{self.player.problem}. This game against bots goes on without it; a table on "
                "the network needs it.",
                title="Your identity file is damaged",
                severity="warning",
                timeout=60,
            )
        if self.first_session is not None:
            self.sit_down(self.first_session)
        elif self.first_table is not None:
            self.open(self.first_table)

    # -- sitting down ----------------------------------------------------------------------------
    def sit_down(self, session: TableSession[Any, Any]) -> None:
        """The table screen of the session's game; a table joined by address says its game only
        once its lobby answers, so a joining screen waits for it and then hands over."""
        if session.game is None:
            self.push_screen(JoiningScreen(session, self._replace_joining))
            return
        self.push_screen(self._table_screen(session))

    def _table_screen(self, session: TableSession[Any, Any]) -> Screen[None]:
        name = session.game.name if session.game is not None else default_game()
        return screen_game(name).table_screen(session, self.reveal_interval)

    def _replace_joining(self, session: TableSession[Any, Any]) -> None:
        if isinstance(self.screen, JoiningScreen):
            self.switch_screen(self._table_screen(session))

    def open(self, spec: TableSpec) -> bool:
        try:
            session = open_table(spec)
        except (NetworkedPlayUnavailable, ValueError, OSError, P2PError) as error:
            self.notify(str(error), title="Cannot open the table", severity="error")
            return False
        self.sit_down(session)
        return True

    def join(self, host: str, port: int, found: DiscoveredTable | None = None) -> bool:
        try:
            if found is not None:
                session = join_discovered(found, self.player.name)
            else:
                session = join_table(host, port, self.player.name)
        except (NetworkedPlayUnavailable, ValueError, OSError, P2PError) as error:
            self.notify(str(error), title=f"Cannot join {host}:{port}", severity="error")
            return False
        self.sit_down(session)
        return True

    # -- requests from the screens ---------------------------------------------------------------
    def on_new_game_requested(self, _message: NewGameRequested) -> None:
        """Another game at a fresh table like the last one (from the table, once it is over)."""
        if isinstance(self.screen, TablePresence):
            self.pop_screen()
        self.open(replace(self.table_defaults, seed=None))  # a new deal, not a replay

    def on_new_table_requested(self, _message: NewTableRequested) -> None:
        def opened(spec: TableSpec | None) -> None:
            if spec is not None and self.open(spec):
                self.table_defaults = spec  # the next dialog and "new game" start from it

        self.push_screen(OpenTableDialog(self.table_defaults), callback=opened)

    def on_connect_requested(self, _message: ConnectRequested) -> None:
        def chosen(address: tuple[str, int] | None) -> None:
            if address is not None:
                self.join(*address)

        self.push_screen(ConnectDialog(), callback=chosen)

    def on_join_requested(self, message: JoinRequested) -> None:
        self.join(message.host, message.port, message.table)


def action_words(action: str | ActionParseResult) -> str:
    """An action's name as words: "toggle log" for "screen.toggle_log(1)"."""
    name = action.split("(")[0].rpartition(".")[2] if isinstance(action, str) else action[1]
    return name.replace("_", " ")
