"""Larry's table options as a player chooses them: only the game's length, a short game being
one hand (L18); the open-table dialog's "Length" row (ui/screens/open_table.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from fairdeal.engine.larry.options import LarryOptions
from fairdeal.ui.screen_game import DialogFields, TableChoice

if TYPE_CHECKING:
    from textual.widget import Widget


def table_options(
    seats: int, short_game: bool = False, numbers: Mapping[str, int | None] | None = None
) -> LarryOptions:
    """Larry's options: the rulebook's, one hand for a short game (L18). Larry has no numbers."""
    return LarryOptions(short_game=short_game)


def dialog_rows(base: TableChoice) -> Iterable[Widget]:
    """The open-table dialog's "Length" row, set from the last table `base`."""
    from textual.containers import Horizontal
    from textual.widgets import Label, Select

    return [
        Horizontal(
            Label("Length", classes="field"),
            Select(
                [("full: 3 hands (L18)", False), ("short: 1 hand (L18)", True)],
                value=base.short_game,
                allow_blank=False,
                compact=True,
                id="short",
            ),
            classes="row",
            id="larry-options",
        )
    ]


def dialog_values(dialog: DialogFields) -> TableChoice:
    """The TableSpec fields the dialog's row says."""
    return TableChoice(short_game=bool(dialog.selected("short")))
