"""Benchmark: complete 4-player hands of Larry and games of The Lie per second, one core.

Random bots and the oracle driver. Targets: >= 500 Larry hands/s (short games, one hand each) and
>= 400 games of The Lie/s (three rounds each, 12-card hands). Prints the median of several
rounds; `--json FILE` writes the figures.
The rate is measured in process CPU time (the run is single-threaded, so that is one core's
work); wall-clock rates are printed too. Other jobs on a shared machine still slow CPU time
(the cores share caches, and the host): the libsodium calibration and load average before and
after, and the CPU other processes used meanwhile (bench/calibration.py), are printed and
written, with a warning when the machine was loaded.
Run from the repository root: `.venv/bin/python bench/engine.py`.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from calibration import BenchRun

from fairdeal.engine.bots import Bot
from fairdeal.engine.larry.bots.random_bot import RandomBot
from fairdeal.engine.larry.options import LarryOptions
from fairdeal.engine.lie.bots.random_bot import RandomBot as LieRandomBot
from fairdeal.engine.lie.options import LieOptions
from fairdeal.engine.selfplay import play_game

TARGET = 500.0
LIE_TARGET = 400.0


BotClass = Callable[[random.Random], Bot]


def one_round(
    games: int, seed: int, players: int, options: object, bot: BotClass
) -> tuple[float, float, float]:
    """Play `games` complete games with these options, every seat a `bot`.

    Returns (games per CPU second, games per wall second, actions per game).
    """
    rng = random.Random(seed)
    actions = 0
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    for _ in range(games):
        bots = [bot(random.Random(rng.random())) for _ in range(players)]
        actions += play_game(bots, options, seed=rng.randrange(1 << 32)).actions
    cpu = time.process_time() - cpu_start
    wall = time.perf_counter() - wall_start
    return games / cpu, games / wall, actions / games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the median is reported")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lie-games", type=int, default=300, help="Lie games per round (0: skip)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args()
    run = BenchRun()
    rates: list[float] = []
    wall_rates: list[float] = []
    per_hand = 0.0
    for number in range(args.rounds):
        rate, wall_rate, per_hand = one_round(
            args.hands, args.seed + number, args.players, LarryOptions(short_game=True), RandomBot
        )
        rates.append(rate)
        wall_rates.append(wall_rate)
        print(
            f"round {number + 1}: {rate:7.0f} hands/s CPU, {wall_rate:7.0f} wall "
            f"({per_hand:.1f} actions per hand)"
        )
    median = statistics.median(rates)
    verdict = "meets" if median >= TARGET else "MISSES"
    print(
        f"median {median:.0f} complete {args.players}-player hands per CPU second "
        f"({verdict} the target of {TARGET:.0f})"
    )
    lie_rates: list[float] = []
    lie_wall: list[float] = []
    per_game = 0.0
    for number in range(args.rounds if args.lie_games > 0 else 0):
        rate, wall_rate, per_game = one_round(
            args.lie_games, args.seed + number, args.players, LieOptions(), LieRandomBot
        )
        lie_rates.append(rate)
        lie_wall.append(wall_rate)
        print(
            f"The Lie round {number + 1}: {rate:6.0f} games/s CPU, {wall_rate:6.0f} wall "
            f"({per_game:.0f} actions per game)"
        )
    lie_median = statistics.median(lie_rates) if lie_rates else 0.0
    if lie_rates:
        verdict = "meets" if lie_median >= LIE_TARGET else "MISSES"
        print(
            f"median {lie_median:.0f} complete {args.players}-player games of The Lie per CPU "
            f"second ({verdict} the target of {LIE_TARGET:.0f})"
        )
    load = run.finish()
    if args.json:
        figures = {
            "benchmark": "engine",
            "players": args.players,
            "hands_per_round": args.hands,
            "rounds_hands_per_cpu_second": rates,
            "rounds_hands_per_wall_second": wall_rates,
            "median_hands_per_second": median,
            "median_hands_per_wall_second": statistics.median(wall_rates),
            "mean_actions_per_hand": per_hand,
            "target_hands_per_second": TARGET,
            "meets_target": median >= TARGET,
            "lie_games_per_round": args.lie_games,
            "lie_rounds_games_per_cpu_second": lie_rates,
            "lie_rounds_games_per_wall_second": lie_wall,
            "lie_median_games_per_second": lie_median,
            "lie_mean_actions_per_game": per_game,
            "lie_target_games_per_second": LIE_TARGET,
            "lie_meets_target": lie_median >= LIE_TARGET,
            **load,
        }
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
