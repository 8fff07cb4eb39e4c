"""Ask for the total to announce with a face-down card (L6): an integer from ANNOUNCE_MIN (−99)
up to the limit. Anything else is refused here, in the dialog, and nothing is sent."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from fairdeal.engine.larry.actions import ANNOUNCE_MIN
from fairdeal.ui.widgets.keyed_input import KeyedInput


class AnnounceDialog(ModalScreen[int | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, card_text: str, honest: int, limit: int) -> None:
        super().__init__()
        self.card_text = card_text
        self.honest = honest
        self.limit = limit

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                f"Play {self.card_text} face-down. Announce a total "
                f"from {ANNOUNCE_MIN} to the limit {self.limit}."
            )
            yield Label(self.honest_text())
            # pre-filled with a total Enter accepts: above the limit it would only be refused
            start = max(ANNOUNCE_MIN, min(self.honest, self.limit))
            yield KeyedInput(str(start), id="announce", type="integer", select_on_focus=False)
            yield Label("", id="announce-error", classes="error")

    def honest_text(self) -> str:
        if self.honest > self.limit:
            return (
                f"The honest total {self.honest} is above the limit {self.limit}: announce "
                f"{self.limit} or less (L6). Enter to play, Esc to cancel."
            )
        return f"The honest total is {self.honest}. Enter to play, Esc to cancel."

    def on_input_submitted(self, event: Input.Submitted) -> None:
        error = self.query_one("#announce-error", Label)
        text = event.value.strip()
        if len(text.lstrip("+-")) > 3:  # never parse (or print) an absurdly long number
            error.update(f"✗ Type a whole number from {ANNOUNCE_MIN} to {self.limit} (L6).")
            return
        try:
            value = int(text)
        except ValueError:
            error.update("✗ Type a whole number.")
            return
        if value > self.limit:
            error.update(f"✗ {value} is above the limit {self.limit} (L6).")
            return
        if value < ANNOUNCE_MIN:
            error.update(f"✗ {value} is below {ANNOUNCE_MIN}, the lowest announcement (L6).")
            return
        self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(None)
