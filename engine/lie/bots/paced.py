"""What The Lie's bots share: a random source and a pace (fairdeal.engine.bots: the seconds
between claims in Phase 1, which self-play takes as simulated time)."""

from __future__ import annotations

import random


class PacedBot:
    name: str

    def __init__(self, rng: random.Random, pace: float = 1.0) -> None:
        self.rng = rng
        self.pace = pace
