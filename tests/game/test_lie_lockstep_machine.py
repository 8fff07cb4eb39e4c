"""The Lie's lockstep as a machine on its own (p2p/games/lie/lockstep.py): every transition of its
two tables, the one place that decides when a seat signs, the tie rule (T3: "the earlier claim
wins", protocol.md 10.11.4), and refused inputs that name their culprit and change nothing.

No deck and no log: each seat's `Lockstep` is fed the engine's state and the step envelopes the
seats sign, as `LieTable` (p2p/games/lie/table.py) feeds it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from fairdeal.engine import OracleDriver
from fairdeal.engine.lie import Claim, IllegalAction, LieOptions, LieState, apply
from fairdeal.engine.lie.errors import HandFull
from fairdeal.p2p.canonical import pack_canonical
from fairdeal.p2p.deck import DeckFault
from fairdeal.p2p.games.lie.events import ClaimVoid
from fairdeal.p2p.games.lie.lockstep import (
    CLAIM_TRANSITIONS,
    STEP_TRANSITIONS,
    ClaimInput,
    ClaimState,
    Lockstep,
    Refused,
    StepInput,
    StepOutput,
    StepPhase,
    TakeCard,
    tie_rule,
)
from fairdeal.p2p.games.lie.races import rank, step_seed, tie_winner
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.envelope import Envelope, sign_envelope

TABLE = bytes(16)
LAID_OUT = 5  # log entries when the layout was fixed


class Seats:
    """N seats' machines and the engine state they share; `step` signs one envelope a seat and
    feeds every machine, as every peer applies the log."""

    def __init__(self, seats: int = 2, hand_size: int = 2, seed: int = 4) -> None:
        self.state: LieState = OracleDriver(seats, LieOptions(hand_size=hand_size), seed=seed).state
        self.ids = [
            Identity.generate(f"s{s}", lambda n, s=s: bytes([s + 1]) * n) for s in range(seats)
        ]
        self.machines = [
            Lockstep(TABLE, seats, s, hand_size, bytes([s]) * 32) for s in range(seats)
        ]
        self.auditor = Lockstep(TABLE, seats, seats, hand_size, None)
        for machine in self.all():
            machine.layout_fixed(LAID_OUT)
        self.seq = [0] * seats
        self.applied = LAID_OUT
        self.log: list[Envelope] = []

    def all(self) -> list[Lockstep]:
        return [*self.machines, self.auditor]

    def envelope(self, seat: int, body: dict[str, Any]) -> Envelope:
        signed = sign_envelope(
            self.ids[seat], table=TABLE, seat=seat, seq=self.seq[seat], prev=bytes(32),
            kind="lie.step", body=body,
        )  # fmt: skip
        self.seq[seat] += 1
        return signed

    def apply(self, envelope: Envelope) -> list[StepOutput]:
        """Every machine checks and records `envelope` (signed after the step before ended)."""
        self.applied += 1
        self.log.append(envelope)
        outputs = []
        for machine in self.all():
            checked = machine.check(envelope, self.applied - 1, self.state)
            outputs.append(machine.record(checked, self.state, self.applied))
        assert all(o == outputs[0] for o in outputs), "every peer decides alike"
        return outputs[0]

    def step(self) -> list[StepOutput]:
        """Seat 0 begins a step (it must have a reason), every other seat answers it."""
        first = self.machines[0].pace(self.state, None)
        assert first is not None
        envelope = self.envelope(0, first.body)
        outputs = self.apply(envelope)
        for seat in range(1, len(self.machines)):
            sign = self.machines[seat].pace(self.state, None)
            assert sign is not None and sign.body["answers"] == envelope.id
            outputs = self.apply(self.envelope(seat, sign.body))
        return outputs


def snapshot(machine: Lockstep) -> dict[str, Any]:
    return copy.deepcopy(vars(machine))


# -- the step table ----------------------------------------------------------------------------


def test_a_step_moves_between_and_under_way_by_its_table() -> None:
    seats = Seats(3)
    taken: list[tuple[StepPhase, StepInput]] = [(StepPhase.BETWEEN, StepInput.LAYOUT)]
    seats.machines[0].wish(seats.state.table[0], seats.state)
    machine = seats.auditor
    first = seats.machines[0].pace(seats.state, None)
    assert first is not None
    before = machine.phase
    seats.apply(seats.envelope(0, first.body))
    taken.append((before, StepInput.BEGIN))
    assert machine.phase is StepPhase.UNDER_WAY and machine.position == 1 and machine.step == 1
    for seat, event in ((1, StepInput.ENVELOPE), (2, StepInput.END)):
        sign = seats.machines[seat].pace(seats.state, None)
        assert sign is not None
        seats.apply(seats.envelope(seat, sign.body))
        taken.append((StepPhase.UNDER_WAY, event))
    assert machine.phase is StepPhase.BETWEEN and machine.position == 0 and machine.steps == 1
    assert machine.step_end == seats.applied  # the next step's `prev` must be at or after it
    assert set(taken) == set(STEP_TRANSITIONS)


def test_a_layout_while_a_step_is_under_way_is_refused_and_changes_nothing() -> None:
    seats = Seats()
    seats.machines[0].wish(seats.state.table[0], seats.state)
    first = seats.machines[0].pace(seats.state, None)
    assert first is not None
    seats.apply(seats.envelope(0, first.body))
    before = snapshot(seats.auditor)
    with pytest.raises(Refused, match="layout fixed while a step under way"):
        seats.auditor.layout_fixed(99)
    assert snapshot(seats.auditor) == before


# -- when a seat signs: `pace`, in one place (protocol.md 10.11.5) -----------------------------


def test_a_quiet_seat_signs_nothing_and_answers_a_held_envelope_at_once() -> None:
    seats = Seats()
    quiet = seats.machines[1]
    assert quiet.pace(seats.state, None) is None  # nothing to say, nothing held
    held = bytes(range(32))
    sign = quiet.pace(seats.state, held)
    assert sign is not None and sign.body["answers"] == held and sign.body["step"] == 1
    assert quiet.pace(seats.state, held) is None  # one envelope a step


def test_a_wish_signs_a_commitment_and_the_next_step_opens_it() -> None:
    seats = Seats()
    slot = seats.state.table[0]
    seats.machines[0].wish(slot, seats.state)
    sign = seats.machines[0].pace(seats.state, None)
    assert sign is not None and sign.claims == slot
    assert sign.body["answers"] is None and sign.body["open"] is None  # it begins step 1
    seats.apply(seats.envelope(0, sign.body))
    answer = seats.machines[1].pace(seats.state, None)
    assert answer is not None
    seats.apply(seats.envelope(1, answer.body))
    again = seats.machines[0].pace(seats.state, None)  # the opening is a reason to begin
    assert again is not None and again.body["open"]["claims"] == [slot]


# -- the claim table ---------------------------------------------------------------------------


def test_a_claim_moves_from_wanted_to_taken_at_every_seat() -> None:
    seats = Seats()
    slot = seats.state.table[0]
    mine, theirs = seats.machines[0], seats.machines[1]
    mine.wish(slot, seats.state)
    assert mine.claim_state(0, None) is ClaimState.WANTED and mine.pending_claims() == (slot,)
    seats.step()
    assert mine.claim_state(0, 1) is ClaimState.COMMITTED and mine.committed_step() == 1
    assert theirs.claim_state(0, 1) is ClaimState.IDLE  # a commitment hides its claim
    outputs = seats.step()
    assert outputs == [TakeCard(0, slot)]
    for machine in seats.all():
        assert machine.claim_state(0, 1) is ClaimState.TAKEN
        assert (machine.cards_taken, machine.void_claims, machine.ties) == (1, 0, 0)
    assert mine.committed_step() is None and mine.pending_claims() == ()


def test_an_opened_claim_is_seen_at_every_seat_before_its_step_ends() -> None:
    seats = Seats()
    slot = seats.state.table[0]
    seats.machines[0].wish(slot, seats.state)
    seats.step()
    sign = seats.machines[0].pace(seats.state, None)
    assert sign is not None
    seats.apply(seats.envelope(0, sign.body))
    assert seats.machines[0].claim_state(0, 1) is ClaimState.OPENED  # COMMITTED -> OPENED
    assert seats.auditor.claim_state(0, 1) is ClaimState.OPENED  # IDLE -> OPENED


def test_two_claims_of_one_slot_in_one_step_go_by_the_seed_and_the_loser_is_void() -> None:
    """T3: the earlier claim wins; in one step, the smallest rank under the step's seed
    (protocol.md 10.11.4 step 4); the loser's claim is void, without fault."""
    seats = Seats()
    slot = seats.state.table[0]
    for machine in seats.machines:
        machine.wish(slot, seats.state)
    seats.step()
    outputs = seats.step()
    opened = [e.body["open"] for e in seats.log[-2:]]
    seed = step_seed(TABLE, 1, 2, [o["nonce"] + pack_canonical(o["claims"]) for o in opened])
    winner = min((0, 1), key=lambda seat: rank(seed, slot, seat))
    loser = 1 - winner
    void = ClaimVoid(
        f"seat {loser}'s claim of slot {slot} is void: seat {winner} won the tie (T3)",
        seat=loser,
        slot=slot,
        winner=winner,
    )
    assert outputs == [void, TakeCard(winner, slot)]
    for machine in seats.all():
        assert machine.claim_state(winner, 1) is ClaimState.TAKEN
        assert machine.claim_state(loser, 1) is ClaimState.VOID
        assert (machine.ties, machine.void_claims, machine.cards_taken) == (1, 1, 1)


