"""The Ristretto255 group (RFC 9496) through libsodium (`rbcl`): points, scalars, hashing.

Points are 32-byte canonical Ristretto encodings (`Point`, a `bytes` subtype by convention);
scalars are Python ints modulo the group order `L` (Python arithmetic is faster than a libsodium
call per operation). Ristretto255 has prime order and no cofactor: decoding an encoding *is* the
validity check (canonical, on the group), so `parse_point` validates each received point once,
with one cheap decode, and refuses the identity too. libsodium's decoder masks the top bit of the
last byte before its checks, so every element would have a second encoding (and `00…80` would
decode to the identity); `_canonical_non_negative` therefore checks RFC 9496 §4.3.1's first step
(s < p and s even) itself before libsodium checks the rest. Points this process computes are never
re-validated; the arithmetic only decodes its inputs, which cannot fail for parsed points.

Hashing (see protocol.md §6.1): `transcript(label, *items)` is SHA-512 over length-prefixed byte
strings; `hash_to_scalar` reduces it modulo L; `hash_to_point` feeds all 64 bytes to RFC 9496's
element derivation (`crypto_core_ristretto255_from_hash`), so nobody knows the discrete log of
such a point. `hedged_random` derives proof nonces from the secret, the whole statement and fresh
randomness (protocol.md §6.1), so no seed or table id repeated can make a nonce repeat.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import NewType

import rbcl

from .errors import ParseError

Point = NewType("Point", bytes)
RandomBytes = Callable[[int], bytes]

L = 2**252 + 27742317777372353535851937790883648493
"""The order of the Ristretto255 group (and of the scalar field)."""

POINT_BYTES = 32
SCALAR_BYTES = 32
DOMAIN = b"fairdeal/deck/v2"
NONCE_FRESH_BYTES = 32
"""Fresh bytes from the seat's random stream that go into each hedged nonce derivation."""

IDENTITY: Point = Point(bytes(POINT_BYTES))
"""The identity's Ristretto encoding (all zero); never accepted from outside."""


def scalar_bytes(k: int) -> bytes:
    """Canonical 32-byte little-endian encoding of a scalar."""
    return (k % L).to_bytes(SCALAR_BYTES, "little")


G: Point = Point(rbcl.crypto_scalarmult_ristretto255_base(scalar_bytes(1)))
"""The Ristretto255 generator (the encoding of Ed25519's base point, RFC 9496 §4.4)."""


def parse_scalar(raw: object, what: str = "scalar") -> int:
    """Strictly parse a canonical scalar: exactly 32 bytes, little-endian, less than L."""
    if not isinstance(raw, bytes) or len(raw) != SCALAR_BYTES:
        raise ParseError(None, f"{what}: expected {SCALAR_BYTES} bytes")
    value = int.from_bytes(raw, "little")
    if value >= L:
        raise ParseError(None, f"{what}: non-canonical scalar (not below the group order)")
    return value


FIELD_PRIME = 2**255 - 19
"""p, the prime of Curve25519's field, in which Ristretto's field element s lives."""


def _canonical_non_negative(raw: bytes) -> bool:
    """RFC 9496 §4.3.1's first check: s is a canonical field element (s < p) and non-negative
    (even). The top bit of the last byte must be clear, as s < p < 2^255 implies; libsodium does
    not check that bit, so this check is not redundant."""
    s = int.from_bytes(raw, "little")
    return s < FIELD_PRIME and s % 2 == 0


def is_valid_point(raw: bytes) -> bool:
    """True for canonical Ristretto255 encodings of points other than the identity."""
    return (
        len(raw) == POINT_BYTES
        and raw != IDENTITY
        and _canonical_non_negative(raw)
        and bool(rbcl.crypto_core_ristretto255_is_valid_point(raw))
    )


def parse_point(raw: object, what: str = "point") -> Point:
    """Strictly parse a point received from outside; raises `ParseError` for any bad encoding."""
    if not isinstance(raw, bytes) or len(raw) != POINT_BYTES:
        raise ParseError(None, f"{what}: expected {POINT_BYTES} bytes")
    if raw == IDENTITY:
        raise ParseError(None, f"{what}: the identity is not accepted", {"point": raw})
    if not (_canonical_non_negative(raw) and rbcl.crypto_core_ristretto255_is_valid_point(raw)):
        raise ParseError(
            None,
            f"{what}: not a canonical Ristretto255 encoding (RFC 9496 decoding fails)",
            {"point": raw},
        )
    return Point(raw)


class GroupError(ArithmeticError):
    """libsodium refused an operation (a zero scalar or an identity result)."""


def mul(k: int, p: Point) -> Point:
    """k·P. libsodium refuses k ≡ 0 and an identity result; both are negligible for honest data."""
    try:
        return Point(rbcl.crypto_scalarmult_ristretto255(scalar_bytes(k), p))
    except RuntimeError as exc:
        raise GroupError("scalar multiplication refused (zero scalar or identity)") from exc


def mul_base(k: int) -> Point:
    """k·G (about three times faster than `mul`: libsodium's precomputed base table)."""
    try:
        return Point(rbcl.crypto_scalarmult_ristretto255_base(scalar_bytes(k)))
    except RuntimeError as exc:
        raise GroupError("base multiplication refused (zero scalar)") from exc


def add(p: Point, q: Point) -> Point:
    return Point(rbcl.crypto_core_ristretto255_add(p, q))


