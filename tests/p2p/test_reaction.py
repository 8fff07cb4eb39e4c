"""Bots race with human-like reaction times (p2p/table/runtime/reaction.py): an ex-Gaussian per
move, slower to choose a card than to place it, scaled by the difficulty. Statistics of seeded
draws, never a sleep."""

from __future__ import annotations

import random
import statistics

import pytest

from fairdeal.p2p.table.runtime.reaction import FLOOR, NORMAL, BotTiming, ExGaussian, reactions

DRAWS = 20_000


def draws(model: ExGaussian, seed: int = 1) -> list[float]:
    rng = random.Random(seed)
    return [model.draw(rng) for _ in range(DRAWS)]


@pytest.mark.parametrize("model", [NORMAL.choose, NORMAL.follow_up])
def test_draws_have_the_models_mean_a_right_skew_and_a_floor(model: ExGaussian) -> None:
    times = draws(model)
    assert statistics.fmean(times) == pytest.approx(model.mean, rel=0.02)
    assert statistics.median(times) < statistics.fmean(times)  # the slow tail (tau)
    assert min(times) >= FLOOR
    # the spread of a person's times, not a metronome: sd² = sigma² + tau²
    sd = (model.sigma**2 + model.tau**2) ** 0.5
    assert statistics.stdev(times) == pytest.approx(sd, rel=0.05)


def test_a_take_and_place_at_normal_averages_a_practised_players_second() -> None:
    assert NORMAL.mean == pytest.approx(1.0, abs=0.01)
    assert NORMAL.choose.mean > 2 * NORMAL.follow_up.mean  # 16 backs to choose among, 2 ends


def test_the_difficulty_scales_the_times() -> None:
    easy, normal, hard = (reactions(level) for level in ("easy", "normal", "hard"))
    assert easy.mean > normal.mean > hard.mean
    assert statistics.fmean(draws(hard.choose)) < statistics.fmean(draws(normal.choose))
    with pytest.raises(KeyError):
        reactions("impossible")


def test_the_same_seed_draws_the_same_times() -> None:
    assert draws(NORMAL.choose, seed=7)[:50] == draws(NORMAL.choose, seed=7)[:50]
    assert draws(NORMAL.choose, seed=7)[:50] != draws(NORMAL.choose, seed=8)[:50]


def test_a_bots_timing_picks_its_wait() -> None:
    fixed = BotTiming(bot_delay=0.6, claim_pace=1.5)
    assert fixed.delay(False) == 0.6 and fixed.delay(True) == 1.5
    assert not BotTiming().waits(True) and not BotTiming().waits(False)  # flat out
    human = BotTiming(claim_pace=9.0, reactions=NORMAL, rng=random.Random(3))
    assert human.waits(True)
    chosen = [human.delay(True) for _ in range(2000)]
    placed = [human.delay(True, follow_up=True) for _ in range(2000)]
    assert statistics.fmean(chosen) == pytest.approx(NORMAL.choose.mean, rel=0.05)
    assert statistics.fmean(placed) == pytest.approx(NORMAL.follow_up.mean, rel=0.05)
    with pytest.raises(ValueError, match="cannot be negative"):
        BotTiming(claim_pace=-1)
