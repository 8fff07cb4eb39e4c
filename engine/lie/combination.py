"""T5's test of a combination's faces, written once for the rules and for a seat's own check."""

from __future__ import annotations

from typing import NamedTuple

from fairdeal.engine.lie import errors as E
from fairdeal.engine.lie.cards import COLOUR_OF, NUMBER_OF


class Fault(NamedTuple):
    """Why a combination cannot be played: the typed error a seat's own check raises, and why."""

    error: type[E.IllegalAction]
    reason: str


def number_of(faces: tuple[int, ...] | list[int]) -> int:
    """The number the cards form, read left to right (4 then 1 is 41)."""
    number = 0
    for face in faces:
        number = number * 10 + NUMBER_OF[face]
    return number


def combination_fault(
    faces: tuple[int, ...] | list[int], lead_colour: int | None, best: int
) -> Fault | None:
    """Why these faces cannot be played now (T5), or None when they can.

    `lead_colour` is None for the lead; `best` is the number to beat (0 before the lead).
    """
    colour = COLOUR_OF[faces[0]]
    for face in faces[1:]:
        if COLOUR_OF[face] != colour:
            return Fault(E.MixedColours, "the cards are not all of one colour (T5)")
    if lead_colour is not None and colour != lead_colour:
        return Fault(E.WrongColour, "the cards are not of the lead colour (T5)")
    number = number_of(faces)
    if number <= best:
        return Fault(E.NotGreater, f"{number} is not greater than {best} (T5)")
    return None
