"""A bot of The Lie that takes random cards, places them at a random end, and plays at random.

Following a lead it passes one go in four, and otherwise makes a random legal play when it has
one: a uniform choice among plays and Pass would pass far more often than anyone does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from fairdeal.engine.lie.actions import Action, Claim, Pass, Place, Play, Side
from fairdeal.engine.lie.bots.paced import PacedBot
from fairdeal.engine.lie.legal import play_slots
from fairdeal.engine.lie.state import BUILD
from fairdeal.engine.lie.view import LieView

T = TypeVar("T")

PLACES = (Place(Side.LEFT), Place(Side.RIGHT))
PASS = Pass()
# Actions are immutable: one Claim per slot number serves every game (slot numbers start at 0 in
# each game and stay under a few hundred), as one Pass serves every go.
_CLAIMS: dict[int, Claim] = {}
_ONLY_PASS = (PASS,)  # drawn from like any list of actions, so the same draws are made


class RandomBot(PacedBot):
    name = "random"

    def choose(self, view: LieView) -> Action:
        rng = self.rng
        state = view.state
        if state.phase is BUILD:
            if view.can_place:  # T3: the front is seen; either end, at random
                return PLACES[rng.getrandbits(1)]
            # Drawn directly: listing 96 claims is slower.
            slot = _choice(rng, state.table)
            claim = _CLAIMS.get(slot)
            if claim is None:
                claim = _CLAIMS[slot] = Claim(slot)
            return claim
        if state.position and rng.random() < 0.25:
            return PASS  # following, it passes one go in four without looking
        # Otherwise it plays when it can, as people do: a uniform choice among the legal plays
        # (legal.play_slots, play_actions' plays without making each Play), else it passes.
        plays = play_slots(view) if state.to_act() == view.seat else []
        if plays:
            return Play(_choice(rng, plays))
        return _choice(rng, _ONLY_PASS if state.position else ())


def _choice(rng: random.Random, items: Sequence[T]) -> T:
    """`rng.choice(items)`: the same draw, without the library's two Python calls per draw (the
    random.py code for a Random whose `random` is its own; any other generator draws its way).
    A game makes about 250 such draws: tests/engine/lie/test_bots.py holds it to the library's.
    """
    count = len(items)
    if type(rng) is not random.Random or not count:
        return rng.choice(items)  # and an empty list raises the library's IndexError
    bits = count.bit_length()
    index = rng.getrandbits(bits)
    while index >= count:
        index = rng.getrandbits(bits)
    return items[index]
