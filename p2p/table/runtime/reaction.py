"""How long a bot takes over a move where every seat acts at once: a person's reaction time.

A race against bots is fair when the bots are about as quick as a practised person and not
clockwork: each of their moves waits a time drawn from a human-like distribution, never a fixed
pace. The distribution is the ex-Gaussian, a normal part (seeing and pressing: mu, sigma) plus an
exponential tail (the odd slow decision: tau). It is the usual fit of human response times,
skewed to the right with a long tail (Ratcliff 1979, "Group reaction time distributions and an
analysis of distribution statistics", Psychological Bulletin 86(3):446-461; Luce 1986, "Response
Times", Oxford University Press; Heathcote, Popiel & Mewhort 1991, "Analysis of response time
distributions: an example using the Stroop task", Psychological Bulletin 109(2):340-347). No
draw is shorter than FLOOR: answers under 100 ms are anticipations, not reactions, and reaction
time studies drop them (Whelan 2008, "Effective analysis of reaction time data", The
Psychological Record 58:475-482).

A racing move has two parts of different length. Choosing one card among up to 16 kinds of back
takes longer than choosing between two ends of a hand: choice reaction time grows with the
information in the choice (Hick 1952, "On the rate of gain of information", Quarterly Journal of
Experimental Psychology 4(1):11-26; Hyman 1953, "Stimulus information as a determinant of
reaction time", Journal of Experimental Psychology 45(3):188-196), about 4 bits against 1.

At "normal" a take-and-place averages 1.0 s (0.7 s to choose and take, 0.3 s to place), a
practised player's pace at a keyboard, the 0.8-1.2 s of the person bench/phase1_share.py races;
"easy" is 1.6 times slower, "hard" 0.65 times. The parameters' shape (sigma about a sixth of mu,
tau about a third of the mean) is that of the fits cited; the means are chosen, not fitted.

Every draw takes an injected `random.Random`: tests and benchmarks seed it, a table draws from
the operating system's generator (`secrets`' source).
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field

FLOOR = 0.1  # seconds: nothing faster is a reaction


@dataclass(frozen=True, slots=True)
class ExGaussian:
    """A reaction time: Normal(mu, sigma) + Exponential(mean tau), in seconds, at least FLOOR."""

    mu: float
    sigma: float
    tau: float

    @property
    def mean(self) -> float:
        return self.mu + self.tau

    def draw(self, rng: random.Random) -> float:
        return max(FLOOR, rng.gauss(self.mu, self.sigma) + rng.expovariate(1.0 / self.tau))

    def scaled(self, factor: float) -> ExGaussian:
        return ExGaussian(self.mu * factor, self.sigma * factor, self.tau * factor)


@dataclass(frozen=True, slots=True)
class Reactions:
    """A bot's reaction times in a race: to choose and take a card, and to follow it up (place
    the card it took, whose front it now sees)."""

    choose: ExGaussian
    follow_up: ExGaussian

    def draw(self, rng: random.Random, *, follow_up: bool) -> float:
        return (self.follow_up if follow_up else self.choose).draw(rng)

    @property
    def mean(self) -> float:
        """The mean time of one whole move: a choice and its follow-up."""
        return self.choose.mean + self.follow_up.mean


NORMAL = Reactions(
    choose=ExGaussian(mu=0.48, sigma=0.08, tau=0.22),
    follow_up=ExGaussian(mu=0.20, sigma=0.035, tau=0.10),
)
SPEED = {"easy": 1.6, "normal": 1.0, "hard": 0.65}  # per difficulty: how much slower than normal


def reactions(difficulty: str) -> Reactions:
    """The reaction times of bots at `difficulty` (fairdeal.engine.bots.DIFFICULTIES)."""
    factor = SPEED[difficulty]
    return Reactions(NORMAL.choose.scaled(factor), NORMAL.follow_up.scaled(factor))


@dataclass(frozen=True)
class BotTiming:
    """How long a seat's bot waits before a move: `bot_delay` on a turn of its own (so people
    can follow); where seats act at once, a reaction time drawn from `reactions` with `rng`, or,
    without reactions, the fixed `claim_pace` (0: as fast as allowed, as headless tables,
    simulations and benchmarks race)."""

    bot_delay: float = 0.0
    claim_pace: float = 0.0
    reactions: Reactions | None = None
    rng: random.Random = field(default_factory=secrets.SystemRandom)

    def __post_init__(self) -> None:
        if self.bot_delay < 0 or self.claim_pace < 0:
            raise ValueError("the bot delay and the claim pace cannot be negative")

    def waits(self, at_once: bool) -> bool:
        """Whether the bot waits at all before its next move."""
        if not at_once:
            return self.bot_delay > 0
        return self.reactions is not None or self.claim_pace > 0

    def delay(self, at_once: bool, *, follow_up: bool = False) -> float:
        """The seconds the bot waits before its next move (`follow_up`: a quick one)."""
        if not at_once:
            return self.bot_delay
        if self.reactions is None:
            return self.claim_pace
        return self.reactions.draw(self.rng, follow_up=follow_up)
