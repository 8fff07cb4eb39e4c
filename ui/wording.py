"""Words every game's screens use: a count with its noun, a notice's seat numbers as names, a
game's title."""

from __future__ import annotations

import re
from collections.abc import Sequence

# "seat 2 starts", not "Seat 1: Ada (player), key code …" nor "you are seat 2"
_SEAT = re.compile(r"(?<!are )\bseat (\d+)\b")


def seat_names(text: str, names: Sequence[str]) -> str:
    """A table's notice with its seat numbers as the players' names ("joint coin: seat 2 starts
    hand 1" reads "joint coin: Ben starts hand 1"); a number that names no seat stays."""

    def name(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return names[index] if index < len(names) else match.group(0)

    return _SEAT.sub(name, text)


def counted(number: int, word: str, plural: str | None = None) -> str:
    """ "1 hand", "3 hands", "0 hands": a count with its noun in the right number."""
    return f"{number} {word if number == 1 else plural or word + 's'}"


def game_title(game: str) -> str:
    """The game's title; a game this fairdeal lacks is listed by its id, marked (joining it is
    refused with the reason), so that the user learns a newer fairdeal plays it."""
    from fairdeal.engine.games import game_names, get_game

    return get_game(game).title if game in game_names() else f"{game} (not here)"
