"""A seat's per-game randomness, reproducible from one stored secret of its own.

Every random draw of a seat's fair-deck session (its key, shuffle permutations and masks, proof
nonces, coin values) comes from a SHAKE-256 stream keyed by the table's *seat seed*. The seat
seed binds three things (protocol.md 10.6): a 32-byte contribution the seat draws itself with
`secrets` for this table and keeps in its secrets file, the digest of the roster every seat
signed, and the seat number. After a crash the peer replays its transcript through a new
session built from the same contribution and roster and arrives at exactly the state it had,
own secrets included, without ever writing a secret share to disk.

A table id is played once per data directory: the host picks the table id, so a host that
reused an old one could otherwise make a guest whose transcript is gone repeat its key, coin
and permutations under new challenges. `check_new_table` refuses a table id that already has
secrets in the file, before the seat signs anything.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

from fairdeal.p2p.errors import P2PError
from fairdeal.p2p.log.transcript import SecretStore

SEED_BYTES = 32
_DOMAIN = b"fairdeal/seat-randomness/v1\x00"
_SEAT_SEED_DOMAIN = b"fairdeal/seat-seed/v1\x00"


class TableReused(P2PError):
    """A table id this data directory has already played (its secrets are in the file)."""


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def table_secret_name(table_id: bytes, what: str) -> str:
    """Where a seat keeps one of its secrets for table `table_id` in its SecretStore."""
    return f"table/{table_id.hex()}/{what}"


def check_new_table(store: SecretStore, table_id: bytes) -> None:
    """Refuse to sit at `table_id` again: its secrets are already in `store`."""
    prefix = table_secret_name(table_id, "")
    if any(name.startswith(prefix) for name in store.names()):
        raise TableReused(
            f"table {table_id.hex()} was already played from this data directory "
            f"({store.path} holds its secrets): refusing to sit at it again, since a reused "
            f"table id would make this seat repeat its secret randomness; to take back a seat "
            f"after a crash, use `fairdeal resume` with its transcript"
        )


def seat_seed(contribution: bytes, roster_digest: bytes, seat: int) -> bytes:
    """The seed of a seat's stream: SHAKE-256(domain ‖ contribution ‖ roster digest ‖
    u64be(seat)), 32 bytes."""
    if len(contribution) != SEED_BYTES:
        raise ValueError(f"a seat's contribution is {SEED_BYTES} bytes")
    material = _SEAT_SEED_DOMAIN + contribution + roster_digest + seat.to_bytes(8, "big")
    return hashlib.shake_256(material).digest(SEED_BYTES)


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
