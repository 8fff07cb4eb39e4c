"""Pinned bytes: with pinned randomness every proof is the same to the byte as before its
arithmetic was rearranged (known logarithms, equal bases merged). The digests were taken from
the code of protocol version 2 before any of that; a change here is a protocol change.
Protocol version 4 sends a shuffle proof's commitments t instead of its challenge e: written
back in the version 3 form (e recomputed from the t's), the proofs are still those bytes.

The shuffles cover the public starting deck (every A = G, where the prover and the verifier
merge terms) and a deck already shuffled once (no such shortcut applies).
"""

from __future__ import annotations

import hashlib

from fairdeal.p2p.deck.cards import card_point
from fairdeal.p2p.deck.group import scalar_bytes
from fairdeal.p2p.deck.keys import SecretKey, joint_key
from fairdeal.p2p.deck.masking import initial_deck
from fairdeal.p2p.deck.shares import make_share
from fairdeal.p2p.deck.shuffle import ShuffleProof, ShuffleStatement, shuffle_and_prove, verify

from .conftest import TABLE_ID, seeded

CARDS = 12


def digest(data: object) -> str:
    return hashlib.sha256(repr(data).encode()).hexdigest()


def pinned_game():
    keys = [SecretKey.generate(seat, seeded(500 + seat)) for seat in range(3)]
    joint = joint_key([k.public for k in keys])
    start = tuple(initial_deck([card_point("larry", c) for c in range(CARDS)], joint))
    first = shuffle_and_prove(TABLE_ID, "d0", 0, joint, start, seeded(600))
    second = shuffle_and_prove(TABLE_ID, "d0", 1, joint, first.outputs, seeded(601))
    return keys, joint, start, first, second


def as_version_3(statement: ShuffleStatement, proof: ShuffleProof) -> dict[str, object]:
    """The proof as protocol version 3 sent it: e in place of t and t̂."""
    data = proof.to_data()
    e = proof.challenge(statement.seed(proof.commitments))
    order = ("c", "c_hat", "e", "s", "s_hat", "s_tilde")
    return {k: scalar_bytes(e) if k == "e" else data[k] for k in order}


def test_shuffle_proofs_keep_their_bytes() -> None:
    keys, joint, start, first, second = pinned_game()
    first_st = ShuffleStatement(TABLE_ID, "d0", 0, joint, start, first.outputs)
    second_st = ShuffleStatement(TABLE_ID, "d0", 1, joint, first.outputs, second.outputs)
    assert digest([k.public for k in keys]) == KEYS
    assert digest(([c.to_data() for c in first.outputs], as_version_3(first_st, first.proof))) == (
        FIRST
    )
    assert digest(
        ([c.to_data() for c in second.outputs], as_version_3(second_st, second.proof))
    ) == (SECOND)
    assert digest(([c.to_data() for c in first.outputs], first.proof.to_data())) == FIRST_V4
    assert digest(([c.to_data() for c in second.outputs], second.proof.to_data())) == SECOND_V4
    verify(ShuffleStatement(TABLE_ID, "d0", 0, joint, start, first.outputs), first.proof)
    verify(ShuffleStatement(TABLE_ID, "d0", 1, joint, first.outputs, second.outputs), second.proof)


def test_share_proofs_keep_their_bytes() -> None:
    keys, _, _, _, second = pinned_game()
    shares = [make_share(TABLE_ID, k, second.outputs[3], seeded(700 + k.seat)) for k in keys]
    assert digest([s.to_data() for s in shares]) == SHARES
    for key, share in zip(keys, shares, strict=True):
        share.verify(TABLE_ID, key.public, second.outputs[3])


KEYS = "f252e41fa489164b821d85064f9213e35beebbb66986843974630eb8fefa1eb9"
FIRST = "b2f2319f61916d4a635faf80ad25118cae3c69b58c62575378e19319a0cfc069"
SECOND = "41fabe8ae5f11b412f070cae41e498780899cf7699fd1f2975a4419f3c134ef9"
SHARES = "c3e10e08afad13ae5ec5d741c9b5a503bd8b1f4fb58abd4429a81a217ecfdfe2"
FIRST_V4 = "fb7e4fa106c8e84dc7b6c72c43189f1a455c3e8df03e299fb332ead4a9564e69"
SECOND_V4 = "aead08dd0fa7f3227c2f3df89956e8a61cd92b38d9cd14a13a2f83cf83f0147f"
