"""Messages widgets and screens post upwards (Posting style: nothing reaches up by name)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from fairdeal.p2p.lobby.discovery import DiscoveredTable


class CardChosen(Message):
    """A card of the hand was clicked: select it (and play it face-down on a second click)."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class JoinRequested(Message):
    """The player wants to sit at the table at `host`:`port` (picked in the lobby or typed).
    `table` is the lobby's entry when it was picked there (it may list more addresses)."""

    def __init__(self, host: str, port: int, table: DiscoveredTable | None = None) -> None:
        super().__init__()
        self.host = host
        self.port = port
        self.table = table


class NewTableRequested(Message):
    """The player wants to open a table (the app asks for its options)."""


class ConnectRequested(Message):
    """The player wants to type HOST:PORT."""


class NewGameRequested(Message):
    """The game at the table is over; the player wants another like it."""
