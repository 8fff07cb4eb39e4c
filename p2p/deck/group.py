"""The prime-order subgroup of Ed25519 through libsodium (PyNaCl): points, scalars, hashing.

Points are 32-byte canonical encodings (`Point`, a `bytes` subtype by convention); scalars are
Python ints modulo the group order `L` (Python arithmetic is faster than a libsodium call per
operation). Every point received from outside goes through `parse_point`, which rejects
non-canonical encodings, the identity, small-order and mixed-order points (libsodium's
`crypto_core_ed25519_is_valid_point`); points this process computes are not re-validated.

Hashing (see protocol.md §6.1): `transcript(label, *items)` is SHA-512 over length-prefixed
byte strings; `hash_to_scalar` reduces it modulo L; `hash_to_point` feeds its first 32 bytes to
`crypto_core_ed25519_from_uniform` (Elligator 2, cofactor cleared), so nobody knows the discrete
log of such a point.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import NewType

from nacl import bindings as sodium
from nacl.exceptions import RuntimeError as SodiumRuntimeError

from .errors import ParseError

Point = NewType("Point", bytes)
RandomBytes = Callable[[int], bytes]

L = 2**252 + 27742317777372353535851937790883648493
"""The order of the prime-order subgroup (and of the scalar field)."""

POINT_BYTES = 32
SCALAR_BYTES = 32
DOMAIN = b"fairdeal/deck/v1"


def _base_point() -> Point:
    return Point(sodium.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little")))


G: Point = _base_point()
IDENTITY: Point = Point(b"\x01" + bytes(31))


def scalar_bytes(k: int) -> bytes:
    """Canonical 32-byte little-endian encoding of a scalar."""
    return (k % L).to_bytes(SCALAR_BYTES, "little")


def parse_scalar(raw: object, what: str = "scalar") -> int:
    """Strictly parse a canonical scalar: exactly 32 bytes, little-endian, less than L."""
    if not isinstance(raw, bytes) or len(raw) != SCALAR_BYTES:
        raise ParseError(None, f"{what}: expected {SCALAR_BYTES} bytes")
    value = int.from_bytes(raw, "little")
    if value >= L:
        raise ParseError(None, f"{what}: non-canonical scalar (not below the group order)")
    return value


def is_valid_point(raw: bytes) -> bool:
    """True for canonical encodings of non-identity points of the prime-order subgroup."""
    return len(raw) == POINT_BYTES and bool(sodium.crypto_core_ed25519_is_valid_point(raw))


def parse_point(raw: object, what: str = "point") -> Point:
    """Strictly parse a point received from outside; raises `ParseError` for any bad encoding."""
    if not isinstance(raw, bytes) or len(raw) != POINT_BYTES:
        raise ParseError(None, f"{what}: expected {POINT_BYTES} bytes")
    if not sodium.crypto_core_ed25519_is_valid_point(raw):
        raise ParseError(
            None,
            f"{what}: not a point of the prime-order subgroup (non-canonical, identity, "
            "small-order or mixed-order)",
            {"point": raw},
        )
    return Point(raw)


class GroupError(ArithmeticError):
    """libsodium refused an operation (a zero scalar or an identity result)."""


def mul(k: int, p: Point) -> Point:
    """k·P. libsodium refuses k ≡ 0 and an identity result; both are negligible for honest data."""
    try:
        return Point(sodium.crypto_scalarmult_ed25519_noclamp(scalar_bytes(k), p))
    except SodiumRuntimeError as exc:
        raise GroupError("scalar multiplication refused (zero scalar or identity)") from exc


def mul_base(k: int) -> Point:
    """k·G (about four times faster than `mul`)."""
    try:
        return Point(sodium.crypto_scalarmult_ed25519_base_noclamp(scalar_bytes(k)))
    except SodiumRuntimeError as exc:
        raise GroupError("base multiplication refused (zero scalar)") from exc


def add(p: Point, q: Point) -> Point:
    return Point(sodium.crypto_core_ed25519_add(p, q))


def sub(p: Point, q: Point) -> Point:
    return Point(sodium.crypto_core_ed25519_sub(p, q))


def point_sum(points: Iterable[Point]) -> Point:
    """Σ points (the identity for an empty sum)."""
    total: Point | None = None
    for p in points:
        total = p if total is None else add(total, p)
    return IDENTITY if total is None else total


def _lp(item: bytes) -> bytes:
    return len(item).to_bytes(4, "big") + item


def transcript(label: bytes, *items: bytes) -> bytes:
    """SHA-512( lp(DOMAIN ‖ "/" ‖ label) ‖ lp(item_1) ‖ … ), lp(x) = u32be(len x) ‖ x."""
    h = hashlib.sha512(_lp(DOMAIN + b"/" + label))
    for item in items:
        h.update(_lp(item))
    return h.digest()


def u64(value: int) -> bytes:
    """Unsigned 64-bit big-endian, the encoding of every integer in a transcript."""
    return value.to_bytes(8, "big")


def text(value: str) -> bytes:
    return value.encode("utf-8")


def hash_to_scalar(label: bytes, *items: bytes) -> int:
    return int.from_bytes(transcript(label, *items), "little") % L


def hash_to_point(label: bytes, *items: bytes) -> Point:
    """A point with unknown discrete log: from_uniform(first 32 bytes of the transcript)."""
    return Point(sodium.crypto_core_ed25519_from_uniform(transcript(label, *items)[:32]))


def random_scalar(random_bytes: RandomBytes) -> int:
    """A uniform non-zero scalar from 64 random bytes (bias below 2^-250)."""
    while True:
        k = int.from_bytes(random_bytes(64), "little") % L
        if k:
            return k


@lru_cache(maxsize=4096)
def pedersen_generator(index: int) -> Point:
    """h_index for the shuffle's commitments; index 0 is the chain start h (protocol.md §6.4)."""
    return hash_to_point(b"pedersen", u64(index))


def pedersen_generators(n: int) -> tuple[Point, ...]:
    """(h_1, …, h_n), cached: each generator is one from_uniform call, once per process."""
    return _generators(n)


@lru_cache(maxsize=64)
def _generators(n: int) -> tuple[Point, ...]:
    return tuple(pedersen_generator(i) for i in range(1, n + 1))


@lru_cache(maxsize=64)
def generator_sum(n: int) -> Point:
    return point_sum(pedersen_generators(n))
