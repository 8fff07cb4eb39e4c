"""`r` in the lobby: the finished and left tables of the data directory, newest first; Enter
replays the chosen one (audited first: a file that does not verify shows only the audit's fault).

A table is finished when its peer left `TABLE.transcript.done` beside the transcript (the game
ended, p2p.table.tools.rejoin) and left when it left `TABLE.transcript.left` (protocol.md 10.12).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Static

from fairdeal.p2p.log.transcript import TranscriptError, done_marker, read_header


@dataclass(frozen=True)
class PastTable:
    path: Path
    when: float  # the transcript's last change
    how: str  # "finished" or "left"
    game: str
    seats: int
    seat: int


def past_tables(data: Path) -> list[PastTable]:
    """The finished and left tables in `data`/tables, newest first (damaged ones are skipped:
    `fairdeal audit` names their fault)."""
    from fairdeal.p2p.table.runtime.peer import left_path

    tables = data / "tables"
    if not tables.is_dir():
        return []
    found: list[PastTable] = []
    for path in tables.glob("*.transcript"):
        how = (
            "finished" if done_marker(path).exists() else "left" if left_path(path).exists() else ""
        )
        if not how:
            continue
        try:
            roster, seat, extra = read_header(path)
            when = path.stat().st_mtime
        except (TranscriptError, OSError):
            continue
        game = _game(extra)
        found.append(PastTable(path, when, how, str(game), len(roster.keys), seat))
    return sorted(found, key=lambda t: t.when, reverse=True)


def _game(extra: dict[str, object]) -> str:
    """The game's title from the signed roster in the header ("?" without one)."""
    from fairdeal.p2p.errors import P2PError
    from fairdeal.p2p.lobby.messages import parse_signed_roster_record
    from fairdeal.ui.wording import game_title

    record = extra.get("signed_roster")
    if record is None:
        return "?"
    try:
        return game_title(parse_signed_roster_record(record, "header").roster.game)
    except P2PError:
        return "?"


class PastTablesScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay", "Replay"),
        Binding("f", "fairness_page", "Fairness page"),
        Binding("escape,r", "close", "Close"),
    ]

    def __init__(self, data: Path) -> None:
        super().__init__()
        self.data = data
        self.tables = past_tables(data)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(f"Past tables in {self.data}", classes="title", markup=False)
            table: DataTable[str] = DataTable(id="past", cursor_type="row", zebra_stripes=True)
            yield table
            hint = (
                "Enter: replay the chosen table (audited first); f: its fairness page."
                if self.tables
                else ("No finished or left table here yet.")
            )
            yield Static(hint, id="past-hint", classes="dim", markup=False)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("When", "Game", "Seats", "Your seat", "How", "File")
        for index, past in enumerate(self.tables):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(past.when))
            table.add_row(
                when,
                past.game,
                str(past.seats),
                str(past.seat),
                past.how,
                past.path.name,
                key=str(index),
            )

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row (the table takes the key before the screen's binding)."""
        event.stop()
        self.action_replay()

    def action_replay(self) -> None:
        from fairdeal.p2p.table.tools.replay import CannotReplay, load_replay
        from fairdeal.ui.screens.replay import replay_screen

        table = self.query_one(DataTable)
        if not self.tables or not 0 <= table.cursor_row < len(self.tables):
            return
        past = self.tables[table.cursor_row]
        try:
            replay = load_replay(past.path, self.data)
        except CannotReplay as error:
            self.query_one("#past-hint", Static).update(f"✗ {error}")
            return
        if replay.fault is not None:  # the audit's message and nothing else
            self.query_one("#past-hint", Static).update(f"✗ {replay.fault.verdict}: {replay.fault}")
            return
        self.app.switch_screen(replay_screen(replay))

    def action_fairness_page(self) -> None:
        """f: the chosen table's page beside its transcript (`fairdeal report`)."""
        from fairdeal.ui.report.write import write_transcript_page

        table = self.query_one(DataTable)
        if self.tables and 0 <= table.cursor_row < len(self.tables):
            page = write_transcript_page(self.tables[table.cursor_row].path, self.data)
            self.query_one("#past-hint", Static).update(page)

    def action_close(self) -> None:
        self.dismiss(None)
