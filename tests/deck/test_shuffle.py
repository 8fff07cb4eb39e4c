"""The Terelius–Wikström shuffle argument: honest proofs verify, attacks (a)–(e), (i) fail,
with every seat verifying in sequence, or on a worker while the chain goes on (in parallel).

Every tampered shuffle is fed to the table, which must raise a fault naming the shuffler before
the list is ready: a parse error at once, keeping the state (the honest message is accepted
afterwards); a proof that does not hold at the list's last shuffle, when the chain's batched
check is awaited (p2p/deck/chain_check.py), with or without a worker.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable

import pytest

from fairdeal.p2p.deck import DeckFault, DeckSession, LoopbackTable, ParseError, ProofError, Slot
from fairdeal.p2p.deck.cards import card_point
from fairdeal.p2p.deck.group import G, add, mul, mul_base
from fairdeal.p2p.deck.masking import MaskedCard
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.deck.shuffle import ShuffleStatement, prove, shuffle_and_prove, verify

from .conftest import TABLE_ID, VERIFIER, keyed_table, seeded

CARDS = 8


@pytest.fixture(scope="module", params=["sequential", "parallel"])
def pending(request: pytest.FixtureRequest):
    """Three keyed seats; seat 0 has just produced its shuffle of list d0 (not yet delivered).
    The other seats verify it as they take it, or on a worker while the chain goes on
    (`parallel`)."""
    table = keyed_table(3, seed=7, parallel=VERIFIER if request.param == "parallel" else None)
    outputs = [s.new_deck("d0", "larry", range(CARDS)) for s in table.sessions]
    message = outputs[0].messages[0]
    return table, message


def deliver(sessions: list[DeckSession], sender: int, message: dict) -> None:
    """Publish `message` to `sessions` (every seat, in seat order) and then every shuffle it
    leads to, in log order; the first fault any seat raises propagates."""
    table = LoopbackTable(sessions)
    table.post(sender, [Output([message])])
    table.run()


def assert_blames_shuffler(pending, tampered: dict, error: type[DeckFault] = DeckFault) -> None:
    table, honest = pending
    seats = [copy.deepcopy(s) for s in table.sessions]
    with pytest.raises(error) as info:
        deliver(seats, 0, tampered)
    assert info.value.seat == 0
    assert not any(s.list_ready("d0") for s in seats)
    verifier = copy.deepcopy(table.sessions[1])
    try:
        verifier.handle(0, tampered)
    except DeckFault:
        # Raised at once (always in sequence): the state is unchanged, so a fresh copy of the
        # session still expects seat 0 and accepts the honest message.
        out = verifier.handle(0, honest)
        assert [type(e).__name__ for e in out.events] == ["ShuffleApplied"]
    else:
        # Taken for now: the list's last shuffle checks the chain and raises (above).
        assert not verifier.list_ready("d0")


def statement_of(table, message: dict) -> ShuffleStatement:
    session = table.sessions[1]
    inputs = tuple(session.masked_card(Slot("d0", i)) for i in range(CARDS))
    outputs = tuple(MaskedCard(a, b) for a, b in message["deck"])
    return ShuffleStatement(TABLE_ID, "d0", 0, session.joint_key, inputs, outputs)


def test_honest_shuffle_verifies_everywhere() -> None:
    table = keyed_table(3, seed=8)
    table.command(lambda s: s.new_deck("d0", "larry", range(CARDS)))
    assert all(s.list_ready("d0") for s in table.sessions)
    decks = {tuple(s.masked_card(Slot("d0", i)) for i in range(CARDS)) for s in table.sessions}
    assert len(decks) == 1


def test_pure_verify_accepts_honest_and_rejects_other_context() -> None:
    key = mul_base(4242)
    inputs = tuple(
        MaskedCard(G, add(card_point("t", c), key)).rerandomise(c + 1, key) for c in range(5)
    )
    result = shuffle_and_prove(TABLE_ID, "ctx", 2, key, inputs, seeded(3))
    statement = ShuffleStatement(TABLE_ID, "ctx", 2, key, inputs, result.outputs)
    verify(statement, result.proof)
    for other in (
        ShuffleStatement(TABLE_ID, "ctx2", 2, key, inputs, result.outputs),
        ShuffleStatement(TABLE_ID, "ctx", 1, key, inputs, result.outputs),
        ShuffleStatement(b"other", "ctx", 2, key, inputs, result.outputs),
        ShuffleStatement(TABLE_ID, "ctx", 2, mul_base(7), inputs, result.outputs),
    ):
        with pytest.raises(ProofError):
            verify(other, result.proof)


def _reproved(pending, mutate: Callable[[list[MaskedCard]], None], perm: list[int]) -> dict:
    """A cheating shuffler: changes the outputs, then runs the honest prover on them."""
    table, honest = pending
    statement = statement_of(table, honest)
    outputs = list(statement.outputs)
    mutate(outputs)
    cheat = dataclasses.replace(statement, outputs=tuple(outputs))
    proof = prove(cheat, perm, [1] * CARDS, seeded(5))
    return {**honest, "deck": [c.to_data() for c in outputs], "proof": proof.to_data()}


def test_a_duplicate_card_is_rejected(pending) -> None:
    table, honest = pending
    joint = table.sessions[1].joint_key
    deck = [list(pair) for pair in honest["deck"]]
    dup = MaskedCard(*deck[1]).rerandomise(12345, joint)
    stale = {**honest, "deck": [*deck[:3], dup.to_data(), *deck[4:]]}
    assert_blames_shuffler(pending, stale, ProofError)

    def duplicate(outputs: list[MaskedCard]) -> None:
        outputs[3] = outputs[1].rerandomise(12345, joint)

    # Even the prover's own algorithm run with the "permutation" that maps two slots to one card.
    assert_blames_shuffler(
        pending, _reproved(pending, duplicate, [0, 1, 2, 1, 4, 5, 6, 7]), ProofError
    )


def test_b_fresh_encryption_of_a_card_point_is_rejected(pending) -> None:
    table, _ = pending
    joint = table.sessions[1].joint_key

    def replace(outputs: list[MaskedCard]) -> None:
        outputs[5] = MaskedCard(mul_base(777), add(card_point("larry", 0), mul(777, joint)))

    assert_blames_shuffler(pending, _reproved(pending, replace, list(range(CARDS))), ProofError)


def test_c_card_dropped_or_added_is_rejected(pending) -> None:
    _, honest = pending
    proof = honest["proof"]
    per_card = ("c", "c_hat", "t_hat", "s_hat", "s_tilde")
    shorter = {k: v[:-1] for k, v in proof.items() if k in per_card}
    dropped = {**honest, "deck": honest["deck"][:-1], "proof": {**proof, **shorter}}
    assert_blames_shuffler(pending, dropped, ProofError)
    longer = {k: [*v, v[0]] for k, v in proof.items() if k in per_card}
    added = {**honest, "deck": [*honest["deck"], honest["deck"][0]], "proof": {**proof, **longer}}
    assert_blames_shuffler(pending, added, ProofError)


def test_d_valid_proof_replayed_for_another_list_is_rejected(pending) -> None:
    table, honest = pending
    # List d1 starts from the very same public deck, so only the statement's context differs.
    seats = [copy.deepcopy(s) for s in table.sessions]
    for seat in seats:
        seat.new_deck("d1", "larry", range(CARDS))  # seat 0's own shuffle of d1 is not sent
    with pytest.raises(ProofError) as info:
        deliver(seats, 0, {**honest, "list": "d1"})
    assert info.value.seat == 0
    assert not any(s.list_ready("d1") for s in seats)


def test_d_proof_replayed_by_another_seat_is_rejected(pending) -> None:
    table, honest = pending
    # After seat 0's shuffle, seat 1 "shuffles" by copying seat 0's output and proof.
    seats = [copy.deepcopy(s) for s in table.sessions]
    for seat in seats:
        seat.handle(0, honest)  # seat 1's own shuffle of it is not sent
    with pytest.raises(ProofError) as info:
        deliver(seats, 1, {**honest, "seat": 1})
    assert info.value.seat == 1


@pytest.mark.parametrize(
    ("field", "index"),
    [
        ("s", 0),
        ("s", 3),
        ("s_hat", 2),
        ("s_tilde", 6),
        ("c", 1),
        ("c_hat", 4),
        ("t", 0),
        ("t", 4),
        ("t_hat", 3),
    ],
)
def test_e_flipped_proof_bytes_are_rejected(pending, field: str, index: int | None) -> None:
    _, honest = pending
    proof = copy.deepcopy(honest["proof"])
    raw = proof[field] if index is None else proof[field][index]
    flipped = bytes([raw[0] ^ 0x02]) + raw[1:]
    if index is None:
        proof[field] = flipped
    else:
        proof[field][index] = flipped
    # A flipped point may no longer be a valid point: a ParseError, also blamed on seat 0.
    assert_blames_shuffler(pending, {**honest, "proof": proof})


def test_e_flipped_deck_bytes_are_rejected(pending) -> None:
    _, honest = pending
    deck = [list(pair) for pair in honest["deck"]]
    deck[2][1] = bytes([deck[2][1][0] ^ 0x04]) + deck[2][1][1:]
    assert_blames_shuffler(pending, {**honest, "deck": deck})


@pytest.mark.parametrize(
    "raw",
    [
        "f3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # non-canonical
        "c34c4e1826e5d403b78e246e88aa051c36ccf0aafebffe137d148a2bf9104562",  # negative s
        "26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371",  # non-square x^2
        "0000000000000000000000000000000000000000000000000000000000000000",  # the identity
    ],
)
def test_i_invalid_ristretto_point_in_the_deck_is_a_parse_error(pending, raw: str) -> None:
    _, honest = pending
    deck = [list(pair) for pair in honest["deck"]]
    deck[0][0] = bytes.fromhex(raw)
    assert_blames_shuffler(pending, {**honest, "deck": deck}, ParseError)


def test_shuffle_out_of_turn_is_a_fault(pending) -> None:
    _, honest = pending
    probe = copy.deepcopy(pending[0].sessions[1])
    with pytest.raises(DeckFault) as info:
        probe.handle(2, {**honest, "seat": 2})
    assert info.value.seat == 2
    assert "out of turn" in info.value.what
