"""Shuffle proofs checked in one batch (p2p/deck/batch.py, protocol.md §6.4): honest chains pass
without any single check; every tampered field fails alone and in a batch; a failed batch
blames the first bad author in seat order; the weights are what makes it sound."""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any

import pytest

from fairdeal.p2p.deck import LoopbackTable, ProofError
from fairdeal.p2p.deck import batch as batch_module
from fairdeal.p2p.deck.cards import card_point
from fairdeal.p2p.deck.chain_check import verify_batch
from fairdeal.p2p.deck.group import G, L, Point, add
from fairdeal.p2p.deck.keys import SecretKey, joint_key
from fairdeal.p2p.deck.masking import initial_deck
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.deck.shuffle import (
    ShuffleProof,
    ShuffleStatement,
    challenges,
    commitments_for,
    shuffle_and_prove,
    verify,
)

from .conftest import TABLE_ID, VERIFIER, keyed_table, seeded

CARDS = 7
Pairs = list[tuple[ShuffleStatement, ShuffleProof]]


def chain(seats: int = 4, list_id: str = "d0", seed: int = 900) -> Pairs:
    """Every seat's shuffle of one list, in seat order, with its statement."""
    keys = [SecretKey.generate(seat, seeded(seed + seat)) for seat in range(seats)]
    joint = joint_key([k.public for k in keys])
    deck = tuple(initial_deck([card_point("larry", c) for c in range(CARDS)], joint))
    pairs: Pairs = []
    for seat in range(seats):
        result = shuffle_and_prove(TABLE_ID, list_id, seat, joint, deck, seeded(seed + 50 + seat))
        pairs.append(
            (ShuffleStatement(TABLE_ID, list_id, seat, joint, deck, result.outputs), result.proof)
        )
        deck = result.outputs
    return pairs


@pytest.fixture(scope="module")
def honest() -> Pairs:
    return chain()


@pytest.fixture
def no_single_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(pairs: Any) -> None:
        raise AssertionError("an honest batch needs no single check")

    monkeypatch.setattr(batch_module, "verify_each", refuse)


def moved(points: tuple[Point, ...], index: int, by: Point = G) -> tuple[Point, ...]:
    return tuple(add(p, by) if i == index else p for i, p in enumerate(points))


def with_wrong_challenge(st: ShuffleStatement, proof: ShuffleProof) -> ShuffleProof:
    """The t's that every equation accepts for a challenge other than the hash of them."""
    _, e = challenges(st, proof)
    ts = commitments_for(st, proof, (e + 1) % L)
    return dataclasses.replace(proof, t=ts[:5], t_hat=ts[5:])


TAMPER = {
    **{f"t{i}": (lambda st, p, i=i: dataclasses.replace(p, t=moved(p.t, i))) for i in range(5)},
    "t_hat 0": lambda st, p: dataclasses.replace(p, t_hat=moved(p.t_hat, 0)),
    "t_hat last": lambda st, p: dataclasses.replace(p, t_hat=moved(p.t_hat, CARDS - 1)),
    "t for a wrong e": with_wrong_challenge,
    "s4": lambda st, p: dataclasses.replace(p, s4=(p.s4 + 1) % L),
    "s_tilde": lambda st, p: dataclasses.replace(p, s_tilde=(p.s_tilde[0] + 1, *p.s_tilde[1:])),
    "c_hat": lambda st, p: dataclasses.replace(p, chain=moved(p.chain, 2)),
}


def test_an_honest_chain_passes_one_batch_without_any_single_check(
    honest: Pairs, no_single_checks: None
) -> None:
    verify_batch(honest)
    verify_batch(honest[1:])  # a seat that does not check its own shuffle
    verify_batch([*honest, *chain(3, "d1", seed=950)])  # two lists at once


