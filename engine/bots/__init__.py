"""Bots that choose an action from a seat's view only (never the public state or other hands)."""

from __future__ import annotations

import random
from typing import Protocol

from fairdeal.engine.actions import Action
from fairdeal.engine.view import LarryView

BOT_NAMES = ("Ada", "Ben", "Cleo", "Dov", "Eli", "Fay", "Gus", "Hal")


def bot_name(index: int) -> str:
    """The display name of the `index`-th bot at a table, however it sat down: "Ada (bot)"."""
    first = BOT_NAMES[index] if index < len(BOT_NAMES) else f"Bot {index + 1}"
    return f"{first} (bot)"


class Bot(Protocol):
    name: str

    def choose(self, view: LarryView) -> Action:
        """An action for `view.seat`, which is to act."""
        ...


def make_bot(spec: str, rng: random.Random) -> Bot:
    """A bot by name: "random" or "heuristic"."""
    from fairdeal.engine.bots.heuristic import HeuristicBot
    from fairdeal.engine.bots.random_bot import RandomBot

    if spec == "random":
        return RandomBot(rng)
    if spec == "heuristic":
        return HeuristicBot(rng)
    raise ValueError(f"unknown bot {spec!r} (choose random or heuristic)")
