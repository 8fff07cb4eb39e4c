"""Verifiable shuffle of masked cards: permute, re-randomise, and prove it in zero knowledge.

The argument is Terelius–Wikström (AFRICACRYPT 2010), exactly as written step by step in
R. Haenni, P. Locher, R. Koenig, E. Dubuis, "Pseudo-Code Algorithms for Verifiable Re-Encryption
Mix-Nets" (FC 2017 Workshops, Voting'17, LNCS 10323), the section of pseudo-code algorithms for
generating and checking the proof: GenPermutationCommitment, GenCommitmentChain,
GenShuffleProof and CheckShuffleProof (`permutation_commitment`, `commitment_chain`, `prove`,
`verify` here). It is transcribed to the additive group Ristretto255 (g^x → x·G, a·b → A + B,
a/b → A − B) with the pairs (A, B) = (r·G, M + r·Y) — the paper's (a, b) = (m·pk^r, g^r) is our
(B, A).

Fiat–Shamir: the challenges u_i hash the whole statement (table id, context, the shuffling seat,
Y, both decks) and the permutation commitment, as Hash((e, ẽ, c), i) in the paper; the final
challenge e hashes the same seed, the commitment chain and the proof commitments t. The proof
carries the t's (the (commitment, response) form): a verifier recomputes e from them and checks
every equation "X = identity", one proof at a time (`verify`) or many at once with one random
linear combination (p2p/deck/batch.py). The exact bytes are in protocol.md §6.4.
The Pedersen generators h_0 = h (the chain's start) and h_1..h_N come from hash-to-group, so
nobody knows a relation between them.

Every nonce of the proof (r, r̂, ω…) comes from a `HedgedRandom` stream keyed by the witness
(π, r̃), the statement and fresh randomness, so a repeated random stream cannot repeat them.

Cost (libsodium has no multi-exponentiation, so every product is one call and every sum one
addition per term): proving takes 6N variable-base and 4N base multiplications and 8N additions;
checking one proof alone 8N variable-base and N base multiplications and 9N additions, plus
validating the 5N + 5 received points once at parse time (a batch costs less: p2p/deck/batch.py).
Sums go through `linear_combination`, which merges equal bases: on a deck's first shuffle
(the public starting deck, every A = G) the prover's t42 is summed over the inputs and is one
base multiplication, and the verifier's e·Ã merges into s4·G, saving N multiplications and N
additions on each side (and N more additions in the prover's re-randomisation,
A' = (1 + r̃)·G). The bytes are the same either way.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from . import wire
from .errors import ProofError
from .group import (
    G,
    GroupError,
    HedgedRandom,
    L,
    Point,
    RandomBytes,
    add,
    generator_sum,
    hash_to_scalar,
    linear_combination,
    mul,
    mul_base,
    pedersen_generator,
    pedersen_generators,
    point_sum,
    random_scalar,
    scalar_bytes,
    statement_digest,
    sub,
    text,
    transcript,
    u64,
)
from .masking import MaskedCard

MAX_CARDS = 1024
T_POINTS = 5
"""t1, t2, t3, t41, t42."""


@dataclass(frozen=True)
class ShuffleStatement:
    """What a shuffle proof proves: `outputs` is a permuted re-randomisation of `inputs`."""

    table_id: bytes
    context: str
    seat: int
    joint: Point
    inputs: tuple[MaskedCard, ...]
    outputs: tuple[MaskedCard, ...]

    def items(self) -> list[bytes]:
        """The statement as transcript items: table, context, seat, Y, N, inputs, outputs."""
        items: list[bytes] = [
            self.table_id,
            text(self.context),
            u64(self.seat),
            self.joint,
            u64(len(self.inputs)),
        ]
        for card in self.inputs:
            items += (card.a, card.b)
        for card in self.outputs:
            items += (card.a, card.b)
        return items

    def seed(self, commitments: tuple[Point, ...]) -> bytes:
        """Hash of the statement and the permutation commitment (protocol.md §6.4)."""
        return transcript(b"shuffle/statement", *self.items(), *commitments)


@dataclass(frozen=True)
class ShuffleProof:
    """(c, ĉ, t, t̂, s1..s4, ŝ, s̃) in the paper's names, t = (t1, t2, t3, t41, t42); N cards."""

    commitments: tuple[Point, ...]
    chain: tuple[Point, ...]
    t: tuple[Point, ...]
    t_hat: tuple[Point, ...]
    s1: int
    s2: int
    s3: int
    s4: int
    s_hat: tuple[int, ...]
    s_tilde: tuple[int, ...]

    def to_data(self) -> dict[str, Any]:
        return {
            "c": list(self.commitments),
            "c_hat": list(self.chain),
            "t": list(self.t),
            "t_hat": list(self.t_hat),
            "s": [scalar_bytes(s) for s in (self.s1, self.s2, self.s3, self.s4)],
            "s_hat": [scalar_bytes(s) for s in self.s_hat],
            "s_tilde": [scalar_bytes(s) for s in self.s_tilde],
        }

    @classmethod
    def from_data(cls, data: object, n: int) -> ShuffleProof:
        d = wire.fields(
            data, "shuffle proof", {"c", "c_hat", "t", "t_hat", "s", "s_hat", "s_tilde"}
        )
        s = wire.scalars(d["s"], "shuffle proof.s", 4)
        return cls(
            tuple(wire.points(d["c"], "shuffle proof.c", n)),
            tuple(wire.points(d["c_hat"], "shuffle proof.c_hat", n)),
            tuple(wire.points(d["t"], "shuffle proof.t", T_POINTS)),
            tuple(wire.points(d["t_hat"], "shuffle proof.t_hat", n)),
            s[0],
            s[1],
            s[2],
            s[3],
            tuple(wire.scalars(d["s_hat"], "shuffle proof.s_hat", n)),
            tuple(wire.scalars(d["s_tilde"], "shuffle proof.s_tilde", n)),
        )

    def challenge(self, seed: bytes) -> int:
        """e, recomputed from the proof's commitments (protocol.md §6.4 step 4)."""
        return hash_to_scalar(b"shuffle/challenge", seed, *self.chain, *self.t, *self.t_hat)


