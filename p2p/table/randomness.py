"""A seat's per-game randomness, reproducible from one stored secret seed.

Every random draw of a seat's fair-deck session (its key, shuffle permutations and masks, proof
nonces, coin values) comes from a SHAKE-256 stream keyed by a 32-byte seed drawn with `secrets`
and kept in the peer's secrets file. After a crash the peer replays its transcript through a new
session built from the same seed and arrives at exactly the state it had, own secrets included,
without ever writing a secret share to disk.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

SEED_BYTES = 32
_DOMAIN = b"fairdeal/seat-randomness/v1\x00"


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


class SeededRandom:
    """`random_bytes(n)` for a DeckSession: block i is SHAKE-256(domain ‖ seed ‖ i)."""

    def __init__(self, seed: bytes) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a seat seed is {SEED_BYTES} bytes")
        self._seed = seed
        self._counter = 0

    def __repr__(self) -> str:
        return f"SeededRandom(draws={self._counter})"  # never the seed

    def __call__(self, size: int) -> bytes:
        block = hashlib.shake_256(_DOMAIN + self._seed + self._counter.to_bytes(8, "big")).digest(
            size
        )
        self._counter += 1
        return block


RandomBytes = Callable[[int], bytes]
