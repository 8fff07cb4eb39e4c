"""One card of the player's hand, as a small box; clicking it selects it."""

from __future__ import annotations

from textual import events
from textual.widgets import Static

from fairdeal.engine.larry import Card, CardKind
from fairdeal.ui.games.larry.narrator import card_label
from fairdeal.ui.messages import CardChosen


class CardBox(Static):
    """A card face. The selected card gets a heavy border and a ^ marker, not only a colour."""

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
