"""Errors of the fair deck: every fault by another seat names that seat and what failed.

Modelled on h11's Local/Remote protocol errors: a `DeckFault` is a provable deviation by a remote
seat (the caller shows it to every player with the evidence); a `DeckUsageError` is a bug of the
local caller (asking to deal a slot that does not exist). Neither changes any state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class DeckError(Exception):
    """Base class of every fair-deck error."""


class DeckUsageError(DeckError):
    """The local caller asked for something impossible in the current state (no seat to blame)."""


class DeckFault(DeckError):
    """A seat deviated from the protocol; `seat` is the culprit, `evidence` says what failed.

    `evidence` is plain data (msgpack-compatible) that another peer can check; it never holds
    secrets because every input to a fault is public or was sent by the culprit itself.
    """

    def __init__(self, seat: int | None, what: str, evidence: Mapping[str, Any] | None = None):
        self.seat = seat
        self.what = what
        self.evidence: dict[str, Any] = dict(evidence or {})
        super().__init__(f"seat {seat}: {what}" if seat is not None else what)


class ParseError(DeckFault):
    """Malformed plain data: wrong type, length, size, or a point outside the prime-order group."""


class ProofError(DeckFault):
    """A zero-knowledge proof (key, shuffle, decryption share) or a coin opening did not verify."""


def reblame(error: DeckFault, seat: int) -> DeckFault:
    """Return the same kind of fault, now naming `seat` (parsers do not know who sent the data)."""
    return type(error)(seat, error.what, error.evidence)