def test_the_tie_rule_voids_every_claim_of_a_slot_taken_a_step_before() -> None:
    seed = bytes(range(32))
    decided = tie_rule(seed, {2: [7], 0: [7], 1: [9]}, table={7, 9})
    assert decided == [(7, (0, 2), tie_winner(seed, 7, [0, 2])), (9, (1,), 1)]
    assert tie_rule(seed, {0: [7], 1: [7]}, table={9}) == [(7, (0, 1), None)]  # gone: no winner


def test_a_wish_for_a_slot_gone_is_dropped_before_it_could_begin_a_step() -> None:
    seats = Seats()
    slot = seats.state.table[0]
    mine = seats.machines[0]
    mine.wish(slot, seats.state)
    taken = apply(seats.state, 1, Claim(slot)).state  # seat 1 took it meanwhile
    assert mine.pace(taken, None) is None  # WANTED -> IDLE: no reason left
    assert mine.claim_state(0, None) is ClaimState.IDLE and not mine.claims


def test_a_restarted_seat_finds_its_commitment_from_its_signed_envelope() -> None:
    seats = Seats()
    slot = seats.state.table[0]
    seats.machines[0].wish(slot, seats.state)
    sign = seats.machines[0].pace(seats.state, None)
    assert sign is not None
    again = Lockstep(TABLE, 2, 0, 2, bytes([0]) * 32)  # the same nonce key, nothing else
    again.layout_fixed(LAID_OUT)
    again.restore(sign.body, seats.state)
    assert again.claim_state(0, 1) is ClaimState.COMMITTED and again.signed_step == 1
    assert again.pending_claims() == (slot,)


