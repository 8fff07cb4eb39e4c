"""The player's hand as a row of card boxes, with one selected card; clicking a box selects it."""

from __future__ import annotations

import asyncio

from textual import events
from textual.containers import HorizontalScroll
from textual.widgets import Static

from fairdeal.engine.larry import Card, CardKind
from fairdeal.ui.games.larry.narrator import card_label
from fairdeal.ui.messages import CardChosen

MARK_WIDTH = 4  # "◀ 3 ": how many cards lie beyond that edge
CARD_WIDTH, TWO_DIGIT_WIDTH = 7, 8  # CardBox's widths in table.tcss (cards 10 and on: wider)


def hand_window(widths: list[int], selected: int, first: int, room: int) -> tuple[int, int]:
    """The cards to show, `[start, end)`, whole and in order: all of them if they fit in `room`
    columns, else a run holding `selected` that starts at `first` if it can (so that the hand
    does not jump at each step), with room for a mark at each edge that hides cards."""
    count = len(widths)
    if room <= 0 or sum(widths) <= room:
        return 0, count
    chosen = min(max(selected, 0), count - 1)
    start = min(max(first, 0), chosen)
    while True:
        space = room - (MARK_WIDTH if start > 0 else 0)
        end = start
        while end < count:
            more = MARK_WIDTH if end + 1 < count else 0
            if sum(widths[start : end + 1]) + more > space:
                break
            end += 1
        end = max(end, start + 1)  # one card at least, however narrow the screen
        if chosen < end:
            return start, end
        start += 1


class HandView(HorizontalScroll, can_focus=False):
    """Shows cards; the screen owns the selection and calls `show` again when it changes. A hand
    wider than the screen shows whole cards around the selected one and marks each edge with
    how many lie beyond it ("◀ 3", "2 ▶"), never half a card."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[tuple[Card | None, ...], int, int] | None = None
        self._cards: tuple[Card | None, ...] = ()
        self._selected = -1
        self._first = 0  # the first card shown: the window moves only as the selection needs
        self._lock = asyncio.Lock()  # calls finish in the order they were made: the last wins

    async def show(self, cards: tuple[Card | None, ...], selected: int) -> None:
        async with self._lock:
            self._cards, self._selected = cards, selected
            room = self.size.width
            widths = [CARD_WIDTH if i < 9 else TWO_DIGIT_WIDTH for i in range(len(cards))]
            start, end = hand_window(widths, selected, self._first, room)
            self._first = start
            if self._shown == (cards, selected, room):
                return
            self._shown = (cards, selected, room)
            await self.remove_children()
            shown: list[Static] = []
            if start > 0:
                shown.append(HiddenCards(f"◀ {start}"))
            shown += [CardBox(i, cards[i], i == selected) for i in range(start, end)]
            if end < len(cards):
                shown.append(HiddenCards(f"{len(cards) - end} ▶"))
            await self.mount_all(shown)

    async def on_resize(self, event: events.Resize) -> None:
        del event
        await self.show(self._cards, self._selected)


class HiddenCards(Static):
    """How many cards of the hand lie beyond this edge of the screen."""

    def __init__(self, text: str) -> None:
        super().__init__(f"\n{text}")


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
