"""The Lie's 96 cards as data (T1).

A front shows a number 1-4 on one of 4 colours; a back shows a coloured number on black, and
exactly one of the back's colour and number is true of the front. Every front appears 6 times,
once with each of its 6 lying backs (its colour with the 3 other numbers, its number in the 3
other colours), so each (front, back) pair exists exactly once and every back hides one of 6
fronts.

Card ids: front index f = colour·4 + (number − 1) (0..15); the card id is f·6 + k, where k runs
over the front's backs in this order: same colour with the other numbers ascending, then the same
number in the other colours ascending. A back index is colour·4 + (number − 1) too (0..15).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

COLOURS = 4
NUMBERS = (1, 2, 3, 4)
DEFAULT_COLOUR_NAMES: tuple[str, ...] = ("red", "yellow", "green", "blue")
DECK_SIZE = 96
BACKS = 16


@dataclass(frozen=True, slots=True)
class LieCard:
    """One card: its front (colour, number) and its lying back (back_colour, back_number)."""

    id: int
    colour: int
    number: int
    back_colour: int
    back_number: int

    @property
    def front(self) -> int:
        return self.colour * 4 + self.number - 1

    @property
    def back(self) -> int:
        return self.back_colour * 4 + self.back_number - 1


def face_index(colour: int, number: int) -> int:
    return colour * 4 + number - 1


def _build() -> tuple[LieCard, ...]:
    cards: list[LieCard] = []
    for colour in range(COLOURS):
        for number in NUMBERS:
            backs = [(colour, other) for other in NUMBERS if other != number]
            backs += [(other, number) for other in range(COLOURS) if other != colour]
            for back_colour, back_number in backs:
                cards.append(LieCard(len(cards), colour, number, back_colour, back_number))
    return tuple(cards)


DECK: tuple[LieCard, ...] = _build()
# Per card id, for the hot path: front colour, front number, back index.
COLOUR_OF: tuple[int, ...] = tuple(card.colour for card in DECK)
NUMBER_OF: tuple[int, ...] = tuple(card.number for card in DECK)
BACK_OF: tuple[int, ...] = tuple(card.back for card in DECK)


def fronts_behind(back: int) -> tuple[tuple[int, int], ...]:
    """The 6 fronts (colour, number) a back can hide (T1)."""
    return _FRONTS_BEHIND[back]


def _fronts_behind(back: int) -> tuple[tuple[int, int], ...]:
    colour, number = divmod(back, 4)
    number += 1
    fronts = [(colour, other) for other in NUMBERS if other != number]
    fronts += [(other, number) for other in range(COLOURS) if other != colour]
    return tuple(fronts)


_FRONTS_BEHIND: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    _fronts_behind(back) for back in range(BACKS)
)


def colour_letters(names: tuple[str, ...]) -> tuple[str, ...]:
    """One-letter colour codes for card names: first letters, lower case (r, y, g, b)."""
    return tuple(name[:1].lower() for name in names)


@cache
def card_names(names: tuple[str, ...] = DEFAULT_COLOUR_NAMES) -> tuple[str, ...]:
    """Each card's short name "front/back", e.g. "r3/b3" (a red 3 behind a blue-3 back)."""
    letters = colour_letters(names)
    return tuple(
        f"{letters[c.colour]}{c.number}/{letters[c.back_colour]}{c.back_number}" for c in DECK
    )


def back_name(back: int, names: tuple[str, ...] = DEFAULT_COLOUR_NAMES) -> str:
    colour, number = divmod(back, 4)
    return f"{colour_letters(names)[colour]}{number + 1}"
