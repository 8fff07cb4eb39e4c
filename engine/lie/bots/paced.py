"""What The Lie's bots share: a random source, a pace (fairdeal.engine.bots: the seconds
between claims in Phase 1, which self-play takes as simulated time) and a spread of choice.

`spread` (0: always the best card) is how far a bot strays from the card it rates best in the
Phase 1 race (T3), set by the table's difficulty (`play_at`): bots that all reach for the one
best back leave a person nothing but leftovers however fast the person is.
"""

from __future__ import annotations

import random

# Per difficulty (fairdeal.engine.bots.DIFFICULTIES): the spread of a bot's choice of card, in
# points of its rating (the chance the front continues a run, 1/6 to 1/2, plus NUMBER_WEIGHT
# times the mean number the back hides, 2 to 3). bench/phase1_share.py measures what "normal"
# leaves a person.
SPREADS = {"easy": 0.25, "normal": 0.08, "hard": 0.02}
# At a difficulty a bot values high numbers as a person does ("the best back first"): measured
# over 60 self-play games each, a "normal" bot rating them at 0.5 won 88 % against three random
# bots (60 % at the self-play weight of 1/20) and its share (24 %) against three self-play bots.
RACING_NUMBER_WEIGHT = 0.5


class PacedBot:
    name: str
    spread = 0.0
    number_weight = 1 / 20  # self-play's, as recorded (tests/engine/lie/test_same_games.py)

    def __init__(self, rng: random.Random, pace: float = 1.0) -> None:
        self.rng = rng
        self.pace = pace

    def play_at(self, difficulty: str) -> None:
        """Choose as a bot of `difficulty` does (fairdeal.engine.bots.DIFFICULTIES)."""
        self.spread = SPREADS[difficulty]
        self.number_weight = RACING_NUMBER_WEIGHT
