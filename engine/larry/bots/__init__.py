"""Larry's bots; each chooses from its seat's LarryView only (interface: fairdeal.engine.bots)."""

from __future__ import annotations

import random

from fairdeal.engine.bot import Bot
from fairdeal.engine.larry.actions import Action
from fairdeal.engine.larry.view import LarryView

KINDS = ("random", "heuristic")


def make_bot(spec: str, rng: random.Random) -> Bot[LarryView, Action]:
    """A Larry bot by name: "random" or "heuristic"."""
    from fairdeal.engine.larry.bots.heuristic import HeuristicBot
    from fairdeal.engine.larry.bots.random_bot import RandomBot

    if spec == "random":
        return RandomBot(rng)
    if spec == "heuristic":
        return HeuristicBot(rng)
    raise ValueError(f"unknown bot {spec!r} (choose random or heuristic)")
