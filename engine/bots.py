"""The bot interface: a bot chooses an action from one seat's view only.

A bot never sees the public state beyond its view, nor other hands. `pace` is how long (seconds)
the bot takes between moves where players act at the same time (The Lie's Phase 1), so humans can
play against it in real time; self-play uses it as simulated time. Each game's bots live in its
package (fairdeal.engine.larry.bots, fairdeal.engine.lie.bots).
"""

from __future__ import annotations

import random
from typing import Any, Protocol, TypeAlias, TypeVar

# How hard the bots at a table are to race (where seats act at once): how far each strays from the
# move it rates best, so bots do not all reach for the same card, by the game's bots (`play_at`),
# and how fast it reacts (fairdeal.p2p.table.runtime.reaction).
# "normal" races like a practised person.
DIFFICULTIES = ("easy", "normal", "hard")
DEFAULT_DIFFICULTY = "normal"

BOT_NAMES = ("Ada", "Ben", "Cleo", "Dov", "Eli", "Fay", "Gus", "Hal")


def bot_name(index: int) -> str:
    """The display name of the `index`-th bot at a table, however it sat down: "Ada (bot)"."""
    first = BOT_NAMES[index] if index < len(BOT_NAMES) else f"Bot {index + 1}"
    return f"{first} (bot)"


def as_bot(name: str) -> str:
    """A person's name on a seat a bot plays for them: "Ann (bot)"."""
    return name if name.endswith("(bot)") else f"{name} (bot)"


View_contra = TypeVar("View_contra", contravariant=True)  # a bot only reads its view
Action_co = TypeVar("Action_co", covariant=True)  # and only makes actions


class Bot(Protocol[View_contra, Action_co]):
    """A bot of one game: it reads that game's views and chooses that game's actions."""

    name: str

    def choose(self, view: View_contra) -> Action_co:
        """An action for `view.seat`, which may act now."""
        ...


# A bot of a game picked by name at run time, whose types only the game knows.
AnyBot: TypeAlias = Bot[Any, Any]


def make_bot(
    spec: str, rng: random.Random, game: str | None = None, difficulty: str | None = None
) -> AnyBot:
    """A bot of `game` (the default game when None) by name ("random" or "heuristic"), playing
    at `difficulty` (one of DIFFICULTIES; None: always its best-rated move, as self-play does).
    A game's bot whose choices depend on it has `play_at(difficulty)`; others play the same."""
    from fairdeal.engine.games import default_game, get_game

    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (choose {', '.join(DIFFICULTIES)})")
    bot = get_game(game or default_game()).make_bot(spec, rng)
    play_at = getattr(bot, "play_at", None)
    if difficulty is not None and play_at is not None:
        play_at(difficulty)
    return bot


def pace_of(bot: AnyBot) -> float:
    """The bot's pace in seconds between simultaneous moves (1.0 when it says none)."""
    pace = getattr(bot, "pace", 1.0)
    return float(pace)
