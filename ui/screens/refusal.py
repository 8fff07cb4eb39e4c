"""A dialog that closes with what was chosen, or stays open and says why the choice makes none."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from textual.screen import ModalScreen
from textual.widgets import Label

ChosenT = TypeVar("ChosenT")


def dismiss_or_refuse(
    dialog: ModalScreen[ChosenT], error_label: str, choose: Callable[[], ChosenT]
) -> None:
    """Close `dialog` with what `choose` returns; when it raises ValueError, keep the dialog open
    and put "✗" and the error in the label `error_label` (a query selector, "#open-error")."""
    try:
        chosen = choose()
    except ValueError as error:
        dialog.query_one(error_label, Label).update(f"✗ {error}")
        return
    dialog.dismiss(chosen)
