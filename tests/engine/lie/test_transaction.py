"""The Lie's transitions build each state from a typed working copy (engine/lie/transaction.py):
what a transition does not change is shared with the state before, never copied, and what it
does change is new, so the state before stays as it was (states are values: replays, views and
the network driver keep old ones)."""

from __future__ import annotations

import random

from fairdeal.engine import OracleDriver
from fairdeal.engine.lie import Claim, LieOptions, Phase, apply
from fairdeal.engine.lie.bots.random_bot import RandomBot
from fairdeal.engine.requests import Faces, Reveal

UNCHANGED_BY_A_CLAIM = ("backs", "layout", "hands", "revealed", "prizes", "options", "scores")


def test_a_claim_shares_every_field_it_does_not_change() -> None:
    driver = OracleDriver(4, LieOptions(), seed=3, game="lie")
    state = driver.state
    before = dict(state.__dict__)
    slot = state.table[17]
    after = apply(state, 2, Claim(slot)).state
    for name in UNCHANGED_BY_A_CLAIM:  # the 96-card mappings and tuples are not copied (T3)
        assert getattr(after, name) is getattr(state, name), name
    assert slot not in after.table and len(after.table) == len(state.table) - 1
    assert after.unplaced[2] == slot and state.unplaced[2] is None
    assert state.__dict__ == before  # the state claimed from is unchanged


def test_a_reveal_leaves_the_revealed_mapping_of_the_state_before_unchanged() -> None:
    driver = OracleDriver(4, LieOptions(rounds=1), seed=4, game="lie")
    bots = [RandomBot(random.Random(seat)) for seat in range(4)]
    while True:  # play until a play's Reveal is outstanding, then answer it by hand
        state = driver.state
        seat = state.to_act()
        if seat is None:
            seat = state.actors()[0]
        view = driver.game.view_for(state, driver.knowledge[seat], seat)
        step = apply(state, seat, bots[seat].choose(view))
        pending = step.state.pending
        if step.state.phase is Phase.PLAY and pending and type(pending[0]) is Reveal:
            break
        driver.state = driver.serve(step.state)
    waiting = step.state
    shown_before = dict(waiting.revealed)
    answer = driver.answer(pending[0])
    assert isinstance(answer, Faces)
    after = apply(waiting, -1, answer).state
    assert dict(waiting.revealed) == shown_before  # the earlier state's mapping is untouched
    for slot, face in zip(pending[0].slots, answer.faces, strict=True):
        assert after.revealed[slot] == face and slot not in waiting.revealed
    assert type(after.revealed).__name__ == "mappingproxy"  # still read-only
