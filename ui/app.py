"""The fairdeal Textual app: a lobby underneath, a table on top when one is open.

Background work (discovery, following a table) runs in workers owned by the screens; the app
only decides which table to open, through `ui.table_factory` (the one place that chooses between
the local table and the networked one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from fairdeal.p2p.lobby.discovery import DiscoveredTable
from fairdeal.p2p.table.api import TableSession
from fairdeal.ui.messages import (
    ConnectRequested,
    JoinRequested,
    NewGameRequested,
    NewTableRequested,
)
from fairdeal.ui.player import Player
from fairdeal.ui.screens.connect import ConnectDialog
from fairdeal.ui.screens.lie_table import LieTableScreen
from fairdeal.ui.screens.lobby import LobbyScreen
from fairdeal.ui.screens.open_table import OpenTableDialog
from fairdeal.ui.screens.table import TableScreen
from fairdeal.ui.table_factory import (
    NetworkedPlayUnavailable,
    TableSpec,
    join_discovered,
    join_table,
    open_table,
)
from fairdeal.ui.table_finder import TableFinder

SessionFactory = Callable[[TableSpec], TableSession]


class FairdealApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "fairdeal"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit", "Quit", priority=False)]

    def __init__(
        self,
        player: Player,
        *,
        table: TableSpec | None = None,
        session: TableSession | None = None,
        finder: TableFinder | None = None,
        reveal_interval: float = 0.4,
        table_defaults: TableSpec | None = None,
    ) -> None:
        """Open on `session` if given, else on a new table for `table`, else in the lobby."""
        super().__init__()
        self.player = player
        self.first_table = table
        self.first_session = session
        self.finder = finder
        self.reveal_interval = reveal_interval
        self.table_defaults = table_defaults or TableSpec(
            name=player.name, fingerprint=player.fingerprint
        )

    def on_mount(self) -> None:
        self.push_screen(LobbyScreen(self.player, self.finder))
        if self.first_session is not None:
            self.sit_down(self.first_session)
        elif self.first_table is not None:
            self.open(self.first_table)

    # -- sitting down ----------------------------------------------------------------------------
    def sit_down(self, session: TableSession) -> None:
        game = getattr(session, "game", None)  # a local table says its game; networked: Larry
        if getattr(game, "name", "larry") == "lie":
            self.push_screen(LieTableScreen(session))
            return
        self.push_screen(TableScreen(session, reveal_interval=self.reveal_interval))

    def open(self, spec: TableSpec) -> bool:
        try:
            session = open_table(spec)
        except (NetworkedPlayUnavailable, ValueError) as error:
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
        except (NetworkedPlayUnavailable, ValueError, OSError) as error:
            self.notify(str(error), title=f"Cannot join {host}:{port}", severity="error")
            return False
        self.sit_down(session)
        return True

    # -- requests from the screens ---------------------------------------------------------------
    def on_new_game_requested(self, _message: NewGameRequested) -> None:
        """Another game at a fresh table like the last one (from the table, once it is over)."""
        if isinstance(self.screen, TableScreen | LieTableScreen):
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
