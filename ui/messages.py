"""Messages the widgets post to their screens (Posting style: widgets never reach up)."""

from __future__ import annotations

from textual.message import Message


class CardChosen(Message):
    """A card of the hand was clicked: select it (and play it face-down on a second click)."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index
