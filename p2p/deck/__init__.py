"""The fair deck: mental-poker shuffle, deal and reveal with zero-knowledge proofs.

Use `DeckSession` (one per seat, sans-IO) and the events it returns; `LoopbackTable` wires N
sessions in one process. The building blocks (group, keys, masking, shuffle, shares, coin) are
importable for audits and tests. See protocol.md §6 for the messages and transcripts.
"""

from .coin import SeedStream
from .errors import DeckError, DeckFault, DeckUsageError, ParseError, ProofError
from .events import (
    CardDealt,
    CardReceived,
    CardRevealed,
    CoinFlipped,
    DeckEvent,
    KeysReady,
    ListReady,
    ShuffleApplied,
)
from .loopback import LoopbackTable
from .messages import Slot
from .session import DeckSession, Output

__all__ = [
    "CardDealt",
    "CardReceived",
    "CardRevealed",
    "CoinFlipped",
    "DeckError",
    "DeckEvent",
    "DeckFault",
    "DeckSession",
    "DeckUsageError",
    "KeysReady",
    "ListReady",
    "LoopbackTable",
    "Output",
    "ParseError",
    "ProofError",
    "SeedStream",
    "ShuffleApplied",
    "Slot",
]
