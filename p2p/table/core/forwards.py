"""A give-away's private forward, signed by its giver (protocol.md 10.8).

The shares of a card given away (L11) travel privately, from the giver to the receiver only. So
that nobody else can pass a forward off as the giver's, and so that a receiver who says the
forward was bad can prove it to every peer, the giver signs each forward with its identity key
over the table, the engine's Transfer id, the card's engine slot and the `deck.forward` message.
A receiver that accuses its giver puts the signed forward in its public receipt; every peer then
checks the forward itself and blames whichever of the two is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fairdeal.p2p.canonical import NotCanonical, pack_canonical
from fairdeal.p2p.deck.messages import FORWARD
from fairdeal.p2p.identity import verify_signature

FIELDS = frozenset({"transfer", "slot", "m", "sig"})
SIGNATURE_BYTES = 64
MAX_ID = (1 << 63) - 1


class ForwardError(ValueError):
    """A signed forward that cannot be read (its fields, types or ranges)."""


def forward_context(game: str) -> bytes:
    """The signature context of a forward at a table of `game` (the roster's game name):
    "fairdeal/<game>.forward/v1" and a zero byte (protocol.md 10.8), so that a forward signed at
    a table of one game is never a forward of another."""
    return f"fairdeal/{game}.forward/v1".encode() + b"\x00"


def forward_statement(
    game: str, table_id: bytes, transfer: int, slot: int, body: Mapping[str, Any]
) -> bytes:
    """The bytes a giver signs: context ‖ canonical msgpack {"m", "slot", "table", "transfer"}."""
    statement = {"table": table_id, "transfer": transfer, "slot": slot, "m": dict(body)}
    return forward_context(game) + pack_canonical(statement)


@dataclass(frozen=True, slots=True)
class SignedForward:
    """One `deck.forward` for the Transfer `transfer` of engine slot `slot`, signed by `giver`."""

    transfer: int
    slot: int
    giver: int
    to: int
    body: Mapping[str, Any]
    signature: bytes

    def __repr__(self) -> str:  # the shares are as private as the card: never in a log line
        return (
            f"SignedForward(transfer={self.transfer}, slot={self.slot}, "
            f"giver={self.giver}, to={self.to})"
        )

    def to_data(self) -> dict[str, Any]:
        return {
            "transfer": self.transfer,
            "slot": self.slot,
            "m": dict(self.body),
            "sig": self.signature,
        }

    @classmethod
    def from_data(cls, data: Any, seats: int) -> SignedForward:
        """Read a signed forward; the deck checks the shares inside `m` (p2p.deck)."""
        if not isinstance(data, Mapping) or set(data) != FIELDS:
            raise ForwardError(f"a signed forward has exactly the fields {sorted(FIELDS)}")
        transfer, slot = data["transfer"], data["slot"]
        for name, value in (("transfer", transfer), ("slot", slot)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_ID:
                raise ForwardError(f"{name} is not a non-negative integer")
        signature = data["sig"]
        if not isinstance(signature, bytes) or len(signature) != SIGNATURE_BYTES:
            raise ForwardError(f"sig is not {SIGNATURE_BYTES} bytes")
        body = data["m"]
        if not isinstance(body, Mapping) or body.get("kind") != FORWARD:
            raise ForwardError(f"m is not a {FORWARD} message")
        giver, to = body.get("seat"), body.get("to")
        for name, seat in (("seat", giver), ("to", to)):
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
                raise ForwardError(f"m.{name} is not a seat of this table")
        assert isinstance(giver, int) and isinstance(to, int)
        return cls(transfer, slot, giver, to, body, signature)

    def verify(self, table_id: bytes, giver_key: bytes, game: str) -> bool:
        """Whether the giver's identity key signed exactly this forward for this table of
        `game`."""
        try:
            statement = forward_statement(game, table_id, self.transfer, self.slot, self.body)
        except NotCanonical:
            return False
        return verify_signature(giver_key, self.signature, statement)


def sign_forward(
    sign: Callable[[bytes], bytes],
    table_id: bytes,
    transfer: int,
    slot: int,
    body: Mapping[str, Any],
    *,
    game: str,
) -> SignedForward:
    """The giver's signed forward at a table of `game` (`sign`: its identity's Ed25519 signing
    function)."""
    signature = sign(forward_statement(game, table_id, transfer, slot, body))
    return SignedForward(transfer, slot, body["seat"], body["to"], body, signature)
