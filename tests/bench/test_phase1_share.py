"""bench/phase1_share.py: a person at human speed against three default bots in The Lie's
Phase 1 gets backs about as good as theirs (the bench's own target), on a simulated clock."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from types import ModuleType


def shares(bench: ModuleType, rounds: int, **race: object) -> tuple[float, float]:
    player, bots = [], []
    for seed in range(rounds):
        one = bench.Race(seed, step=0.06, **race)
        one.run()
        player += one.seats[bench.PLAYER].taken
        bots += [n for s, seat in enumerate(one.seats) if s != bench.PLAYER for n in seat.taken]
        assert all(len(seat.taken) == 12 for seat in one.seats)  # every hand filled (T3)
    return statistics.fmean(player), statistics.fmean(bots)


def test_at_normal_a_person_gets_backs_within_a_tenth_of_the_bots(
    load_bench: Callable[[str], ModuleType],
) -> None:
    bench = load_bench("phase1_share")
    mine, theirs = shares(bench, 20, difficulty="normal", pace=0.0)
    assert abs(mine / theirs - 1) <= bench.TARGET
    easy_mine, easy_theirs = shares(bench, 20, difficulty="easy", pace=0.0)
    assert easy_mine / easy_theirs > mine / theirs  # easier bots leave the person more
