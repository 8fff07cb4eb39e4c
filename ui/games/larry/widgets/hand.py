"""The player's hand as a row of card boxes, with one selected card; clicking a box selects it."""

from __future__ import annotations

import asyncio

from textual import events
from textual.containers import HorizontalScroll
from textual.widgets import Static

from fairdeal.engine.larry import Card, CardKind
from fairdeal.ui.games.larry.narrator import card_label
from fairdeal.ui.messages import CardChosen


class HandView(HorizontalScroll, can_focus=False):
    """Shows cards; the screen owns the selection and calls `show` again when it changes."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[tuple[Card | None, ...], int] | None = None
        self._lock = asyncio.Lock()  # calls finish in the order they were made: the last wins

    async def show(self, cards: tuple[Card | None, ...], selected: int) -> None:
        async with self._lock:
            if self._shown == (cards, selected):
                return
            self._shown = (cards, selected)
            await self.remove_children()
            boxes = [CardBox(i, card, i == selected) for i, card in enumerate(cards)]
            await self.mount_all(boxes)
            if 0 <= selected < len(boxes):  # once laid out, bring the selected card into view
                self.call_after_refresh(self.scroll_to_widget, boxes[selected], animate=False)


class CardBox(Static):
    """One card of the hand, a small box. The selected card gets a heavy border and a ^ marker,
    not only a colour."""

    def __init__(self, index: int, card: Card | None, selected: bool) -> None:
        label = card_label(card) if card is not None else "??"
        super().__init__(label)
        self.index = index
        self.border_title = str(index + 1)  # keys 1-9 pick; 10 and on are numbered too
        if index >= 9:
            self.add_class("-two-digit")  # one column wider, so that "10" is not cut to "…"
        if selected:
            self.add_class("-selected")
            self.border_subtitle = "^"
        if card is not None:
            self.add_class("-number" if card.kind is CardKind.NUMBER else "-special")

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(CardChosen(self.index))
