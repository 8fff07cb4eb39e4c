"""Core transitions: requests are issued and served in order, illegal actions name the seat."""

from __future__ import annotations

import pytest

from fairdeal.engine.larry import (
    DRIVER,
    Ack,
    Deal,
    Doubt,
    Faces,
    NewDeck,
    OracleDriver,
    PlayFaceDown,
    apply,
    new_game,
)
from fairdeal.engine.larry import errors as E


def test_new_game_asks_for_a_fresh_deck_then_deals_by_L3() -> None:
    step = new_game(4)
    assert isinstance(step.requests[0], NewDeck)
    assert len(step.requests[0].slots) == 54
    deals = step.requests[1:]
    assert [d.seat for d in deals if isinstance(d, Deal)] == [0, 1, 2, 3]
    assert all(len(d.slots) == 7 for d in deals if isinstance(d, Deal))
    assert step.state.to_act() is None  # waiting for the driver
    with pytest.raises(E.WaitingForDriver):
        apply(step.state, 0, Doubt())


def test_resolutions_must_answer_the_first_pending_request() -> None:
    state = new_game(3).state
    with pytest.raises(E.BadResolution):
        apply(state, DRIVER, Ack(state.pending[1].id))
    with pytest.raises(E.BadResolution):
        apply(state, 0, Ack(state.pending[0].id))  # a seat cannot answer for the driver
    with pytest.raises(E.BadResolution):
        apply(state, DRIVER, Faces(state.pending[0].id, ()))  # NewDeck wants an Ack
    after = apply(state, DRIVER, Ack(state.pending[0].id)).state
    assert after.pending == state.pending[1:]


def test_not_your_turn_names_the_seat_and_leaves_state_unchanged() -> None:
    driver = OracleDriver(4, seed=3)
    state = driver.state
    slot = state.hands[1][0]
    with pytest.raises(E.NotYourTurn) as info:
        apply(state, 1, PlayFaceDown(slot, 3))
    assert info.value.seat == 1
    assert "seat 0" in info.value.reason
    assert driver.state is state


def test_limit_exceeded_L6() -> None:
    driver = OracleDriver(4, seed=3)
    slot = driver.state.hands[0][0]
    with pytest.raises(E.LimitExceeded) as info:
        driver.act(0, PlayFaceDown(slot, 8))
    assert info.value.seat == 0
    driver.act(0, PlayFaceDown(slot, -40))  # any integer not above the limit is fine
    assert driver.state.announced == -40
