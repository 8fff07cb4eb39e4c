"""Whole games between bots with the oracle driver, for any game: self-play, tests, benchmarks.

Where several seats may act at once (The Lie's Phase 1), the order their moves reach the engine
is simulated time: each bot moves `pace` seconds (jittered ±50 % by the seeded generator) after
its previous move, and the earliest move goes first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.engine.bots import AnyBot, make_bot, pace_of
from fairdeal.engine.game import PublicState
from fairdeal.engine.games import AnyGame, default_game, game_of_options, get_game
from fairdeal.engine.oracle import OracleDriver

MAX_ACTIONS = 20_000  # a safety net: a game that runs this long is reported, not looped forever


class GameDidNotEnd(RuntimeError):
    pass


@dataclass(frozen=True, slots=True)
class GameResult:
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    hands: int  # hands (Larry) or rounds (The Lie) played
    actions: int


def play_game(
    bots: Sequence[AnyBot],
    options: Any = None,
    *,
    seed: int | None = 0,
    driver: OracleDriver | None = None,
    game: AnyGame | str | None = None,
) -> GameResult:
    """Play one complete game; bots[i] sits at seat i."""
    if isinstance(game, str):
        game = get_game(game)
    if driver is None:
        game = game or (
            game_of_options(options) if options is not None else get_game(default_game())
        )
        driver = OracleDriver(len(bots), options, seed=seed, game=game)
    game = driver.game
    view_for, actors = game.view_for, game.actors
    clock = random.Random(seed)
    paces = [pace_of(bot) for bot in bots]
    next_move = [pace * (0.5 + clock.random()) for pace in paces]
    actions = 0
    state = driver.state
    while not state.over:
        seat = state.to_act()  # the one seat awaited, in turn-based play
        if seat is None:  # several seats may act at once: the earliest in simulated time
            seats = actors(state)
            assert seats, "a game that is not over has someone to act"
            seat = min(seats, key=next_move.__getitem__)
            next_move[seat] += paces[seat] * (0.5 + clock.random())
        view = view_for(state, driver.knowledge[seat], seat)
        driver.act(seat, bots[seat].choose(view))
        state = driver.state
        actions += 1
        if actions > MAX_ACTIONS:
            raise GameDidNotEnd(f"no end after {MAX_ACTIONS} actions")
    final: PublicState = state  # what the result reads of any game's state
    return GameResult(tuple(final.winners), tuple(final.scores), final.rounds, actions)


def make_bots(spec: str, players: int, rng: random.Random, game: str | None = None) -> list[AnyBot]:
    """Bots from a comma list ("heuristic,random"); the last name fills the remaining seats."""
    names = [name.strip() for name in spec.split(",") if name.strip()] or ["random"]
    if len(names) > players:
        raise ValueError(f"{len(names)} bots for {players} seats")
    names += [names[-1]] * (players - len(names))
    return [make_bot(name, random.Random(rng.random()), game) for name in names]
