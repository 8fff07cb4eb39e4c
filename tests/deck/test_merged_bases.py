"""Sums with equal bases merged (`linear_combination`) and the shuffle arithmetic built on it.

On the public starting deck every input A is G, so the prover sums t42 over the inputs and both
sides merge those terms into one base multiplication. The verdict must be the one of the
independent verifier written from protocol.md (tests/deck/test_protocol_spec.py), which sums
every product, for honest proofs and for tampered ones, on a first shuffle and on a later one.
"""

from __future__ import annotations

import random

import pytest

from fairdeal.p2p.deck import ProofError
from fairdeal.p2p.deck.cards import card_point
from fairdeal.p2p.deck.group import IDENTITY, G, L, add, linear_combination, mul, mul_base
from fairdeal.p2p.deck.keys import SecretKey, joint_key
from fairdeal.p2p.deck.masking import MaskedCard, initial_deck
from fairdeal.p2p.deck.messages import ShuffleMessage, parse_message
from fairdeal.p2p.deck.shuffle import ShuffleStatement, shuffle_and_prove, verify

from .conftest import TABLE_ID, seeded
from .test_protocol_spec import check_shuffle

CARDS = 7


def naive(terms: list[tuple[int, bytes]]) -> bytes:
    total = IDENTITY
    for k, p in terms:
        if k % L:
            total = add(total, mul(k, p))
    return total


def test_linear_combination_is_the_sum_of_every_product() -> None:
    rng = random.Random(11)
    points = [G, mul_base(5), mul_base(99), card_point("t", 1)]
    for _ in range(30):
        terms = [(rng.randrange(L), rng.choice(points)) for _ in range(rng.randrange(1, 9))]
        assert linear_combination(terms) == naive(terms)


def test_linear_combination_edge_cases() -> None:
    p = card_point("t", 2)
    assert linear_combination([]) == IDENTITY
    assert linear_combination([(5, p), (L - 5, p)]) == IDENTITY  # cancels: no multiplication
    assert linear_combination([(0, p), (3, G)]) == mul_base(3)
    assert linear_combination([(-1, G), (2, G)]) == G
    assert linear_combination([(7, p), (L - 7, p), (2, G)]) == mul_base(2)


def game(later: bool):
    keys = [SecretKey.generate(seat, seeded(40 + seat)) for seat in range(3)]
    joint = joint_key([k.public for k in keys])
    deck = tuple(initial_deck([card_point("larry", c) for c in range(CARDS)], joint))
    if later:
        deck = shuffle_and_prove(TABLE_ID, "d0", 0, joint, deck, seeded(41)).outputs
    seat = 1 if later else 0
    result = shuffle_and_prove(TABLE_ID, "d0", seat, joint, deck, seeded(42))
    message = ShuffleMessage(seat, "d0", result.outputs, result.proof).to_data()
    return joint, deck, message


def bump(raw: bytes) -> bytes:
    return ((int.from_bytes(raw, "little") + 1) % L).to_bytes(32, "little")


def tampered(message: dict, how: str) -> dict:
    proof = {k: list(v) if isinstance(v, list) else v for k, v in message["proof"].items()}
    deck = [list(pair) for pair in message["deck"]]
    if ":" in how:
        field, index = how.split(":")
        proof[field][int(index)] = bump(proof[field][int(index)])
    elif how.startswith("+G "):  # a point field moved by G: still a valid point
        field, index = how[3:].split("#")
        proof[field][int(index)] = add(proof[field][int(index)], G)
    elif how == "output A":
        deck[2][0] = add(deck[2][0], G)
    elif how == "output B":
        deck[4][1] = add(deck[4][1], G)
    elif how == "swap A":  # two outputs exchange their A only
        deck[0][0], deck[1][0] = deck[1][0], deck[0][0]
    return {**message, "deck": deck, "proof": proof}


HOW = [
    "honest",
    "+G t#0",
    "+G t#3",
    "+G t_hat#2",
    "+G c_hat#1",
    "s:0",
    "s:1",
    "s:2",
    "s:3",
    "s_tilde:0",
    "s_tilde:6",
    "s_hat:3",
]
HOW += ["output A", "output B", "swap A"]


@pytest.mark.parametrize("later", [False, True], ids=["first shuffle", "later shuffle"])
@pytest.mark.parametrize("how", HOW)
def test_verdict_is_the_documents_verdict(later: bool, how: str) -> None:
    joint, deck, honest = game(later)
    message = honest if how == "honest" else tampered(honest, how)
    expected = check_shuffle(message, [c.to_data() for c in deck], joint)
    assert expected == (how == "honest")
    parsed = parse_message(message, message["seat"], 3)
    assert isinstance(parsed, ShuffleMessage)
    statement = ShuffleStatement(TABLE_ID, "d0", message["seat"], joint, deck, parsed.deck)
    if expected:
        verify(statement, parsed.proof)
    else:
        with pytest.raises(ProofError) as info:
            verify(statement, parsed.proof)
        assert info.value.seat == message["seat"]


def test_a_starting_deck_with_one_a_not_g_is_still_proved_and_checked() -> None:
    # A mixed deck: merging applies to some inputs only.
    keys = [SecretKey.generate(seat, seeded(60 + seat)) for seat in range(2)]
    joint = joint_key([k.public for k in keys])
    deck = list(initial_deck([card_point("larry", c) for c in range(CARDS)], joint))
    deck[3] = deck[3].rerandomise(12345, joint)
    assert deck[3].a != G and isinstance(deck[3], MaskedCard)
    result = shuffle_and_prove(TABLE_ID, "d0", 0, joint, tuple(deck), seeded(61))
    message = ShuffleMessage(0, "d0", result.outputs, result.proof).to_data()
    assert check_shuffle(message, [c.to_data() for c in deck], joint)
    verify(ShuffleStatement(TABLE_ID, "d0", 0, joint, tuple(deck), result.outputs), result.proof)
