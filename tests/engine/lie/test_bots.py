"""The Lie's bots: legal on their view only, a pace for Phase 1, and a heuristic that wins."""

from __future__ import annotations

import random

import pytest

from fairdeal.engine import OracleDriver
from fairdeal.engine.lie import LieOptions
from fairdeal.engine.lie.bots import make_bot
from fairdeal.engine.lie.events import HandComplete
from fairdeal.engine.selfplay import make_bots, play_game


def test_pace_orders_simultaneous_claims_in_selfplay() -> None:
    firsts = []
    for seed in range(10):
        bots = [make_bot("random", random.Random(seed), pace=0.1)]
        bots += [make_bot("random", random.Random(seed + s), pace=1.0) for s in (1, 2)]
        driver = OracleDriver(3, LieOptions(rounds=1), seed=seed)
        play_game(bots, driver=driver, seed=seed)
        first = next(e for e in driver.events if isinstance(e, HandComplete) and e.first)
        firsts.append(first.seat)
    assert firsts == [0] * 10  # ten times faster: always the first to a full hand (T3)


def test_a_bot_needs_a_positive_pace() -> None:
    with pytest.raises(ValueError, match="pace must be positive"):
        make_bot("heuristic", random.Random(0), pace=0)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever", random.Random(0))


def test_the_heuristic_bot_wins_well_above_its_share() -> None:
    rng = random.Random(7)
    games, wins = 40, 0.0
    for _ in range(games):
        bots = make_bots("heuristic,random", 4, rng, "lie")
        result = play_game(bots, LieOptions(), seed=rng.randrange(1 << 32))
        if 0 in result.winners:
            wins += 1 / len(result.winners)
    assert wins / games > 0.5  # an equal share would be 0.25
