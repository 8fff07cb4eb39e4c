"""Pick one of a few choices (a target seat, a card to give away); Enter picks, Esc cancels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option


class PickDialog(ModalScreen[int | None]):
    """Returns the value of the chosen (label, value) pair, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, choices: Sequence[tuple[str, int]]) -> None:
        super().__init__()
        self.question = question
        self.choices = tuple(choices)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question)
            yield OptionList(
                *(Option(f"  {label}", id=str(i)) for i, (label, _) in enumerate(self.choices)),
                id="choices",
            )
            yield Label("↑↓ choose · Enter pick · Esc cancel", classes="dim")

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The highlighted choice is marked in text (▶), not only by its colour."""
        options = self.query_one(OptionList)
        for index, (label, _) in enumerate(self.choices):
            mark = "▶ " if index == event.option_index else "  "
            options.replace_option_prompt_at_index(index, mark + label)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[event.option_index][1])

    def action_cancel(self) -> None:
        self.dismiss(None)
