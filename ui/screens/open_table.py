"""Open a table: game, seats, how many of them bots fill, where, and the game's own options.

Larry's option is the game's length (L18); The Lie's are its rounds (T9) and hand size (T3),
typed in and checked with the same words as `fairdeal host --rounds/--hand-size`
(ui.game_options). Choosing the game shows that game's options. A choice that makes no table is
refused in the dialog, naming the option, and nothing opens.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

from fairdeal.ui.game_options import LIE_HAND_SIZE, LIE_ROUNDS
from fairdeal.ui.table_factory import TableSpec
from fairdeal.ui.widgets.keyed_input import KeyedInput

GAMES = [("Larry", "larry"), ("The Lie", "lie")]


def bot_choices(seats: int) -> list[tuple[str, int]]:
    """0 to seats - 1 bots: the seat of whoever opens the table is never a bot's."""
    return [(str(n), n) for n in range(seats)]


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
                    bot_choices(self.base.seats),
                    value=min(self.base.bots, self.base.seats - 1),
                    allow_blank=False,
                    compact=True,
                    id="bots",
                )
            with Horizontal(classes="row", id="larry-options"):
                yield Label("Length", classes="field")
                yield Select(
                    [("full: 3 hands (L18)", False), ("short: 1 hand (L18)", True)],
                    value=self.base.short_game,
                    allow_blank=False,
                    compact=True,
                    id="short",
                )
            with Horizontal(classes="row", id="lie-options"):
                yield Label("Rounds", classes="field")
                yield KeyedInput(
                    str(self._base_rounds()),
                    type="integer",
                    max_length=3,
                    compact=True,
                    id="rounds",
                    tooltip=f"{LIE_ROUNDS.low}-{LIE_ROUNDS.high} rounds (T9)",
                )
                yield Label(" Hand size", classes="field wide-field")
                yield KeyedInput(
                    str(self.base.hand_size or LIE_HAND_SIZE.default),
                    type="integer",
                    max_length=3,
                    compact=True,
                    id="hand-size",
                    tooltip=f"{LIE_HAND_SIZE.low}-{LIE_HAND_SIZE.high} cards (T3)",
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
                f" (L3). The Lie: 2-6 (T2), {LIE_ROUNDS.low}-{LIE_ROUNDS.high} rounds (T9),"
                f" hands of {LIE_HAND_SIZE.low}-{LIE_HAND_SIZE.high} cards (T3).",
                classes="dim",
            )
            yield Label("", id="open-error", classes="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Open", variant="primary", compact=True, id="open")
                yield Button("Cancel", compact=True, id="cancel")

    def _base_rounds(self) -> int:
        if self.base.rounds is not None:
            return self.base.rounds
        return 1 if self.base.short_game else LIE_ROUNDS.default

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
        lie = self.query_one("#game", Select).value == "lie"
        self.query_one("#larry-options").display = not lie
        self.query_one("#lie-options").display = lie
        self.query_one("#open-error", Label).update("")

    def _number(self, field: str, label: str) -> int:
        """The whole number typed in `field`; ValueError naming the option otherwise."""
        text = self.query_one(f"#{field}", Input).value.strip()
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{label}: {text or 'nothing'} is not a whole number") from None

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self._open()  # Enter in a number field opens, as the Open button does

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        self._open()

    def _open(self) -> None:
        game = str(self.query_one("#game", Select).value)
        try:
            rounds = hand_size = None
            if game == "lie":
                rounds = self._number("rounds", LIE_ROUNDS.label)
                hand_size = self._number("hand-size", LIE_HAND_SIZE.label)
        except ValueError as error:
            self.query_one("#open-error", Label).update(f"✗ {error}")
            return
        spec = TableSpec(
            game=game,
            seats=int(self.query_one("#seats", Select).value),  # type: ignore[arg-type]
            bots=int(self.query_one("#bots", Select).value),  # type: ignore[arg-type]
            short_game=game == "larry" and bool(self.query_one("#short", Select).value),
            rounds=rounds,
            hand_size=hand_size,
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
        except ValueError as error:
            self.query_one("#open-error", Label).update(f"✗ {error}")
            return
        self.dismiss(spec)

    def action_cancel(self) -> None:
        self.dismiss(None)