def test_every_claim_transition_is_taken_by_these_tests() -> None:
    """The claim table holds exactly the moves exercised above, and no others."""
    assert set(CLAIM_TRANSITIONS) == {
        (ClaimState.IDLE, ClaimInput.WISH),
        (ClaimState.WANTED, ClaimInput.DROP),
        (ClaimState.WANTED, ClaimInput.SIGN),
        (ClaimState.IDLE, ClaimInput.RESTORE),
        (ClaimState.IDLE, ClaimInput.OPEN),
        (ClaimState.COMMITTED, ClaimInput.OPEN),
        (ClaimState.OPENED, ClaimInput.WIN),
        (ClaimState.OPENED, ClaimInput.LOSE),
    }


# -- refused inputs name their culprit and change nothing ----------------------------------------


def test_an_opening_to_something_else_names_its_author_and_changes_nothing() -> None:
    seats = Seats()
    seats.machines[0].wish(seats.state.table[0], seats.state)
    seats.step()
    sign = seats.machines[0].pace(seats.state, None)
    assert sign is not None
    body = {**sign.body, "open": {"nonce": bytes(32), "claims": sign.body["open"]["claims"]}}
    forged = seats.envelope(0, body)
    before = snapshot(seats.auditor)
    with pytest.raises(DeckFault) as caught:
        seats.auditor.check(forged, seats.applied, seats.state)
    assert caught.value.seat == 0 and "commitment to something else" in caught.value.what
    assert snapshot(seats.auditor) == before


