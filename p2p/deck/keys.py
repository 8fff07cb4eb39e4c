"""Per-game keys: x_i, Y_i = x_i·G with a Schnorr proof of knowledge bound to table and seat.

Binding the proof to (table id, seat) stops rogue-key attacks (a seat publishing Y_j − Y_i to
cancel another seat's key needs to know its log) and replay of another seat's proof.
The joint key is Y = Σ Y_i. Proof transcript: protocol.md §6.2.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
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
    point_sum,
    random_scalar,
    scalar_bytes,
    sub,
    u64,
)


@dataclass(frozen=True)
class SchnorrProof:
    challenge: int
    response: int

    def to_data(self) -> dict[str, Any]:
        return {"c": scalar_bytes(self.challenge), "s": scalar_bytes(self.response)}

    @classmethod
    def from_data(cls, data: object, what: str = "key proof") -> SchnorrProof:
        d = wire.fields(data, what, {"c", "s"})
        return cls(wire.scalar(d["c"], f"{what}.c"), wire.scalar(d["s"], f"{what}.s"))


def _key_challenge(table_id: bytes, seat: int, public: Point, commitment: Point) -> int:
    return hash_to_scalar(b"key", table_id, u64(seat), public, commitment)


@dataclass(frozen=True)
class PublicKeyShare:
    """Y_i with its proof of knowledge; what a seat publishes in a `deck.key` message."""

    seat: int
    public: Point
    proof: SchnorrProof

    def verify(self, table_id: bytes) -> None:
        """Raise `ProofError` blaming `seat` unless the proof verifies for this table and seat."""
        try:
            commitment = sub(mul_base(self.proof.response), mul(self.proof.challenge, self.public))
        except GroupError as exc:
            raise ProofError(self.seat, "key proof: degenerate values") from exc
        if _key_challenge(table_id, self.seat, self.public, commitment) != self.proof.challenge:
            raise ProofError(
                self.seat, "key proof does not verify for this table and seat", self.to_data()
            )

    def to_data(self) -> dict[str, Any]:
        return {"seat": self.seat, "Y": self.public, "proof": self.proof.to_data()}

    @classmethod
    def from_data(cls, data: object, max_seat: int) -> PublicKeyShare:
        d = wire.fields(data, "key", {"seat", "Y", "proof"})
        seat = wire.integer(d["seat"], "key.seat", 0, max_seat)
        try:
            return cls(seat, wire.point(d["Y"], "key.Y"), SchnorrProof.from_data(d["proof"]))
        except DeckFault as fault:
            raise reblame(fault, seat) from fault


@dataclass(frozen=True)
class SecretKey:
    """A seat's per-game secret x_i. Its repr never shows the secret."""

    seat: int
    secret: int = field(repr=False)
    public: Point

    @classmethod
    def generate(cls, seat: int, random_bytes: RandomBytes = secrets.token_bytes) -> SecretKey:
        x = random_scalar(random_bytes)
        return cls(seat, x, mul_base(x))

    def publish(
        self, table_id: bytes, random_bytes: RandomBytes = secrets.token_bytes
    ) -> PublicKeyShare:
        """Y_i and a Schnorr proof: t = w·G, c = H(table, seat, Y_i, t), s = w + c·x_i, with w
        hedged on x_i, the statement and fresh randomness (protocol.md §6.1)."""
        statement = (table_id, u64(self.seat), self.public)
        w = hedged_nonce(b"key", scalar_bytes(self.secret), statement, random_bytes)
        c = _key_challenge(table_id, self.seat, self.public, mul_base(w))
        return PublicKeyShare(self.seat, self.public, SchnorrProof(c, (w + c * self.secret) % L))


def joint_key(publics: list[Point]) -> Point:
    """Y = Σ Y_i."""
    return point_sum(publics)