def sub(p: Point, q: Point) -> Point:
    return Point(rbcl.crypto_core_ristretto255_sub(p, q))


def point_sum(points: Iterable[Point]) -> Point:
    """Σ points (the identity for an empty sum)."""
    total: Point | None = None
    for p in points:
        total = p if total is None else add(total, p)
    return IDENTITY if total is None else total


def linear_combination(terms: Iterable[tuple[int, Point]]) -> Point:
    """Σ k·P over (k, P) terms, the identity for an empty sum. Terms with the same point are
    merged first, (Σ k)·P, and a coefficient of G costs a base multiplication: a sum over the
    public starting deck, whose every A is G, costs one multiplication instead of one per card.
    Zero coefficients are skipped. The result is the same group element, so the same bytes, as
    summing every product."""
    merged: dict[bytes, int] = {}
    get = merged.get
    for k, p in terms:
        merged[p] = get(p, 0) + k
    total: Point | None = None
    for point, k in merged.items():
        k %= L
        if not k:
            continue
        term = mul_base(k) if point == G else mul(k, Point(point))
        total = term if total is None else add(total, term)
    return IDENTITY if total is None else total


def transcript(label: bytes, *items: bytes) -> bytes:
    """SHA-512( lp(DOMAIN ‖ "/" ‖ label) ‖ lp(item_1) ‖ … ), lp(x) = u32be(len x) ‖ x."""
    parts = [(len(DOMAIN) + 1 + len(label)).to_bytes(4, "big"), DOMAIN, b"/", label]
    for item in items:
        parts += (len(item).to_bytes(4, "big"), item)
    return hashlib.sha512(b"".join(parts)).digest()


def u64(value: int) -> bytes:
    """Unsigned 64-bit big-endian, the encoding of every integer in a transcript."""
    return value.to_bytes(8, "big")


def text(value: str) -> bytes:
    return value.encode("utf-8")


def hash_to_scalar(label: bytes, *items: bytes) -> int:
    return int.from_bytes(transcript(label, *items), "little") % L


def hash_to_point(label: bytes, *items: bytes) -> Point:
    """A point with unknown discrete log: RFC 9496 element derivation of the 64-byte transcript."""
    return Point(rbcl.crypto_core_ristretto255_from_hash(transcript(label, *items)))


# A working source gives a zero scalar with probability 2^-252 a draw: this many in a row mean the
# source is broken (an injected generator gone wrong), which must fail, not hang.
ZERO_DRAWS = 8


def random_scalar(random_bytes: RandomBytes) -> int:
    """A uniform non-zero scalar from 64 random bytes (bias below 2^-250). GroupError when the
    random source gives only zero scalars."""
    for _ in range(ZERO_DRAWS):
        k = int.from_bytes(random_bytes(64), "little") % L
        if k:
            return k
    raise GroupError(f"the random source gave {ZERO_DRAWS} zero scalars in a row: it is broken")


def hedged_nonce(
    label: bytes, secret: bytes, statement: tuple[bytes, ...], random_bytes: RandomBytes
) -> int:
    """One proof nonce: Hs("nonce/" ‖ label; secret, statement…, fresh), never zero. The same
    secret and fresh bytes give different nonces for different statements (protocol.md §6.1)."""
    while True:
        fresh = random_bytes(NONCE_FRESH_BYTES)
        k = hash_to_scalar(b"nonce/" + label, secret, *statement, fresh)
        if k:
            return k


class HedgedRandom:
    """A `RandomBytes` stream for one proof's nonces, keyed by the secret, the statement and fresh
    randomness: key = H("nonce/" ‖ label; secret, statement, fresh), block j = H("nonce/stream";
    key, u64(j)). Two different statements never share nonces, even when the seat's own random
    stream repeats (a reused seed or table id); a broken random stream alone cannot repeat a
    nonce under a new challenge either. The repr never shows the key."""

    def __init__(self, label: bytes, secret: bytes, statement: bytes, random_bytes: RandomBytes):
        fresh = random_bytes(NONCE_FRESH_BYTES)
        self._key = transcript(b"nonce/" + label, secret, statement, fresh)
        self._counter = 0
        self._buffer = b""

    def __repr__(self) -> str:
        return f"HedgedRandom(blocks={self._counter})"

    def __call__(self, size: int) -> bytes:
        while len(self._buffer) < size:
            self._buffer += transcript(b"nonce/stream", self._key, u64(self._counter))
            self._counter += 1
        out, self._buffer = self._buffer[:size], self._buffer[size:]
        return out


def statement_digest(label: bytes, *items: bytes) -> bytes:
    """H("statement/" ‖ label; items): the whole statement of a proof, as one hedging input."""
    return transcript(b"statement/" + label, *items)


@lru_cache(maxsize=4096)
def pedersen_generator(index: int) -> Point:
    """h_index for the shuffle's commitments; index 0 is the chain start h (protocol.md §6.4)."""
    return hash_to_point(b"pedersen", u64(index))


def pedersen_generators(n: int) -> tuple[Point, ...]:
    """(h_1, …, h_n), cached: each generator is one from_hash call, once per process."""
    return _generators(n)


@lru_cache(maxsize=64)
def _generators(n: int) -> tuple[Point, ...]:
    return tuple(pedersen_generator(i) for i in range(1, n + 1))


@lru_cache(maxsize=64)
def generator_sum(n: int) -> Point:
    return point_sum(pedersen_generators(n))
