"""Pinned bytes: with pinned randomness every proof is the same to the byte as before its
arithmetic was rearranged (known logarithms, equal bases merged). The digests were taken from
the code of protocol version 2 before any of that; a change here is a protocol change.

The shuffles cover the public starting deck (every A = G, where the prover and the verifier
merge terms) and a deck already shuffled once (no such shortcut applies).
"""

from __future__ import annotations

import hashlib

from fairdeal.p2p.deck.cards import card_point
from fairdeal.p2p.deck.keys import SecretKey, joint_key
from fairdeal.p2p.deck.masking import initial_deck
from fairdeal.p2p.deck.shares import make_share
from fairdeal.p2p.deck.shuffle import ShuffleStatement, shuffle_and_prove, verify

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


def test_shuffle_proofs_keep_their_bytes() -> None:
    keys, joint, start, first, second = pinned_game()
    assert digest([k.public for k in keys]) == KEYS
    assert digest(([c.to_data() for c in first.outputs], first.proof.to_data())) == FIRST
    assert digest(([c.to_data() for c in second.outputs], second.proof.to_data())) == SECOND
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
