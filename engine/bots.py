"""The bot interface: a bot chooses an action from one seat's view only.

A bot never sees the public state beyond its view, nor other hands. `pace` is how long (seconds)
the bot takes between moves where players act at the same time (The Lie's Phase 1), so humans can
play against it in real time; self-play uses it as simulated time. Each game's bots live in its
package (fairdeal.engine.larry.bots, fairdeal.engine.lie.bots).
"""

from __future__ import annotations

import random
from typing import Any, Protocol, TypeAlias, TypeVar

BOT_NAMES = ("Ada", "Ben", "Cleo", "Dov", "Eli", "Fay", "Gus", "Hal")


def bot_name(index: int) -> str:
    """The display name of the `index`-th bot at a table, however it sat down: "Ada (bot)"."""
    first = BOT_NAMES[index] if index < len(BOT_NAMES) else f"Bot {index + 1}"
    return f"{first} (bot)"


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


def make_bot(spec: str, rng: random.Random, game: str | None = None) -> AnyBot:
    """A bot of `game` (the default game when None) by name ("random" or "heuristic")."""
    from fairdeal.engine.games import default_game, get_game

    return get_game(game or default_game()).make_bot(spec, rng)


def pace_of(bot: AnyBot) -> float:
    """The bot's pace in seconds between simultaneous moves (1.0 when it says none)."""
    pace = getattr(bot, "pace", 1.0)
    return float(pace)
