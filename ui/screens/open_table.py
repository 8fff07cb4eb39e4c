"""Open a table: game, seats, how many of them bots fill, where, and the game's own options.

Each game's options are rows its record gives (ui/screen_game.py: a short game's yes/no, numbers
typed in and checked with the same words as `fairdeal host`'s flags, ui/number_option.py), with
the id `<game>-options`. Choosing the game shows that game's rows. A choice that makes no table is
refused in the dialog, naming the option, and nothing opens.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

from fairdeal.ui.screen_game import screen_game, screen_games
from fairdeal.ui.screens.refusal import dismiss_or_refuse
from fairdeal.ui.table_factory import TableSpec

# How hard the bots are to race where seats grab at once (fairdeal.engine.bots.DIFFICULTIES).
LEVELS = (
    ("easy", "slower than you"),
    ("normal", "as quick as a practised player"),
    ("hard", "quicker than most"),
)


def bot_choices(seats: int) -> list[tuple[str, int]]:
    """0 to seats - 1 bots: the seat of whoever opens the table is never a bot's."""
    return [(str(n), n) for n in range(seats)]


def _select_row(
    label: str, choices: list[tuple[str, Any]], value: object, select_id: str
) -> ComposeResult:
    """One row of the dialog: `label`, then a compact choice among `choices` (never blank)."""
    with Horizontal(classes="row"):
        yield Label(label, classes="field")
        yield Select(choices, value=value, allow_blank=False, compact=True, id=select_id)


class OpenTableDialog(ModalScreen[TableSpec | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, base: TableSpec) -> None:
        super().__init__()
        self.base = base

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Open a table", classes="title")
            yield from _select_row(
                "Game ",
                [(game.title, game.name) for game in screen_games()],
                self.base.game,
                "game",
            )
            yield from _select_row(
                "Seats", [(str(n), n) for n in range(2, 9)], self.base.seats, "seats"
            )
            yield from _select_row(
                "Bots ",
                bot_choices(self.base.seats),
                min(self.base.bots, self.base.seats - 1),
                "bots",
            )
            yield from _select_row(
                "Level",
                [(f"bots: {level}, {said}", level) for level, said in LEVELS],
                self.base.difficulty,
                "difficulty",
            )
            for game in screen_games():
                yield from game.dialog_rows(self.base.choice())
            yield from _select_row(
                "Where",
                [("here: no network", False), ("on the network", True)],
                self.base.networked,
                "networked",
            )
            yield Label(
                " ".join(
                    ["Seats that are not bots are for friends, on the network."]
                    + [game.dialog_note for game in screen_games()]
                ),
                classes="dim",
            )
            yield Label("", id="open-error", classes="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Open", variant="primary", compact=True, id="open")
                yield Button("Cancel", compact=True, id="cancel")

    def on_mount(self) -> None:
        self._show_game_options()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "game":
            self._show_game_options()
        elif event.select.id == "seats" and isinstance(event.value, int):
            bots = self.query_one("#bots", Select)
            chosen = bots.value if isinstance(bots.value, int) else 0
            bots.set_options(bot_choices(event.value))
            bots.value = min(chosen, event.value - 1)  # one seat at least is yours

    def _show_game_options(self) -> None:
        """Only the chosen game's options are on show (and checked)."""
        chosen = self.query_one("#game", Select).value
        for game in screen_games():
            self.query_one(f"#{game.name}-options").display = game.name == chosen
        self.query_one("#open-error", Label).update("")

    def number(self, field: str, label: str) -> int:
        """The whole number typed in `field`; ValueError naming the option otherwise."""
        text = self.query_one(f"#{field}", Input).value.strip()
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{label}: {text or 'nothing'} is not a whole number") from None

    def selected(self, field: str) -> object:
        """The value chosen in the Select `field`."""
        return self.query_one(f"#{field}", Select).value

    def selected_count(self, field: str) -> int:
        """The number chosen in the Select `field` (its options are numbers; every one has a
        value chosen, `allow_blank=False`)."""
        value = self.selected(field)
        if not isinstance(value, int):
            raise ValueError(f"{field}: choose a number")
        return value

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self._open()  # Enter in a number field opens, as the Open button does

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        self._open()

    def _open(self) -> None:
        dismiss_or_refuse(self, "#open-error", self._chosen)

    def _chosen(self) -> TableSpec:
        """The table chosen; ValueError naming the option when the choice makes no table."""
        game = str(self.query_one("#game", Select).value)
        # the chosen game's rows; no other game's numbers (nor short game) go with it
        chosen = screen_game(game).dialog_values(self)
        spec = TableSpec(
            game=game,
            seats=self.selected_count("seats"),
            bots=self.selected_count("bots"),
            short_game=chosen.short_game,
            networked=bool(self.query_one("#networked", Select).value),
            seed=self.base.seed,
            bot_kind=self.base.bot_kind,
            bot_delay=self.base.bot_delay,
            difficulty=str(self.query_one("#difficulty", Select).value),
            claim_pace=self.base.claim_pace,
            name=self.base.name,
            fingerprint=self.base.fingerprint,
        ).choosing(chosen.numbers)
        spec.validate()
        return spec

    def action_cancel(self) -> None:
        self.dismiss(None)
