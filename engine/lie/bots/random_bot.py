"""A bot of The Lie that takes random cards and plays a random legal action.

Following a lead it passes one go in four, and otherwise makes a random legal play when it has
one: a uniform choice among plays and Pass would pass far more often than anyone does.
"""

from __future__ import annotations

import random

from fairdeal.engine.lie.actions import Action, Claim, Pass, Side
from fairdeal.engine.lie.legal import play_actions
from fairdeal.engine.lie.state import Phase
from fairdeal.engine.lie.view import LieView

SIDES = (Side.LEFT, Side.RIGHT)
PASS = Pass()


class RandomBot:
    name = "random"

    def __init__(self, rng: random.Random, pace: float = 1.0) -> None:
        self.rng = rng
        self.pace = pace

    def choose(self, view: LieView) -> Action:
        rng = self.rng
        if view.phase is Phase.BUILD:  # drawn directly: listing 2 x 96 claims would be slow
            return Claim(rng.choice(view.table), SIDES[rng.getrandbits(1)])
        if view.state.position and rng.random() < 0.25:
            return PASS  # following, it passes one go in four without looking
        actions = play_actions(view)
        if len(actions) > 1 and type(actions[-1]) is Pass:
            return rng.choice(actions[:-1])  # otherwise it plays when it can, as people do
        return rng.choice(actions)
