"""Seeded self-play games of The Lie are the same games, move for move, as when recorded.

The engine's hot paths are written for speed (bench/README.md, "The Lie's engine"); this pins
what they must never change: the actions (the log), the events, the driver's shuffles, every
state after each action and the final state, all as the plain data of protocol.md section 7.8
(engine/lie/codec.py), for 40 games of 3-6 seats with random and heuristic bots. The digest was
recorded on the code before the speed work; a rules change (RULINGS.md) must record it anew.
"""

from __future__ import annotations

import hashlib
import random

from fairdeal.engine import OracleDriver
from fairdeal.engine.lie import LieOptions
from fairdeal.engine.lie.codec import to_data
from fairdeal.engine.selfplay import make_bots, play_game

GAMES = 40
STATE_EVERY = 10  # the plain data of every tenth state (all of them would take 10 s)
DIGEST = "83803d8773f40c431482f8de075742b7264cbc7e33c80d9a27d1a377c963d589"


def _game_data(number: int) -> list[object]:
    rng = random.Random(number)
    players = 3 + number % 4
    spec = ("random", "heuristic", "heuristic,random", "random,heuristic")[number // 4 % 4]
    bots = make_bots(spec, players, rng, "lie")
    driver = OracleDriver(players, LieOptions(), seed=rng.randrange(1 << 32), game="lie")
    states: list[object] = []
    act = driver.act

    def recording_act(seat: int, action: object) -> object:
        step = act(seat, action)
        if len(driver.log) % STATE_EVERY == 0:
            states.append(to_data(driver.state))
        return step

    driver.act = recording_act  # type: ignore[method-assign]
    result = play_game(bots, seed=number, driver=driver)
    log = [[seat, to_data(action)] for seat, action in driver.log]
    return [
        players,
        spec,
        list(result.winners),
        list(result.scores),
        result.actions,
        log,
        to_data(driver.events),
        to_data(driver.shuffles),
        states,
        to_data(driver.state),
    ]


def test_games_are_the_same_as_recorded() -> None:
    digest = hashlib.sha256()
    for number in range(GAMES):
        digest.update(repr(_game_data(number)).encode())
    assert digest.hexdigest() == DIGEST
