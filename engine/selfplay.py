"""Whole games between bots with the oracle driver: for self-play, tests and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from fairdeal.engine.bots import Bot, make_bot
from fairdeal.engine.options import LarryOptions
from fairdeal.engine.oracle import OracleDriver
from fairdeal.engine.view import view_for

MAX_ACTIONS = 20_000  # a safety net: a game that runs this long is reported, not looped forever


class GameDidNotEnd(RuntimeError):
    pass


@dataclass(frozen=True, slots=True)
class GameResult:
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    hands: int
    actions: int


def play_game(
    bots: Sequence[Bot],
    options: LarryOptions | None = None,
    *,
    seed: int | None = 0,
    driver: OracleDriver | None = None,
) -> GameResult:
    """Play one complete game; bots[i] sits at seat i."""
    driver = driver or OracleDriver(len(bots), options, seed=seed)
    actions = 0
    state = driver.state
    while not state.over:
        seat = state.to_act()
        assert seat is not None
        view = view_for(state, driver.knowledge[seat], seat)
        driver.act(seat, bots[seat].choose(view))
        state = driver.state
        actions += 1
        if actions > MAX_ACTIONS:
            raise GameDidNotEnd(f"no end after {MAX_ACTIONS} actions")
    return GameResult(state.winners, state.scores, state.hand_no, actions)


def make_bots(spec: str, players: int, rng: random.Random) -> list[Bot]:
    """Bots from a comma list ("heuristic,random"); the last name fills the remaining seats."""
    names = [name.strip() for name in spec.split(",") if name.strip()] or ["random"]
    if len(names) > players:
        raise ValueError(f"{len(names)} bots for {players} seats")
    names += [names[-1]] * (players - len(names))
    return [make_bot(name, random.Random(rng.random())) for name in names]
