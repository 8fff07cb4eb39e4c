"""The player's hand as a row of card boxes, with one selected card."""

from __future__ import annotations

import asyncio

from textual.containers import HorizontalScroll

from fairdeal.engine.larry import Card
from fairdeal.ui.games.larry.widgets.card import CardBox


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
