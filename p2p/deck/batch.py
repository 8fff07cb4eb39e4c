"""Check many shuffle proofs at once: one random linear combination of all their equations.

Each check of a shuffle proof (p2p/deck/shuffle.py, protocol.md §6.4) is N + 5 equations
"X = identity" once e is recomputed from the proof's t's. A verifier draws a fresh secret weight
per equation and checks that the weighted sum of all of them, over every proof of a batch, is the
identity (the small-exponent batch test of Bellare, Garay, Rabin, EUROCRYPT 1998: if any
equation fails, the sum is the identity for at most one value of that equation's weight, so with
probability 1/L). In the sum, equal bases merge into one multiplication: G (one base
multiplication for everything), Y, the Pedersen generators h_i of every proof, and each deck that
two consecutive shuffles share (seat k's output is seat k+1's input). What is left per proof is
its own c, ĉ, t and t̂: 3N + 5 multiplications instead of 8N + N base ones for a check alone.

A batch that fails says nothing about who is at fault: the caller then checks each proof alone
in seat order and blames the first that fails (`verify_each`), exactly as without batching.
p2p/deck/chain_check.py puts these pieces together.

`weigh` gives one proof's terms: the sum over its own bases, already multiplied out (the costly
part, which can run as soon as the proof arrives), and the coefficients of the bases it shares,
to be summed once every proof that uses them is in (`deck_sum`, `shared_sum`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .group import (
    IDENTITY,
    G,
    L,
    Point,
    linear_combination,
    pedersen_generator,
    pedersen_generators,
    point_sum,
)
from .masking import MaskedCard
from .shuffle import ShuffleProof, ShuffleStatement, challenges, check_sizes, verify

Weight = Callable[[], int]
Coefficients = tuple[tuple[int, int], ...]
"""Per card of a deck, the coefficients of its A and its B."""


def fresh_weight() -> int:
    """A secret uniform non-zero scalar, drawn anew for every equation of every check."""
    return 1 + secrets.randbelow(L - 1)


@dataclass(frozen=True)
class ProofTerms:
    """One proof's share of a batch (see the module docstring)."""

    seat: int
    own: Point
    inputs: Coefficients
    outputs: Coefficients
    shared: dict[Point, int]


def weigh(st: ShuffleStatement, proof: ShuffleProof, weight: Weight = fresh_weight) -> ProofTerms:
    """Weigh the equations of one proof and multiply out the bases only it has.

    With weights α1, α2, α3, α41, α42 and β_i, the sum of the weighted equations of §6.4 is,
    base by base (ĉ_0 = h_0):
    G: α1·s1 + α2·s2 + α3·s3 − α42·s4 + Σ β_i·ŝ_i;  Y: −α41·s4;
    h_0: α2·e·u + β_1·s̃_1;  h_i: α1·e + α3·s̃_i;  c_j: −e·(α1 + α3·u_j);
    ĉ_i: −β_i·e + β_{i+1}·s̃_{i+1} (ĉ_N: −(α2 + β_N)·e);  t1…t42: −α;  t̂_i: −β_i;
    A_j, B_j: −α42·e·u_j, −α41·e·u_j;  A'_i, B'_i: α42·s̃_i, α41·s̃_i.
    """
    n = check_sizes(st, proof)
    u, e = challenges(st, proof)
    a1, a2, a3, a41, a42 = (weight() for _ in range(5))
    beta = [weight() for _ in range(n)]
    s_t = proof.s_tilde
    u_product = 1
    for ui in u:
        u_product = u_product * ui % L

    chain_coefficients = [(s_t[i + 1] * beta[i + 1] - beta[i] * e) % L for i in range(n - 1)]
    chain_coefficients.append(-(a2 + beta[-1]) * e % L)
    own_coefficients = [
        *((-e * (a1 + a3 * uj)) % L for uj in u),
        *chain_coefficients,
        -a1,
        -a2,
        -a3,
        -a41,
        -a42,
        *(-b for b in beta),
    ]
    own_bases = [*proof.commitments, *proof.chain, *proof.t, *proof.t_hat]
    own = linear_combination(zip(own_coefficients, own_bases, strict=True))
    g = a1 * proof.s1 + a2 * proof.s2 + a3 * proof.s3 - a42 * proof.s4
    g += sum(b * s for b, s in zip(beta, proof.s_hat, strict=True))
    shared_terms = [
        (g, G),
        (-a41 * proof.s4, st.joint),
        (a2 * e * u_product + beta[0] * s_t[0], pedersen_generator(0)),
        *(((a1 * e + a3 * si), hi) for hi, si in zip(pedersen_generators(n), s_t, strict=True)),
    ]
    shared: dict[Point, int] = {}
    for k, point in shared_terms:  # added, not replaced: nothing here relies on bases differing
        shared[point] = (shared.get(point, 0) + k) % L
    inputs = tuple((-a42 * e * uj % L, -a41 * e * uj % L) for uj in u)
    outputs = tuple((a42 * si % L, a41 * si % L) for si in s_t)
    return ProofTerms(st.seat, own, inputs, outputs, shared)


def deck_sum(deck: Sequence[MaskedCard], *uses: Coefficients) -> Point:
    """Σ over the cards of `deck` of its A and B times their coefficients in every proof that
    uses the deck (as input or as output): 2N multiplications however many proofs use it."""
    terms: list[tuple[int, Point]] = []
    for j, card in enumerate(deck):
        terms.append((sum(use[j][0] for use in uses), card.a))
        terms.append((sum(use[j][1] for use in uses), card.b))
    return linear_combination(terms)


def shared_sum(all_terms: Iterable[ProofTerms]) -> Point:
    """Σ over G, Y and the Pedersen generators, their coefficients merged across proofs."""
    return linear_combination(
        (k, point) for terms in all_terms for point, k in terms.shared.items()
    )


def holds(parts: Iterable[Point]) -> bool:
    """Whether the parts of a batch add up to the identity: every equation of it holds (but
    with probability 1/L)."""
    return point_sum(parts) == IDENTITY


def verify_each(pairs: Iterable[tuple[ShuffleStatement, ShuffleProof]]) -> None:
    """Check each proof alone, in order: raises the first failing author's `ProofError`."""
    for statement, proof in pairs:
        verify(statement, proof)


__all__ = [
    "ProofTerms",
    "deck_sum",
    "fresh_weight",
    "holds",
    "shared_sum",
    "verify_each",
    "weigh",
]
