"""The roster every seat signs before the first game message: who sits where, playing what.

A `Roster` fixes the table id, the game, the options and, per seat, the identity key and display
name. Its canonical bytes (msgpack of a fixed-order array, protocol.md section 5) are what each
seat signs with its long-term Ed25519 key; a `SignedRoster` holds one signature per seat and
verifies all of them, so any peer (or an auditor reading the transcript) can check that every
player agreed to the same table before any card was dealt.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairdeal.p2p.canonical import pack_canonical
from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import PUBLIC_KEY_SIZE, SIGNATURE_SIZE, PublicIdentity, verify_signature
from fairdeal.p2p.net import kinds

ROSTER_DOMAIN = "fairdeal/roster/v1"
ROSTER_KIND = kinds.ROSTER  # kind of the log's first envelope
TABLE_ID_SIZE = 16

OptionValue = bool | int | str


class RosterError(PeerError):
    """A roster signature that does not verify, or a roster that does not match ours."""

    code = "bad-roster"

    def __init__(self, culprit: str, message: str, seat: int | None = None) -> None:
        super().__init__(culprit, message)
        self.seat = seat  # the seat whose signature failed, when one did


def options_digest(options: tuple[tuple[str, OptionValue], ...]) -> bytes:
    """What a seat marking itself ready agrees to: a hash of the sorted options."""
    packed = pack_canonical(["fairdeal/options/v1", [list(item) for item in options]])
    return hashlib.sha256(packed).digest()


def seat_label(seat: int) -> str:
    return f"seat {seat}"


@dataclass(frozen=True)
class Roster:
    """Seat i is played by `seats[i]`; `options` are the game's configurable rules."""

    table_id: bytes
    game: str
    options: tuple[tuple[str, OptionValue], ...]  # sorted by name
    seats: tuple[PublicIdentity, ...]

    def __post_init__(self) -> None:
        if len(self.table_id) != TABLE_ID_SIZE:
            raise ValueError(f"table id must be {TABLE_ID_SIZE} bytes")
        if list(self.options) != sorted(self.options):
            raise ValueError("roster options must be sorted by name")
        keys = [seat.key for seat in self.seats]
        if len(set(keys)) != len(keys) or any(len(key) != PUBLIC_KEY_SIZE for key in keys):
            raise ValueError("roster seats need distinct 32-byte identity keys")

    @classmethod
    def build(
        cls,
        table_id: bytes,
        game: str,
        options: Mapping[str, OptionValue],
        seats: tuple[PublicIdentity, ...],
    ) -> Roster:
        return cls(table_id, game, tuple(sorted(options.items())), seats)

    @property
    def options_dict(self) -> dict[str, OptionValue]:
        return dict(self.options)

    def canonical_bytes(self) -> bytes:
        """The exact bytes each seat signs (and that `digest` hashes)."""
        return pack_canonical(
            [
                ROSTER_DOMAIN,
                self.table_id,
                self.game,
                [[name, value] for name, value in self.options],
                [[seat.key, seat.name] for seat in self.seats],
            ]
        )

    @property
    def digest(self) -> bytes:
        return hashlib.sha256(self.canonical_bytes()).digest()

    @property
    def keys(self) -> tuple[bytes, ...]:
        return tuple(seat.key for seat in self.seats)

    def seat_of(self, key: bytes) -> int | None:
        for seat, identity in enumerate(self.seats):
            if identity.key == key:
                return seat
        return None

    def verify_signature(self, seat: int, signature: bytes) -> None:
        """Raise RosterError blaming `seat` unless `signature` is its signature of this roster."""
        if len(signature) != SIGNATURE_SIZE or not verify_signature(
            self.seats[seat].key, signature, self.canonical_bytes()
        ):
            raise RosterError(seat_label(seat), "roster signature does not verify", seat)


@dataclass(frozen=True)
class SignedRoster:
    """A roster with every seat's signature, in seat order. Construct with `verified`."""

    roster: Roster
    signatures: tuple[bytes, ...]

    @classmethod
    def verified(cls, roster: Roster, signatures: tuple[bytes, ...]) -> SignedRoster:
        if len(signatures) != len(roster.seats):
            raise RosterError("host", "signed roster lacks signatures")
        for seat, signature in enumerate(signatures):
            roster.verify_signature(seat, signature)
        return cls(roster, signatures)

    def to_body(self) -> dict[str, Any]:
        """Body of the log's first envelope (kind "roster", by seat 0): the start, on record."""
        return {"digest": self.roster.digest, "signatures": list(self.signatures)}

    def check_body(self, body: Any, culprit: str) -> None:
        """Raise RosterError blaming `culprit` unless `body` records exactly this signed roster."""
        if body != self.to_body():
            raise RosterError(culprit, "the log's roster envelope is not the roster we signed")