def test_a_step_envelope_signed_too_early_names_its_author_and_changes_nothing() -> None:
    seats = Seats()
    sign = seats.machines[1].pace(seats.state, bytes(32))
    assert sign is not None
    before = snapshot(seats.auditor)
    with pytest.raises(DeckFault, match="before the layout was fixed") as caught:
        seats.auditor.check(seats.envelope(1, sign.body), LAID_OUT - 1, seats.state)
    assert caught.value.seat == 1 and snapshot(seats.auditor) == before


def test_a_claim_while_one_is_in_flight_or_past_a_full_hand_is_refused_typed() -> None:
    """T3: one card at a time, and a player stops at a full hand: the engine's `claim_refusal`
    (engine/lie/state.py), asked once, raises its own typed error naming the seat."""
    seats = Seats()
    mine = seats.machines[0]
    mine.wish(seats.state.table[0], seats.state)
    before = snapshot(mine)
    with pytest.raises(IllegalAction, match="one card at a time") as caught:
        mine.wish(seats.state.table[1], seats.state)
    assert caught.value.seat == 0 and snapshot(mine) == before

    driver = OracleDriver(2, LieOptions(hand_size=1), seed=4)
    driver.act(0, Claim(driver.state.table[0]))  # the first card places itself: a full hand
    full = Lockstep(TABLE, 2, 0, 1, bytes(32))
    full.layout_fixed(LAID_OUT)
    before = snapshot(full)
    with pytest.raises(HandFull) as refused:
        full.wish(driver.state.table[0], driver.state)
    assert refused.value.seat == 0 and snapshot(full) == before


def test_a_commitment_keeps_why_its_seat_could_not_claim_in_the_words_of_the_fault() -> None:
    """protocol.md 10.11.3 step 4: a seat whose last card is being dealt, or lies unplaced, or
    whose hand is full, may not commit to a claim (T3); the engine's typed refusal is kept in
    the words its fault will say ("claimed slot x while … (T3)")."""
    driver = OracleDriver(2, LieOptions(hand_size=3), seed=4)
    dealing = apply(driver.state, 0, Claim(driver.state.table[0])).state
    driver.act(0, Claim(driver.state.table[0]))  # the first card places itself (T3)
    driver.act(0, Claim(driver.state.table[0]))  # the second lies unplaced, its front known
    unplaced = driver.state
    full = OracleDriver(2, LieOptions(hand_size=1), seed=4)
    full.act(0, Claim(full.state.table[0]))
    cases = [
        (dealing, None, "its last card's front was not known yet"),
        (unplaced, None, "it had not placed its last card"),
        (unplaced, "left", None),  # its envelope places it: it may claim with it
        (full.state, None, "its hand was full"),
    ]
    for state, place, words in cases:
        seats = Seats(hand_size=state.options.hand_size)
        seats.state = state
        sign = seats.machines[0].pace(state, bytes(32))  # seat 0 answers an envelope it holds
        assert sign is not None
        envelope = seats.envelope(0, {**sign.body, "place": place})
        machine = seats.auditor
        machine.record(machine.check(envelope, LAID_OUT, state), state, LAID_OUT + 1)
        assert machine.pending_commits[0].may_claim == words, (place, words)
