"""A bot of The Lie that takes random cards and plays a random legal action.

Following a lead it plays (a random legal play) three times in four when it can, else passes:
a uniform choice would pass far more often than anyone does, and drag every round out.
"""

from __future__ import annotations

import random

from fairdeal.engine.lie.actions import Action, Claim, Pass, Side
from fairdeal.engine.lie.legal import play_actions
from fairdeal.engine.lie.state import Phase
from fairdeal.engine.lie.view import LieView

SIDES = (Side.LEFT, Side.RIGHT)


class RandomBot:
    name = "random"

    def __init__(self, rng: random.Random, pace: float = 1.0) -> None:
        self.rng = rng
        self.pace = pace

    def choose(self, view: LieView) -> Action:
        rng = self.rng
        if view.phase is Phase.BUILD:  # drawn directly: listing 2 x 96 claims would be slow
            return Claim(rng.choice(view.table), SIDES[rng.getrandbits(1)])
        actions = play_actions(view)
        if len(actions) > 1 and type(actions[-1]) is Pass and rng.random() < 0.75:
            return rng.choice(actions[:-1])  # mostly play when it can, as people do
        return rng.choice(actions)
