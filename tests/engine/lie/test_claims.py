"""T3's one rule for taking a card (engine/lie/state.py `claim_refusal`): the engine's check of a
Claim, the view's `can_claim`, its room, and a networked table's settling claims all give one
answer."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fairdeal.engine import OracleDriver
from fairdeal.engine.lie import Claim, IllegalAction, LieOptions, Place, Side, apply, view_for
from fairdeal.engine.lie.errors import HandFull, NotBuilding, PlaceFirst, WaitingForDriver
from fairdeal.engine.lie.state import LieState, Phase, claim_refusal


def _open_table(hand_size: int = 3) -> OracleDriver:
    return OracleDriver(3, LieOptions(hand_size=hand_size), seed=4)


def test_every_seat_may_claim_once_the_table_is_laid_out() -> None:
    state: LieState = _open_table().state
    for seat in range(3):
        assert claim_refusal(state, seat) is None
        assert state.room(seat) == 3 and state.held(seat) == 0
        assert view_for(state, {}, seat).can_claim


def test_a_claim_whose_card_is_being_dealt_must_be_placed_first() -> None:
    state: LieState = _open_table().state
    dealt = apply(state, 0, Claim(state.table[0])).state  # its Deal not answered yet
    assert dealt.dealing_to(0) and not dealt.dealing_to(1)
    assert isinstance(claim_refusal(dealt, 0), PlaceFirst)
    # A networked step places and claims at once, but not before the front is known.
    assert isinstance(claim_refusal(dealt, 0, placing=True), WaitingForDriver)
    assert dealt.held(0) == 1 and dealt.room(0) == 2
    with pytest.raises(PlaceFirst):
        apply(dealt, 0, Claim(dealt.table[0]))


def test_placing_in_the_same_move_allows_the_next_claim_once_the_front_is_known() -> None:
    driver = _open_table()
    driver.act(0, Claim(driver.state.table[0]))  # the first card places itself (T3)
    driver.act(0, Claim(driver.state.table[0]))  # the second waits beside the hand
    state: LieState = driver.state
    assert state.unplaced[0] is not None and state.front_known(0)
    assert isinstance(claim_refusal(state, 0), PlaceFirst)
    assert claim_refusal(state, 0, placing=True) is None
    assert state.room(0) == 1


def test_settling_claims_count_against_the_hand_everywhere() -> None:
    state: LieState = _open_table().state
    refusal = claim_refusal(state, 1, settling=3)
    assert isinstance(refusal, HandFull) and refusal.seat == 1
    assert "3 cards" in str(refusal)
    settling = view_for(state, {}, 1)
    settling = replace(settling, pending_claims=tuple(state.table[:3]))
    assert not settling.can_claim and settling.room == 0 and settling.held == 3
    assert isinstance(settling.claim_refusal, HandFull)
    assert claim_refusal(state, 1, settling=2) is None


def test_a_full_hand_is_refused_by_the_engine_with_the_error_the_rule_names() -> None:
    driver = _open_table(hand_size=1)
    driver.act(2, Claim(driver.state.table[0]))
    state: LieState = driver.state
    assert state.room(2) == 0 and 2 not in state.actors()
    refusal = claim_refusal(state, 2)
    assert isinstance(refusal, HandFull)
    with pytest.raises(HandFull) as raised:
        apply(state, 2, Claim(state.table[0]))
    assert str(raised.value) == str(refusal)


def test_after_phase_1_nobody_may_claim() -> None:
    driver = _open_table(hand_size=1)
    for seat in range(3):
        driver.act(seat, Claim(driver.state.table[0]))
    state: LieState = driver.state
    assert state.phase is not Phase.BUILD
    assert isinstance(claim_refusal(state, 0), NotBuilding)
    assert not view_for(state, {}, 0).can_claim
    with pytest.raises(IllegalAction):
        apply(state, 0, Place(Side.LEFT))
