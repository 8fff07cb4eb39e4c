"""The Lie's bots; each chooses from its seat's LieView only (interface: fairdeal.engine.bots).

`pace` (seconds between claims in Phase 1) lets humans play against them in real time; self-play
uses it as simulated time to order simultaneous claims.
"""

from __future__ import annotations

import random

from fairdeal.engine.bot import Bot
from fairdeal.engine.lie.actions import Action
from fairdeal.engine.lie.view import LieView

KINDS = ("random", "heuristic")


def make_bot(spec: str, rng: random.Random, pace: float = 1.0) -> Bot[LieView, Action]:
    """A bot of The Lie by name: "random" or "heuristic"."""
    from fairdeal.engine.lie.bots.heuristic import HeuristicBot
    from fairdeal.engine.lie.bots.random_bot import RandomBot

    if pace <= 0:
        raise ValueError(f"a bot's pace must be positive, not {pace}")
    if spec == "random":
        return RandomBot(rng, pace)
    if spec == "heuristic":
        return HeuristicBot(rng, pace)
    raise ValueError(f"unknown bot {spec!r} (choose random or heuristic)")
