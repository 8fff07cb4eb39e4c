"""How The Lie's cards look in the terminal (T1), written once for every Lie widget.

A back is its coloured number on black; a front is the number on its coloured background. Both
carry the colour's letter (r3, y1, g4, b2), so colour is never the only signal.
"""

from __future__ import annotations

from rich.text import Text

from fairdeal.engine.lie.cards import DECK, colour_letters

# Terminal colours for the 4 card colours, in the engine's colour order (red, yellow, green, blue).
INKS: tuple[str, ...] = ("#ff5f5f", "#ffd75f", "#5fd75f", "#5fafff")
PAPERS: tuple[str, ...] = ("#d70000", "#d7af00", "#00af00", "#0087ff")


def letters_for(names: tuple[str, ...]) -> tuple[str, ...]:
    return colour_letters(names)


def back_label(back: int, letters: tuple[str, ...]) -> str:
    colour, number = divmod(back, 4)
    return f"{letters[colour]}{number + 1}"


def back_text(back: int, letters: tuple[str, ...]) -> Text:
    """A card's back: its coloured number on black."""
    return Text(back_label(back, letters), style=f"bold {INKS[back // 4]} on black")


PENDING = "··"  # a claimed card whose front is still on its way (a networked table, T3)


def front_label(face: int, letters: tuple[str, ...]) -> str:
    if not 0 <= face < len(DECK):
        return PENDING
    card = DECK[face]
    return f"{letters[card.colour]}{card.number}"


def front_text(face: int, letters: tuple[str, ...]) -> Text:
    """A card's front: its number on its coloured background. A front not known yet (-1: the
    others' shares for a claimed card have not all arrived) shows as ··."""
    if not 0 <= face < len(DECK):
        return Text(PENDING, style="dim")
    return Text(front_label(face, letters), style=f"bold black on {PAPERS[DECK[face].colour]}")


def fronts_text(faces: tuple[int, ...] | list[int], letters: tuple[str, ...]) -> Text:
    """Several fronts side by side, as a play shows them ("r4 r1")."""
    text = Text()
    for index, face in enumerate(faces):
        if index:
            text.append(" ")
        text.append_text(front_text(face, letters))
    return text


def backs_text(
    backs: tuple[int, ...] | list[int], letters: tuple[str, ...], gap: str = " "
) -> Text:
    text = Text()
    for index, back in enumerate(backs):
        if index:
            text.append(gap)
        text.append_text(back_text(back, letters))
    return text


def ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")
