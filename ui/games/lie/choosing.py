"""What a key of The Lie's table may choose in a view: the card under Phase 1's cursor, and
Phase 2's legal selections of adjacent cards of one colour (T5), as positions in the hand."""

from __future__ import annotations

from fairdeal.engine.lie import LieView, Play, legal_actions
from fairdeal.engine.lie.cards import DECK


def nearest_card(view: LieView, position: int) -> int:
    """`position` if it still holds a card, else the nearest position with one: a card taken
    from under the cursor moves the cursor on (the hint says who took it)."""
    state = view.state
    layout = state.layout
    if not layout:
        return 0
    position = max(0, min(position, len(layout) - 1))
    if layout[position] in state.table:
        return position
    on_table = set(state.table)
    for step in range(len(layout)):
        for candidate in (position + step, position - step):
            if 0 <= candidate < len(layout) and layout[candidate] in on_table:
                return candidate
    return position


def hand_colours(view: LieView) -> list[int]:
    """The colour of each card of the hand, -1 for one whose front is still on its way."""
    return [DECK[face].colour if face >= 0 else -1 for face in view.hand_faces]


def run_ok(view: LieView, start: int, length: int) -> bool:
    """Whether `length` cards from `start` make a combination: 1-3 adjacent, one colour (T5)."""
    colours = hand_colours(view)
    if not 1 <= length <= 3 or start < 0 or start + length > len(colours):
        return False
    return len(set(colours[start : start + length])) == 1


def legal_plays(view: LieView) -> list[tuple[int, int]]:
    """Every legal play as (start index, length), left to right, shorter first."""
    index = {slot: i for i, slot in enumerate(view.state.hands[view.seat])}
    plays = [
        (index[action.slots[0]], len(action.slots))
        for action in legal_actions(view)
        if isinstance(action, Play)
    ]
    return sorted(plays)


def playable_indices(view: LieView) -> set[int]:
    """The positions in the hand that some legal play uses."""
    return {start + k for start, length in legal_plays(view) for k in range(length)}
