"""Decryption shares d_j = x_j·A with a Chaum–Pedersen proof that log_G Y_j = log_A d_j.

The proof binds the table, the seat and the whole masked card (A, B), so it cannot be replayed
for another card or another seat; it is publicly verifiable, so a share forwarded privately (a
card given away) can later be published by its receiver. Transcript: protocol.md §6.5.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from . import wire
from .errors import DeckFault, ProofError, reblame
from .group import (
    GroupError,
    L,
    Point,
    RandomBytes,
    hash_to_scalar,
    hedged_nonce,
    mul,
    mul_base,
    scalar_bytes,
    sub,
    u64,
)
from .keys import SecretKey
from .masking import MaskedCard


def _share_challenge(
    table_id: bytes, seat: int, public: Point, card: MaskedCard, share: Point, t1: Point, t2: Point
) -> int:
    return hash_to_scalar(b"share", table_id, u64(seat), public, card.a, card.b, share, t1, t2)


@dataclass(frozen=True)
class DecryptionShare:
    """Seat `seat`'s share d = x·A of one masked card, with its proof (challenge, response)."""

    seat: int
    share: Point
    challenge: int
    response: int

    def verify(self, table_id: bytes, public: Point, card: MaskedCard) -> None:
        """Raise `ProofError` blaming `seat` unless the proof holds for this key and card."""
        c, s = self.challenge, self.response
        try:
            t1 = sub(mul_base(s), mul(c, public))
            t2 = sub(mul(s, card.a), mul(c, self.share))
        except GroupError as exc:
            raise ProofError(self.seat, "decryption share: degenerate values") from exc
        if _share_challenge(table_id, self.seat, public, card, self.share, t1, t2) != c:
            raise ProofError(
                self.seat,
                "decryption share proof does not verify for this card",
                {"share": self.to_data(), "card": card.to_data()},
            )

    def to_data(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "d": self.share,
            "c": scalar_bytes(self.challenge),
            "s": scalar_bytes(self.response),
        }

    @classmethod
    def from_data(cls, data: object, max_seat: int) -> DecryptionShare:
        d = wire.fields(data, "share", {"seat", "d", "c", "s"})
        seat = wire.integer(d["seat"], "share.seat", 0, max_seat)
        try:
            return cls(
                seat,
                wire.point(d["d"], "share.d"),
                wire.scalar(d["c"], "share.c"),
                wire.scalar(d["s"], "share.s"),
            )
        except DeckFault as fault:
            raise reblame(fault, seat) from fault


def make_share(
    table_id: bytes,
    key: SecretKey,
    card: MaskedCard,
    random_bytes: RandomBytes = secrets.token_bytes,
) -> DecryptionShare:
    """d = x·A; t1 = w·G, t2 = w·A; c = H(table, seat, Y, A, B, d, t1, t2); s = w + c·x, with w
    hedged on x, the whole statement and fresh randomness (protocol.md §6.1)."""
    share = mul(key.secret, card.a)
    statement = (table_id, u64(key.seat), key.public, card.a, card.b, share)
    w = hedged_nonce(b"share", scalar_bytes(key.secret), statement, random_bytes)
    t1, t2 = mul_base(w), mul(w, card.a)
    c = _share_challenge(table_id, key.seat, key.public, card, share, t1, t2)
    return DecryptionShare(key.seat, share, c, (w + c * key.secret) % L)
