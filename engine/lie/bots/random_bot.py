"""A bot of The Lie that takes random cards, places them at a random end, and plays at random.

Following a lead it passes one go in four, and otherwise makes a random legal play when it has
one: a uniform choice among plays and Pass would pass far more often than anyone does.
"""

from __future__ import annotations

from fairdeal.engine.lie.actions import Action, Claim, Pass, Place, Play, Side
from fairdeal.engine.lie.bots.paced import PacedBot
from fairdeal.engine.lie.legal import play_slots
from fairdeal.engine.lie.state import BUILD
from fairdeal.engine.lie.view import LieView

PLACES = (Place(Side.LEFT), Place(Side.RIGHT))
PASS = Pass()
_ONLY_PASS = (PASS,)  # drawn from like any list of actions, so the same draws are made


class RandomBot(PacedBot):
    name = "random"

    def choose(self, view: LieView) -> Action:
        rng = self.rng
        state = view.state
        if state.phase is BUILD:
            if view.can_place:  # T3: the front is seen; either end, at random
                return PLACES[rng.getrandbits(1)]
            return Claim(rng.choice(state.table))  # drawn directly: listing 96 claims is slower
        if state.position and rng.random() < 0.25:
            return PASS  # following, it passes one go in four without looking
        # Otherwise it plays when it can, as people do: a uniform choice among the legal plays
        # (legal.play_slots, play_actions' plays without making each Play), else it passes.
        plays = play_slots(view) if state.to_act() == view.seat else []
        if plays:
            return Play(rng.choice(plays))
        return rng.choice(_ONLY_PASS if state.position else ())