def _challenges(seed: bytes, n: int) -> list[int]:
    """u_1..u_N (u_i = H(seed, i), the paper's Hash((e, ẽ, c), i))."""
    return [hash_to_scalar(b"shuffle/u", seed, u64(i)) for i in range(n)]


def random_permutation(n: int, random_bytes: RandomBytes) -> list[int]:
    """Fisher–Yates with rejection sampling, so every permutation is exactly equally likely."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = _below(i + 1, random_bytes)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def _below(bound: int, random_bytes: RandomBytes) -> int:
    limit = (1 << 32) - ((1 << 32) % bound)
    while True:
        value = int.from_bytes(random_bytes(4), "big")
        if value < limit:
            return value % bound


@dataclass(frozen=True)
class ShuffleResult:
    outputs: tuple[MaskedCard, ...]
    proof: ShuffleProof


def shuffle_and_prove(
    table_id: bytes,
    context: str,
    seat: int,
    joint: Point,
    inputs: tuple[MaskedCard, ...],
    random_bytes: RandomBytes = secrets.token_bytes,
    permutation: list[int] | None = None,
) -> ShuffleResult:
    """Shuffle `inputs` (output i is input permutation[i], re-randomised) and prove it.

    `permutation` is for tests only (a dishonest seat's fixed order); by default it is uniform.
    """
    n = len(inputs)
    if not 0 < n <= MAX_CARDS:
        raise ValueError(f"cannot shuffle {n} cards")
    perm = permutation if permutation is not None else random_permutation(n, random_bytes)
    if sorted(perm) != list(range(n)):
        raise ValueError("not a permutation")
    rnd = [random_scalar(random_bytes) for _ in range(n)]  # r̃_i, by output position
    outputs = tuple(inputs[perm[i]].rerandomise(rnd[i], joint) for i in range(n))
    statement = ShuffleStatement(table_id, context, seat, joint, tuple(inputs), outputs)
    witness = b"".join(u64(j) + scalar_bytes(r) for j, r in zip(perm, rnd, strict=True))
    digest = statement_digest(b"shuffle", *statement.items())
    nonces = HedgedRandom(b"shuffle", witness, digest, random_bytes)
    proof = prove(statement, perm, rnd, nonces)
    return ShuffleResult(outputs, proof)


def permutation_commitment(
    perm: list[int], h: tuple[Point, ...], random_bytes: RandomBytes
) -> tuple[tuple[Point, ...], list[int]]:
    """GenPermutationCommitment: c_{π(i)} = r_{π(i)}·G + h_i; returns (c, r)."""
    n = len(perm)
    r = [0] * n
    commitments: list[Point] = [h[0]] * n
    for i in range(n):
        j = perm[i]
        r[j] = random_scalar(random_bytes)
        commitments[j] = add(mul_base(r[j]), h[i])
    return tuple(commitments), r


def commitment_chain(
    h0: Point, u_perm: list[int], random_bytes: RandomBytes
) -> tuple[tuple[Point, ...], list[int]]:
    """GenCommitmentChain: ĉ_0 = h, ĉ_i = r̂_i·G + ũ_i·ĉ_{i−1}; returns ((ĉ_1..ĉ_N), r̂)."""
    r_hat = [random_scalar(random_bytes) for _ in u_perm]
    chain: list[Point] = []
    previous = h0
    for u_i, r_i in zip(u_perm, r_hat, strict=True):
        previous = add(mul_base(r_i), mul(u_i, previous))
        chain.append(previous)
    return tuple(chain), r_hat


def prove(
    st: ShuffleStatement, perm: list[int], rnd: list[int], random_bytes: RandomBytes
) -> ShuffleProof:
    """GenShuffleProof; outputs[i] = inputs[perm[i]] + (r̃_i·G, r̃_i·Y). `random_bytes` gives
    every nonce: `shuffle_and_prove` passes a `HedgedRandom` bound to witness and statement."""
    n = len(perm)
    h = pedersen_generators(n)
    h0 = pedersen_generator(0)

    commitments, r = permutation_commitment(perm, h, random_bytes)
    seed = st.seed(commitments)
    u = _challenges(seed, n)
    u_perm = [u[perm[i]] for i in range(n)]  # ũ_i = u_{π(i)}
    chain, r_hat = commitment_chain(h0, u_perm, random_bytes)

    v = [1] * n
    for i in range(n - 2, -1, -1):
        v[i] = u_perm[i + 1] * v[i + 1] % L
    r_bar = sum(r) % L
    r_hat_sum = sum(a * b for a, b in zip(r_hat, v, strict=True)) % L
    r_tilde = sum(a * b for a, b in zip(r, u, strict=True)) % L
    r_prime = sum(a * b for a, b in zip(rnd, u_perm, strict=True)) % L

    w1, w2, w3, w4 = (random_scalar(random_bytes) for _ in range(4))
    w_hat = [random_scalar(random_bytes) for _ in range(n)]
    w_tilde = [random_scalar(random_bytes) for _ in range(n)]

    t1 = mul_base(w1)
    t2 = mul_base(w2)
    t3 = add(mul_base(w3), point_sum(mul(w, hi) for w, hi in zip(w_tilde, h, strict=True)))
    outs = st.outputs
    t41 = sub(point_sum(mul(w, o.b) for w, o in zip(w_tilde, outs, strict=True)), mul(w4, st.joint))
    # t42 = Σ w̃_i·A'_i − w4·G with A'_i = A_{π(i)} + r̃_i·G, summed over the inputs: the same
    # point and the same cost, but for the starting deck (every A = G) one base multiplication.
    w_r = sum(w * r_i for w, r_i in zip(w_tilde, rnd, strict=True)) - w4
    inputs_a = [st.inputs[j].a for j in perm]
    t42 = linear_combination([*zip(w_tilde, inputs_a, strict=True), (w_r, G)])
    previous = h0
    t_hat: list[Point] = []
    for i in range(n):
        t_hat.append(add(mul_base(w_hat[i]), mul(w_tilde[i], previous)))
        previous = chain[i]

    t = (t1, t2, t3, t41, t42)
    c = hash_to_scalar(b"shuffle/challenge", seed, *chain, *t, *t_hat)
    return ShuffleProof(
        commitments,
        chain,
        t,
        tuple(t_hat),
        (w1 + c * r_bar) % L,
        (w2 + c * r_hat_sum) % L,
        (w3 + c * r_tilde) % L,
        (w4 + c * r_prime) % L,
        tuple((w_hat[i] + c * r_hat[i]) % L for i in range(n)),
        tuple((w_tilde[i] + c * u_perm[i]) % L for i in range(n)),
    )


def check_sizes(st: ShuffleStatement, proof: ShuffleProof) -> int:
    """N, once every part of the statement and proof has it; raises `ProofError` otherwise."""
    n = len(st.inputs)
    if not (0 < n == len(st.outputs) == len(proof.commitments) == len(proof.chain)):
        raise ProofError(st.seat, "shuffle: input and output decks differ in size")
    if not (n == len(proof.s_hat) == len(proof.s_tilde) == len(proof.t_hat)):
        raise ProofError(st.seat, "shuffle proof: wrong number of responses")
    if len(proof.t) != T_POINTS:
        raise ProofError(st.seat, "shuffle proof: wrong number of commitments t")
    return n


def challenges(st: ShuffleStatement, proof: ShuffleProof) -> tuple[list[int], int]:
    """(u_1..u_N, e): what the verifier hashes from the statement and the proof."""
    seed = st.seed(proof.commitments)
    return _challenges(seed, len(st.inputs)), proof.challenge(seed)


def verify(st: ShuffleStatement, proof: ShuffleProof) -> None:
    """CheckShuffleProof (Haenni et al.) for one proof alone; raises `ProofError` blaming
    `st.seat`. All points in `st` and `proof` must have been parsed (validated) already."""
    n = check_sizes(st, proof)
    try:
        ok = _check(st, proof, n)
    except GroupError as exc:
        evidence = {"context": st.context}
        raise ProofError(st.seat, "shuffle proof: degenerate values", evidence) from exc
    if not ok:
        raise ProofError(st.seat, "shuffle proof does not verify", {"context": st.context})


def _check(st: ShuffleStatement, proof: ShuffleProof, n: int) -> bool:
    """CheckShuffleProof in the (commitment, response) form: the t's that the responses give
    for the recomputed e must be the proof's own."""
    _, e = challenges(st, proof)
    return commitments_for(st, proof, e) == (*proof.t, *proof.t_hat)


def commitments_for(st: ShuffleStatement, proof: ShuffleProof, e: int) -> tuple[Point, ...]:
    """(t1, t2, t3, t41, t42, t̂_1..t̂_N) that make every equation of §6.4 hold for the
    challenge `e` and the proof's responses (the left sides of the equations)."""
    n = len(st.inputs)
    h = pedersen_generators(n)
    h0 = pedersen_generator(0)
    u = _challenges(st.seed(proof.commitments), n)
    neg_c = (-e) % L

    u_product = 1
    for ui in u:
        u_product = u_product * ui % L
    c_bar = sub(point_sum(proof.commitments), generator_sum(n))
    c_hat = sub(proof.chain[-1], mul(u_product, h0))
    # −e·c̃, −e·Ã, −e·B̃ folded into one scalar per term: Σ (−e·u_i)·X_i, each in one linear
    # combination with the other terms of its t (equal bases merged: the starting deck's A = G).
    neg_cu = [neg_c * ui % L for ui in u]
    s_t = proof.s_tilde
    t1 = add(mul_base(proof.s1), mul(neg_c, c_bar))
    t2 = add(mul_base(proof.s2), mul(neg_c, c_hat))
    t3 = linear_combination(
        [
            (proof.s3, G),
            *zip(neg_cu, proof.commitments, strict=True),
            *zip(s_t, h, strict=True),
        ]
    )
    ins, outs = st.inputs, st.outputs
    t41 = linear_combination(
        [
            *zip(neg_cu, (card.b for card in ins), strict=True),
            *zip(s_t, (o.b for o in outs), strict=True),
            (-proof.s4, st.joint),
        ]
    )
    t42 = linear_combination(
        [
            *zip(neg_cu, (card.a for card in ins), strict=True),
            *zip(s_t, (o.a for o in outs), strict=True),
            (-proof.s4, G),
        ]
    )
    t_hat: list[Point] = []
    previous = h0
    for i in range(n):
        term = add(mul(neg_c, proof.chain[i]), mul(s_t[i], previous))
        t_hat.append(add(mul_base(proof.s_hat[i]), term))
        previous = proof.chain[i]
    return (t1, t2, t3, t41, t42, *t_hat)


__all__ = [
    "T_POINTS",
    "ShuffleProof",
    "ShuffleResult",
    "ShuffleStatement",
    "shuffle_and_prove",
    "verify",
]
