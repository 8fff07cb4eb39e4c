"""Your hand of The Lie: each card's front with its back under it, in the hand's fixed order (T3).

In Phase 1 the card just taken and not placed yet stands apart to the right of the hand, "new"
and its front between ◀ ▶, its back under it, until it is placed at one end (T3). In Phase 2 a
selection of 1-3 adjacent cards is drawn in brackets with ^ under it, and a dot marks every card
that is part of some legal play, so the choices are easy to see (T5). What it draws is reactive:
the screen assigns it, and a change repaints the hand.
"""

from __future__ import annotations

from collections.abc import Collection

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from fairdeal.ui.games.lie.widgets.cards import back_text, front_text

CELL = 4


class LieHandView(Widget, can_focus=False):
    class Clicked(Message):
        """Card `index` of the hand was clicked (`len(cards)`: the new card beside it);
        `right_half`: the click was in the right half of the hand's cards (T3: where to place)."""

        def __init__(self, index: int, right_half: bool = False) -> None:
            super().__init__()
            self.index = index
            self.right_half = right_half

    cards: reactive[tuple[tuple[int, int], ...]] = reactive(tuple)  # (face, back) left to right
    letters: reactive[tuple[str, ...]] = reactive(("r", "y", "g", "b"))
    selected: reactive[range] = reactive(range(0))  # the cards chosen (Phase 2)
    playable: reactive[Collection[int]] = reactive(frozenset)  # the cards a legal play uses
    new_card: reactive[tuple[int, int] | None] = reactive(None)  # (face, back) taken, not placed

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Your hand"

    def render(self) -> Text:
        if not self.cards and self.new_card is None:
            return Text("(no cards)", style="dim")
        fronts, backs, marks = Text(no_wrap=True), Text(no_wrap=True), Text(no_wrap=True)
        for index, (face, back) in enumerate(self.cards):
            chosen = index in self.selected
            fronts.append("[" if chosen and index == self.selected.start else " ", style="bold")
            fronts.append_text(front_text(face, self.letters))
            fronts.append("]" if chosen and index == self.selected.stop - 1 else " ", style="bold")
            backs.append(" ")
            backs.append_text(back_text(back, self.letters))
            backs.append(" ")
            mark = " ^^ " if chosen else " •  " if index in self.playable else "    "
            marks.append(mark, style="bold" if chosen else "dim")
        if self.new_card is not None:  # T3: seen, to be placed at one end: beside the hand
            face, back = self.new_card
            fronts.append("  new", style="bold")
            fronts.append("◀", style="bold reverse")
            fronts.append_text(front_text(face, self.letters))
            fronts.append("▶", style="bold reverse")
            backs.append("       ")
            backs.append_text(back_text(back, self.letters))
        return Text("\n").join([fronts, backs, marks])

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = offset.x // CELL
        right_half = 2 * offset.x >= len(self.cards) * CELL
        if 0 <= index < len(self.cards):
            event.stop()
            self.post_message(self.Clicked(index, right_half))
        elif self.new_card is not None and offset.y < 2:  # the new card, drawn beside the hand
            event.stop()
            self.post_message(self.Clicked(len(self.cards), True))
