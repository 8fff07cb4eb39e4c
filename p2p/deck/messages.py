"""The fair-deck messages as frozen dataclasses, to and from plain msgpack-compatible dicts.

Every message carries `kind` and `seat` (its author). `deck.forward` also carries `to` and is
sent privately over the encrypted channel; every other message goes on the public table log.
`parse_message` is strict (exact fields, types, lengths, valid points) and blames the sender.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import wire
from .coin import COMMIT_BYTES, NONCE_BYTES, VALUE_BYTES
from .errors import DeckFault, ParseError, reblame
from .keys import PublicKeyShare
from .masking import MaskedCard, masked_list_from_data, masked_list_to_data
from .shares import DecryptionShare
from .shuffle import MAX_CARDS, ShuffleProof

KEY = "deck.key"
SHUFFLE = "deck.shuffle"
SHARES = "deck.shares"
FORWARD = "deck.forward"
COIN_COMMIT = "deck.coin.commit"
COIN_REVEAL = "deck.coin.reveal"


@dataclass(frozen=True, order=True)
class Slot:
    """One masked card: position `index` of masked list `list_id`."""

    list_id: str
    index: int

    def to_data(self) -> dict[str, Any]:
        return {"list": self.list_id, "i": self.index}

    @classmethod
    def from_data(cls, data: object, what: str = "slot") -> Slot:
        d = wire.fields(data, what, {"list", "i"})
        return cls(
            wire.short_text(d["list"], f"{what}.list"),
            wire.integer(d["i"], f"{what}.i", 0, MAX_CARDS - 1),
        )

    def __str__(self) -> str:
        return f"{self.list_id}[{self.index}]"


@dataclass(frozen=True)
class SlotShare:
    slot: Slot
    share: DecryptionShare

    def to_data(self) -> dict[str, Any]:
        return {**self.slot.to_data(), "share": self.share.to_data()}

    @classmethod
    def from_data(cls, data: object, what: str, max_seat: int) -> SlotShare:
        d = wire.fields(data, what, {"list", "i", "share"})
        slot = Slot.from_data({"list": d["list"], "i": d["i"]}, what)
        return cls(slot, DecryptionShare.from_data(d["share"], max_seat))


@dataclass(frozen=True)
class KeyMessage:
    key: PublicKeyShare

    @property
    def seat(self) -> int:
        return self.key.seat

    def to_data(self) -> dict[str, Any]:
        return {"kind": KEY, **self.key.to_data()}


@dataclass(frozen=True)
class ShuffleMessage:
    seat: int
    list_id: str
    deck: tuple[MaskedCard, ...]
    proof: ShuffleProof

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": SHUFFLE,
            "seat": self.seat,
            "list": self.list_id,
            "deck": masked_list_to_data(list(self.deck)),
            "proof": self.proof.to_data(),
        }


@dataclass(frozen=True)
class SharesMessage:
    """Public decryption shares (a deal or a reveal)."""

    seat: int
    shares: tuple[SlotShare, ...]

    def to_data(self) -> dict[str, Any]:
        return {"kind": SHARES, "seat": self.seat, "shares": [s.to_data() for s in self.shares]}


@dataclass(frozen=True)
class ForwardMessage:
    """Shares sent privately to `to` (giving a card away)."""

    seat: int
    to: int
    shares: tuple[SlotShare, ...]

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": FORWARD,
            "seat": self.seat,
            "to": self.to,
            "shares": [s.to_data() for s in self.shares],
        }


@dataclass(frozen=True)
class CoinCommitMessage:
    seat: int
    coin_id: str
    commit: bytes

    def to_data(self) -> dict[str, Any]:
        return {"kind": COIN_COMMIT, "seat": self.seat, "coin": self.coin_id, "commit": self.commit}


@dataclass(frozen=True)
class CoinRevealMessage:
    seat: int
    coin_id: str
    nonce: bytes
    value: bytes

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": COIN_REVEAL,
            "seat": self.seat,
            "coin": self.coin_id,
            "nonce": self.nonce,
            "value": self.value,
        }


DeckMessage = (
    KeyMessage
    | ShuffleMessage
    | SharesMessage
    | ForwardMessage
    | CoinCommitMessage
    | CoinRevealMessage
)


def parse_message(data: Any, sender: int, seats: int) -> DeckMessage:
    """Parse a message authored (authenticated by the transport) by `sender`; blame it on error."""
    try:
        message = _parse(data, seats - 1)
    except DeckFault as fault:
        raise reblame(fault, sender) from fault
    if message.seat != sender:
        raise ParseError(sender, f"message claims seat {message.seat} but was sent by {sender}")
    return message


def _shares(value: object, what: str, max_seat: int) -> tuple[SlotShare, ...]:
    items = wire.sequence(value, what, lambda v, w: SlotShare.from_data(v, w, max_seat))
    if not items:
        raise ParseError(None, f"{what}: empty")
    return tuple(items)


def _parse(data: Any, max_seat: int) -> DeckMessage:
    kind = wire.kind_of(data)
    if kind == KEY:
        d = wire.fields(data, kind, {"kind", "seat", "Y", "proof"})
        del d["kind"]
        return KeyMessage(PublicKeyShare.from_data(d, max_seat))
    if kind == SHUFFLE:
        d = wire.fields(data, kind, {"kind", "seat", "list", "deck", "proof"})
        deck = tuple(masked_list_from_data(d["deck"], "shuffle.deck"))
        if not 0 < len(deck) <= MAX_CARDS:
            raise ParseError(None, f"shuffle.deck: expected 1 to {MAX_CARDS} cards")
        return ShuffleMessage(
            wire.integer(d["seat"], "shuffle.seat", 0, max_seat),
            wire.short_text(d["list"], "shuffle.list"),
            deck,
            ShuffleProof.from_data(d["proof"], len(deck)),
        )
    if kind == SHARES:
        d = wire.fields(data, kind, {"kind", "seat", "shares"})
        return SharesMessage(
            wire.integer(d["seat"], "shares.seat", 0, max_seat),
            _shares(d["shares"], "shares.shares", max_seat),
        )
    if kind == FORWARD:
        d = wire.fields(data, kind, {"kind", "seat", "to", "shares"})
        return ForwardMessage(
            wire.integer(d["seat"], "forward.seat", 0, max_seat),
            wire.integer(d["to"], "forward.to", 0, max_seat),
            _shares(d["shares"], "forward.shares", max_seat),
        )
    if kind == COIN_COMMIT:
        d = wire.fields(data, kind, {"kind", "seat", "coin", "commit"})
        return CoinCommitMessage(
            wire.integer(d["seat"], "coin.seat", 0, max_seat),
            wire.short_text(d["coin"], "coin.coin"),
            wire.raw_bytes(d["commit"], "coin.commit", COMMIT_BYTES),
        )
    if kind == COIN_REVEAL:
        d = wire.fields(data, kind, {"kind", "seat", "coin", "nonce", "value"})
        return CoinRevealMessage(
            wire.integer(d["seat"], "coin.seat", 0, max_seat),
            wire.short_text(d["coin"], "coin.coin"),
            wire.raw_bytes(d["nonce"], "coin.nonce", NONCE_BYTES),
            wire.raw_bytes(d["value"], "coin.value", VALUE_BYTES),
        )
    raise ParseError(None, f"unknown message kind {kind!r}")
