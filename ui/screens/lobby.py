"""The lobby: who you are, the tables found on the network (live), and ways to sit down."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.coordinate import Coordinate
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from fairdeal.p2p.lobby.discovery import (
    DiscoveredTable,
    TableAdded,
    TableEvent,
    TableRemoved,
    TableUpdated,
)
from fairdeal.ui.background import reported, reporting
from fairdeal.ui.messages import ConnectRequested, JoinRequested, NewTableRequested
from fairdeal.ui.player import Player
from fairdeal.ui.table_finder import TableFinder
from fairdeal.ui.wording import counted, game_title

_LOBBY_KEYS = """\
## Keys in the lobby
| key | does |
|---|---|
| ↑ ↓ | choose a table found on your network |
| j or Enter | join the chosen table (Enter on a table that plays watches it) |
| c | connect to a table at HOST:PORT (where mDNS does not reach) |
| n | open a new table: {games}, its options, seats, bots, here or on the network |
| w | watch the chosen table once it plays: the public table live, every proof checked |
| r | past tables: your finished and left tables, newest first; Enter replays one |
| ? or F1 | this help · q quit |
"""


def lobby_keys() -> str:
    """The lobby's keys, Markdown, naming the games a new table can be of."""
    from fairdeal.ui.screen_game import screen_games

    return _LOBBY_KEYS.format(games=" or ".join(game.title for game in screen_games()))


class LobbyScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_table", "New table"),
        Binding("j", "join", "Join"),
        Binding("c", "connect", "Connect"),
        Binding("w", "watch", "Watch"),
        Binding("r", "past_tables", "Past tables"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
    ]

    def __init__(self, player: Player, finder: TableFinder | None) -> None:
        super().__init__()
        self.player = player
        self.finder = finder
        self.tables: dict[str, DiscoveredTable] = {}
        self._discovering = False

    def compose(self) -> ComposeResult:
        me = Static(
            f"Name: {self.player.name}\nKey code: {self.player.code}   (compare it aloud)",
            id="me",
        )
        me.border_title = "You"
        yield me
        table: DataTable[str] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        table.border_title = "Tables on your network (live)"
        yield table
        yield Static(id="lobby-hint", markup=False)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Table", "Game", "Seats", "Host key code", "Address")
        self._update_hint()

    def on_screen_resume(self) -> None:
        if not self._discovering and self.finder is not None:
            self._discovering = True
            self.discover()

    @work(exclusive=True, group="discovery")
    @reported("Looking for tables")
    async def discover(self) -> None:
        assert self.finder is not None
        try:
            await self.finder.start(self.on_table_event)
        except Exception as error:  # no network must not take the app down: say so and go on
            self.query_one("#lobby-hint", Static).update(f"✗ Discovery unavailable: {error}")

    def on_table_event(self, event: TableEvent) -> None:
        if isinstance(event, TableAdded | TableUpdated):
            self.tables[event.table.instance] = event.table
        elif isinstance(event, TableRemoved):
            self.tables.pop(event.instance, None)
        self._redraw()

    def _redraw(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for instance, found in sorted(self.tables.items()):
            ad = found.ad
            seats = f"{ad.seats_taken}/{ad.seats_total}"
            seats += " playing" if ad.playing else " full" if ad.is_full else ""
            address = f"{found.addresses[0]}:{found.port}"
            table.add_row(
                ad.name, game_title(ad.game), seats, ad.host_key_text, address, key=instance
            )
        self._update_hint()

    def _update_hint(self) -> None:
        found = len(self.tables)
        chosen = self.selected_table() if found else None
        if chosen is not None:  # the address in full: a narrow terminal cuts the last column
            where = (
                f"{chosen.ad.name} ({game_title(chosen.ad.game)}) at "
                f"{chosen.addresses[0]}:{chosen.port}"
            )
            does = "plays: w watch" if chosen.ad.playing else "j join"
            text = f"{counted(found, 'table')}; {where}. ↑↓ choose, {does}."
        elif self.finder is not None and self.finder.looking:
            text = "No tables found yet (still looking). n opens one, c connects to HOST:PORT."
        else:
            text = "Not looking for tables on the network: c connects to HOST:PORT, n opens one."
        self.query_one("#lobby-hint", Static).update(text)

    def on_data_table_row_highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self._update_hint()

    def selected_table(self) -> DiscoveredTable | None:
        table = self.query_one(DataTable)
        if not self.tables or table.cursor_row < 0:
            return None
        key = table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value
        return self.tables.get(key) if key is not None else None

    def action_watch(self) -> None:
        """Follow the chosen table without a seat (protocol.md 4.8)."""
        from fairdeal.p2p.identity import load_or_create_identity
        from fairdeal.p2p.table.tools.session import current_settings
        from fairdeal.p2p.table.tools.watch import WatchClient
        from fairdeal.ui.watching import watch_in_app

        found = self.selected_table()
        if found is None:
            self.notify("No table selected: there are none on the network yet.", severity="warning")
            return
        if not found.ad.playing:  # its host would refuse: nothing is played there yet
            self.notify(
                f"{found.ad.name} has not started yet: j joins it; w watches it once it plays.",
                title="Nothing to watch yet",
                severity="warning",
            )
            return
        client = WatchClient(load_or_create_identity(current_settings().data))
        watching = watch_in_app(self.app, client, found.addresses[0], found.port)
        self.app.run_worker(reporting("Watching the table", self.app, watching))

    def action_past_tables(self) -> None:
        from fairdeal.p2p.table.tools.session import current_settings
        from fairdeal.ui.screens.past_tables import PastTablesScreen

        self.app.push_screen(PastTablesScreen(current_settings().data))

    def action_new_table(self) -> None:
        self.post_message(NewTableRequested())

    def action_join(self) -> None:
        found = self.selected_table()
        if found is None:
            self.notify("No table selected: there are none on the network yet.", severity="warning")
            return
        if found.ad.playing:  # a started table takes nobody new
            self.notify(
                f"{found.ad.name} has started: its seats are taken. w watches it.",
                title="Cannot join",
                severity="warning",
            )
            return
        self.post_message(JoinRequested(found.addresses[0], found.port, found))

    def on_data_table_row_selected(self, _event: DataTable.RowSelected) -> None:
        found = self.selected_table()
        if found is not None and found.ad.playing:
            self.action_watch()
        else:
            self.action_join()

    def action_connect(self) -> None:
        self.post_message(ConnectRequested())

    def action_help(self) -> None:
        from fairdeal.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(first=lobby_keys()))

    async def on_unmount(self) -> None:
        if self.finder is not None:
            await self.finder.close()
