"""Open a table: game, options, number of seats, how many of them bots fill."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Select

from fairdeal.ui.table_factory import TableSpec

GAMES = [("Larry", "larry"), ("The Lie", "lie")]  # The Lie: here against bots only (issue 10)


class OpenTableDialog(ModalScreen[TableSpec | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, base: TableSpec) -> None:
        super().__init__()
        self.base = base

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Open a table", classes="title")
            with Horizontal(classes="row"):
                yield Label("Game ", classes="field")
                yield Select(
                    GAMES, value=self.base.game, allow_blank=False, compact=True, id="game"
                )
            with Horizontal(classes="row"):
                yield Label("Seats", classes="field")
                yield Select(
                    [(str(n), n) for n in range(2, 9)],
                    value=self.base.seats,
                    allow_blank=False,
                    compact=True,
                    id="seats",
                )
            with Horizontal(classes="row"):
                yield Label("Bots ", classes="field")
                yield Select(
                    [(str(n), n) for n in range(8)],
                    value=self.base.bots,
                    allow_blank=False,
                    compact=True,
                    id="bots",
                )
            with Horizontal(classes="row"):
                yield Label("Length", classes="field")
                yield Select(
                    [("full: 3 hands/rounds", False), ("short: 1 hand/round", True)],
                    value=self.base.short_game,
                    allow_blank=False,
                    compact=True,
                    id="short",
                )
            with Horizontal(classes="row"):
                yield Label("Where", classes="field")
                yield Select(
                    [("here: no network", False), ("on the network", True)],
                    value=self.base.networked,
                    allow_blank=False,
                    compact=True,
                    id="networked",
                )
            yield Label(
                "Seats that are not bots are for friends, on the network. Larry: 2-8 seats"
                " (L3, L18). The Lie: 2-6 (T2, T9), here against bots only: The Lie at a"
                " networked table is not available yet.",
                classes="dim",
            )
            yield Label("", id="open-error", classes="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Open", variant="primary", compact=True, id="open")
                yield Button("Cancel", compact=True, id="cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        spec = TableSpec(
            game=str(self.query_one("#game", Select).value),
            seats=int(self.query_one("#seats", Select).value),  # type: ignore[arg-type]
            bots=int(self.query_one("#bots", Select).value),  # type: ignore[arg-type]
            short_game=bool(self.query_one("#short", Select).value),
            networked=bool(self.query_one("#networked", Select).value),
            seed=self.base.seed,
            bot_kind=self.base.bot_kind,
            bot_delay=self.base.bot_delay,
            claim_pace=self.base.claim_pace,
            name=self.base.name,
            fingerprint=self.base.fingerprint,
        )
        try:
            spec.validate()
            if spec.game == "lie" and not spec.local:
                from fairdeal.ui.table_factory import LIE_UNAVAILABLE

                raise ValueError(LIE_UNAVAILABLE)
        except ValueError as error:
            self.query_one("#open-error", Label).update(f"✗ {error}")
            return
        self.dismiss(spec)

    def action_cancel(self) -> None:
        self.dismiss(None)
