"""One honest shuffler makes the order uniform even when every other seat uses a fixed order.

Three seats shuffle a 4-card deck 240 times; seats 0 and 2 always apply the same permutation,
seat 1 shuffles honestly. A chi-square test over the 4×4 (card, final position) table, with a
pinned seed, must not reject uniformity; the same test run without the honest seat must.
"""

from __future__ import annotations

from fairdeal.p2p.deck.cards import card_point
from fairdeal.p2p.deck.group import G, add, mul, sub
from fairdeal.p2p.deck.keys import SecretKey, joint_key
from fairdeal.p2p.deck.masking import MaskedCard
from fairdeal.p2p.deck.shuffle import ShuffleStatement, shuffle_and_prove, verify

from .conftest import TABLE_ID, seeded

CARDS = 4
TRIALS = 240
FIXED = [2, 0, 3, 1]
# Chi-square, (4−1)·(4−1) = 9 degrees of freedom, p = 0.001.
CRITICAL = 27.88

KEYS = [SecretKey.generate(seat, seeded(50 + seat)) for seat in range(3)]
JOINT = joint_key([k.public for k in KEYS])
SECRET = sum(k.secret for k in KEYS)
POINTS = [card_point("uniformity", c) for c in range(CARDS)]
START = tuple(MaskedCard(G, add(m, JOINT)) for m in POINTS)


def final_order(honest: bool, random_bytes) -> list[int]:
    deck = START
    for seat in range(3):
        perm = None if (honest and seat == 1) else FIXED
        deck = shuffle_and_prove(TABLE_ID, "u", seat, JOINT, deck, random_bytes, perm).outputs
    return [POINTS.index(sub(card.b, mul(SECRET, card.a))) for card in deck]


def chi_square(honest: bool, trials: int = TRIALS) -> float:
    random_bytes = seeded(2024)
    counts = [[0] * CARDS for _ in range(CARDS)]
    for _ in range(trials):
        for position, card in enumerate(final_order(honest, random_bytes)):
            counts[card][position] += 1
    expected = trials / CARDS
    return sum((o - expected) ** 2 / expected for row in counts for o in row)


def test_one_honest_shuffler_makes_positions_uniform() -> None:
    assert chi_square(honest=True) < CRITICAL


def test_without_an_honest_shuffler_the_test_detects_the_fixed_order() -> None:
    assert chi_square(honest=False, trials=40) > 10 * CRITICAL


def test_fixed_order_shuffles_are_still_valid_shuffles() -> None:
    result = shuffle_and_prove(TABLE_ID, "u", 0, JOINT, START, seeded(1), FIXED)
    verify(ShuffleStatement(TABLE_ID, "u", 0, JOINT, START, result.outputs), result.proof)
