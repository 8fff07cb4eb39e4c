"""Ask a yes/no question before something that cannot be undone (leaving a networked table,
ending it): y or Enter confirms, n or Escape keeps playing."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label


class ConfirmDialog(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
        # q and Ctrl+C while the question is open do nothing: they must not quit past it.
        Binding("q,ctrl+c", "still_asking", show=False, priority=True),
    ]

    def __init__(self, question: str, detail: str, yes: str, no: str) -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, markup=False)
            yield Label(self.detail, markup=False, classes="dim")
            yield Label(f"y / Enter: {self.yes} · n / Esc: {self.no}")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def action_still_asking(self) -> None:
        self.app.bell()
