"""Seating bots of a game picked by name: its bot kinds, difficulties, and the names bots sit
under. What a bot is (`Bot`, and the optional `Paced` and `Tunable`) is engine/bot.py; each
game's bots live in its package (fairdeal.engine.larry.bots, fairdeal.engine.lie.bots).
"""

from __future__ import annotations

import random

from fairdeal.engine.bot import AnyBot, Bot, Paced, Tunable
from fairdeal.engine.games import default_game, get_game

__all__ = [
    "BOT_NAMES",
    "DEFAULT_DIFFICULTY",
    "DIFFICULTIES",
    "AnyBot",
    "Bot",
    "as_bot",
    "bot_name",
    "make_bot",
    "pace_of",
]

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


def make_bot(
    spec: str, rng: random.Random, game: str | None = None, difficulty: str | None = None
) -> AnyBot:
    """A bot of `game` (the default game when None) by name ("random" or "heuristic"), playing
    at `difficulty` (one of DIFFICULTIES; None: always its best-rated move, as self-play does).
    A game's bot whose choices depend on it is `Tunable`; others play the same."""
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (choose {', '.join(DIFFICULTIES)})")
    bot = get_game(game or default_game()).make_bot(spec, rng)
    if difficulty is not None and isinstance(bot, Tunable):
        bot.play_at(difficulty)
    return bot


def pace_of(bot: AnyBot) -> float:
    """The bot's pace in seconds between simultaneous moves (1.0 when it says none)."""
    return float(bot.pace) if isinstance(bot, Paced) else 1.0
