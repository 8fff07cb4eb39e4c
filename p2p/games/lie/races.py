"""The Lie's Phase 1 races in numbers: step commitments, step seeds and tie ranks (T3).

Each seat's step envelope commits to its claims of that step with a hash over a fresh nonce and
the claims, and opens it in the next step; a step's seed hashes every opening of the step; ties
(two claims of one slot in one step, two "Done!" placements) are decided by ranks drawn from the
seed. protocol.md 10.11.2-10.11.4 is the specification; p2p/games/lie/lockstep.py applies them.
"""

from __future__ import annotations

import hashlib

from fairdeal.p2p.canonical import pack_canonical

COMMIT_DOMAIN = b"fairdeal/lie/step-commit/v3\x00"
SEED_DOMAIN = b"fairdeal/lie/step-seed/v3\x00"
RANK_DOMAIN = b"fairdeal/lie/rank/v3\x00"
DONE_DOMAIN = b"fairdeal/lie/done/v3\x00"
NONCE_LABEL = b"fairdeal/lie/step-nonce/v3\x00"
NONCE_SIZE = 32
MAX_CLAIMS = 1  # one card at a time (T3): a step commits to no claim or one


def u64(value: int) -> bytes:
    return value.to_bytes(8, "big")


def commitment(
    table: bytes, round_no: int, step: int, seat: int, nonce: bytes, claims: list[int]
) -> bytes:
    """C = SHA-256(COMMIT_DOMAIN ‖ u8(len table) ‖ table ‖ u64 round ‖ u64 step ‖ u64 seat ‖
    nonce ‖ msgpack(claims)) (protocol.md 10.11.2)."""
    return hashlib.sha256(
        COMMIT_DOMAIN
        + bytes([len(table)])
        + table
        + u64(round_no)
        + u64(step)
        + u64(seat)
        + nonce
        + pack_canonical(list(claims))
    ).digest()


def step_seed(table: bytes, round_no: int, step: int, openings: list[bytes]) -> bytes:
    """The seed of a step: SHA-256(SEED_DOMAIN ‖ u8(len table) ‖ table ‖ u64 round ‖ u64 step ‖
    for every seat in seat order: u8(len) ‖ opening bytes), an opening being nonce ‖
    msgpack(claims), empty for step 1 (protocol.md 10.11.4)."""
    data = SEED_DOMAIN + bytes([len(table)]) + table + u64(round_no) + u64(step)
    for opening in openings:
        data += bytes([len(opening)]) + opening
    return hashlib.sha256(data).digest()


def rank(seed: bytes, slot: int, seat: int) -> bytes:
    """A tie's order for claims of `slot`: the smallest SHA-256(RANK_DOMAIN ‖ seed ‖ u64 slot ‖
    u64 seat) wins."""
    return hashlib.sha256(RANK_DOMAIN + seed + u64(slot) + u64(seat)).digest()


def done_rank(seed: bytes, seat: int) -> bytes:
    """The order a step's placements, then its winning claims, apply in ("Done!" ties, T3):
    SHA-256(DONE_DOMAIN ‖ seed ‖ u64 seat), smallest first (bytes compared first to last)."""
    return hashlib.sha256(DONE_DOMAIN + seed + u64(seat)).digest()


def tie_winner(seed: bytes, slot: int, seats: list[int] | tuple[int, ...]) -> int:
    """The seat that wins `slot` among the claimers of one step."""
    return min(seats, key=lambda seat: rank(seed, slot, seat))
