"""The commit–reveal joint coin: seat order, first player, The Lie's layout.

Each seat commits to H(table ‖ coin ‖ seat ‖ nonce ‖ value), then, once every commitment is in,
reveals (nonce, value). The seed is H(table ‖ coin ‖ value_0 ‖ … ‖ value_{N−1}) in seat order, so
one honest seat makes it uniform and nobody can choose it after seeing the others' values.
Transcripts: protocol.md §6.6.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from .group import RandomBytes, text, transcript, u64

NONCE_BYTES = 32
VALUE_BYTES = 32
COMMIT_BYTES = 64


def commitment(table_id: bytes, coin_id: str, seat: int, nonce: bytes, value: bytes) -> bytes:
    return transcript(b"coin/commit", table_id, text(coin_id), u64(seat), nonce, value)


def coin_seed(table_id: bytes, coin_id: str, values: list[bytes]) -> bytes:
    """The joint seed from every seat's value, in seat order."""
    return transcript(b"coin/seed", table_id, text(coin_id), *values)


@dataclass(frozen=True)
class CoinSecret:
    """One seat's (nonce, value) for one coin; never printed."""

    nonce: bytes = field(repr=False)
    value: bytes = field(repr=False)

    @classmethod
    def draw(cls, random_bytes: RandomBytes = secrets.token_bytes) -> CoinSecret:
        return cls(random_bytes(NONCE_BYTES), random_bytes(VALUE_BYTES))


class SeedStream:
    """Deterministic integers from a seed (SHA-512 in counter mode), e.g. a seat order."""

    def __init__(self, seed: bytes, label: str = "stream"):
        self._seed = seed
        self._label = text(label)
        self._counter = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = transcript(b"coin/stream", self._seed, self._label, u64(self._counter))
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, bound: int) -> int:
        """Uniform in [0, bound) by rejection sampling."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            value = int.from_bytes(self._bytes(8), "big")
            if value < limit:
                return value % bound

    def permutation(self, n: int) -> list[int]:
        """A uniform permutation of range(n) (Fisher–Yates)."""
        perm = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        return perm
