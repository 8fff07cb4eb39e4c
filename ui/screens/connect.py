"""Connect to a table by hand, typing HOST:PORT."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from fairdeal.ui.screens.refusal import dismiss_or_refuse
from fairdeal.ui.table_factory import parse_address
from fairdeal.ui.widgets.keyed_input import KeyedInput


class ConnectDialog(ModalScreen[tuple[str, int] | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Connect to a table: HOST:PORT, then Enter (Esc cancels).")
            yield KeyedInput(placeholder="192.168.1.20:45123", id="address")
            yield Label("", id="connect-error", classes="error", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        dismiss_or_refuse(self, "#connect-error", lambda: parse_address(event.value))

    def action_cancel(self) -> None:
        self.dismiss(None)
