"""Score table: one row per seat, one column per hand played, and the running total (L17/L18)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from fairdeal.p2p.table.core.api import SeatInfo
from fairdeal.ui.screens.presence import QUIT_FROM_MODAL
from fairdeal.ui.widgets.score_chart import score_chart


class ScoresScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape,s", "close", "Close"),
        QUIT_FROM_MODAL,
    ]

    def __init__(
        self,
        seats: Sequence[SeatInfo],
        hand_scores: Sequence[Sequence[int]],
        winners: Sequence[int] | None = None,
        title: str = "Scores",
    ) -> None:
        super().__init__()
        self.seats = tuple(seats)
        self.hand_scores = [tuple(row) for row in hand_scores]
        self.winners = tuple(winners) if winners is not None else None
        self.title_text = title

    def compose(self) -> ComposeResult:
        table = Table(expand=True)
        table.add_column("seat")
        for hand in range(len(self.hand_scores)):
            table.add_column(f"hand {hand + 1}", justify="right")
        table.add_column("total", justify="right")
        for seat, info in enumerate(self.seats):
            row = [scores[seat] for scores in self.hand_scores]
            mark = " ★ winner" if self.winners and seat in self.winners else ""
            table.add_row(f"{info.name}{mark}", *(f"{v:+d}" for v in row), f"{sum(row):+d}")
        with Vertical(classes="dialog wide"):
            yield Static(self.title_text, classes="title")
            yield Static(table)
            names = [info.name for info in self.seats]
            yield Static(score_chart(names, self.hand_scores, "hand"), classes="chart")
            note = "Went out: +2; everyone else: minus the Larry symbols left in hand (L17)."
            if self.winners is not None:
                winners = " and ".join(self.seats[w].name for w in self.winners)
                note = f"Game over. Highest total wins (L18): {winners}. Press q to quit."
            yield Static(note, classes="dim")
        yield Footer(compact=True, show_command_palette=False)

    def action_close(self) -> None:
        self.dismiss(None)
