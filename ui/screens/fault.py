"""A seat cheated or broke the protocol: who, what, and the evidence. The game has stopped
(at either game's table: Larry's and The Lie's screens show this one)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from fairdeal.p2p.table.core.api import FaultDetected


class FaultScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape", "close", "Close")]

    def __init__(self, fault: FaultDetected, seat_name: str) -> None:
        super().__init__()
        self.fault = fault
        self.seat_name = seat_name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide fault"):
            title = f"!! FAULT by seat {self.fault.seat}: {self.seat_name}"
            yield Static(title, classes="title", markup=False)
            yield Static(f"What: {self.fault.what}", markup=False)  # as peers sent it
            yield Static(f"Evidence: {self.fault.evidence}", markup=False)
            yield Static(
                "The game has stopped. Every honest seat saw the same evidence.", classes="dim"
            )
        yield Footer(compact=True, show_command_palette=False)

    def action_close(self) -> None:
        self.dismiss(None)
