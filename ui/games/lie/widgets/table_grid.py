"""The Lie's Phase 1 table: every card still lying there as its back, in the layout's positions.

Cards stay where the layout put them (a taken card leaves a gap), so nothing moves under the
player's cursor while the others grab cards. The cursor is a position, drawn in brackets.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from fairdeal.ui.games.lie.widgets.cards import back_text

COLUMNS = 16
CELL = 4  # characters per card: " r3 " or "[r3]"


class LieTableGrid(Widget, can_focus=False):
    """What it draws is reactive: the screen assigns it, and a change repaints the grid."""

    layout_slots: reactive[tuple[int, ...]] = reactive(tuple)
    # always updated: its first assignment writes the count under the grid, even of no cards
    on_table: reactive[frozenset[int]] = reactive(frozenset, always_update=True)
    backs: reactive[Mapping[int, int]] = reactive(dict)
    letters: reactive[tuple[str, ...]] = reactive(("r", "y", "g", "b"))
    cursor: reactive[int] = reactive(0)

    class Clicked(Message):
        """A card of the table was clicked: take it (its side is chosen once its front is seen,
        T3)."""

        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Table"

    def watch_on_table(self, on_table: frozenset[int]) -> None:
        self.border_subtitle = f"{len(on_table)} cards left"

    def render(self) -> Text:
        text = Text(no_wrap=True)
        for position, slot in enumerate(self.layout_slots):
            if position and position % COLUMNS == 0:
                text.append("\n")
            here = position == self.cursor
            if slot in self.on_table:
                text.append("[" if here else " ", style="bold reverse" if here else "")
                text.append_text(back_text(self.backs[slot], self.letters))
                text.append("]" if here else " ", style="bold reverse" if here else "")
            else:
                text.append("[··]" if here else "    ", style="bold" if here else "dim")
        return text

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        position = offset.y * COLUMNS + offset.x // CELL
        if offset.x // CELL >= COLUMNS or not 0 <= position < len(self.layout_slots):
            return
        event.stop()
        self.post_message(self.Clicked(position))