def test_the_wrong_e_tamper_is_consistent_with_its_own_challenge(honest: Pairs) -> None:
    """The attack is real: its t's satisfy every equation, for a challenge that is not theirs."""
    st, proof = honest[1]
    forged = with_wrong_challenge(st, proof)
    _, e = challenges(st, proof)
    assert commitments_for(st, forged, (e + 1) % L) == (*forged.t, *forged.t_hat)


@pytest.mark.parametrize("how", sorted(TAMPER))
def test_every_tampered_field_is_refused_alone_and_in_a_batch(honest: Pairs, how: str) -> None:
    pairs = list(honest)
    st, proof = pairs[2]
    pairs[2] = (st, TAMPER[how](st, proof))
    with pytest.raises(ProofError) as alone:
        verify(*pairs[2])
    assert alone.value.seat == 2
    with pytest.raises(ProofError) as batched:
        verify_batch(pairs)
    assert batched.value.seat == 2


def test_with_two_bad_proofs_the_batch_blames_the_first(honest: Pairs) -> None:
    pairs = list(honest)
    for k in (3, 1):
        st, proof = pairs[k]
        pairs[k] = (st, TAMPER["t0"](st, proof))
    with pytest.raises(ProofError) as info:
        verify_batch(pairs)
    assert info.value.seat == 1


def cancelling(pairs: Pairs) -> Pairs:
    """Two proofs whose s1 are off by +1 and −1, their t's (so e) untouched: with equal weights
    their errors, +G and −G, cancel out in the sum."""
    out = list(pairs)
    (st1, p1), (st2, p2) = out[1], out[2]
    out[1] = (st1, dataclasses.replace(p1, s1=(p1.s1 + 1) % L))
    out[2] = (st2, dataclasses.replace(p2, s1=(p2.s1 - 1) % L))
    return out


def test_secret_weights_catch_errors_that_cancel_without_them(honest: Pairs) -> None:
    bad = cancelling(honest)
    with pytest.raises(ProofError):
        verify(*bad[1])
    # With every weight 1 (what an attacker could plan around) the batch is fooled ...
    verify_batch(bad, weight=lambda: 1)
    # ... with fresh secret weights it is not, and the first bad author is blamed.
    with pytest.raises(ProofError) as info:
        verify_batch(bad)
    assert info.value.seat == 1


def test_each_check_draws_fresh_secret_weights(
    honest: Pairs, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    original = secrets.randbelow

    def recorded(bound: int) -> int:
        drawn.append(original(bound))
        return drawn[-1]

    monkeypatch.setattr(secrets, "randbelow", recorded)
    verify_batch(honest[:1])
    verify_batch(honest[:1])
    assert len(drawn) == 2 * (CARDS + 5)  # one per equation of each check
    assert len(set(drawn)) == len(drawn)  # none repeats, within or across checks


def tamper_seats(seats: set[int]) -> Any:
    def tamper(seat: int, message: dict[str, Any]) -> dict[str, Any]:
        if seat not in seats or message.get("kind") != "deck.shuffle":
            return message
        proof = dict(message["proof"])
        proof["t"] = [proof["t"][0], proof["t_hat"][0], *proof["t"][2:]]  # a valid point, wrong
        return {**message, "proof": proof}

    return tamper


@pytest.mark.parametrize("parallel", [False, True], ids=["at once", "on a worker"])
@pytest.mark.parametrize(("bad", "blamed"), [({2}, 2), ({1, 3}, 1), ({0, 3}, 0)])
def test_a_chain_with_bad_shuffles_blames_the_first_bad_author(
    parallel: bool, bad: set[int], blamed: int
) -> None:
    table = keyed_table(4, seed=11, parallel=VERIFIER if parallel else None)
    outputs = [s.new_deck("d0", "larry", range(CARDS)) for s in table.sessions]
    run = LoopbackTable(table.sessions, tamper=tamper_seats(bad))
    run.post(0, [Output([outputs[0].messages[0]])])
    with pytest.raises(ProofError) as info:
        run.run()
    assert info.value.seat == blamed
    assert not any(s.list_ready("d0") for s in table.sessions)
