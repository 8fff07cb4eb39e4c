"""The legal actions of a seat of The Lie and the check of one action, from its view alone."""

from __future__ import annotations

from fairdeal.engine.lie.actions import Action, Claim, Pass, Place, Play, Side
from fairdeal.engine.lie.cards import COLOUR_OF, NUMBER_OF
from fairdeal.engine.lie.combination import combination_fault
from fairdeal.engine.lie.rules import apply
from fairdeal.engine.lie.state import BUILD, PLAY
from fairdeal.engine.lie.view import LieView

PLACES: tuple[Action, ...] = (Place(Side.LEFT), Place(Side.RIGHT))
_PASS = Pass()  # records are immutable: one Pass serves every list


def claim_actions(view: LieView) -> tuple[Action, ...]:
    """T3: every table slot, or, with a taken card whose front is known, either end of the hand."""
    if view.can_place:
        return PLACES
    if not view.can_claim:
        return ()
    return tuple(Claim(slot) for slot in view.table)


def combinations(view: LieView) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every run of 1-3 adjacent cards of one colour in the hand: (slots, faces)."""
    slots = view.state.hands[view.seat]
    faces = view.hand_faces
    runs = []
    for start in range(len(slots)):
        colour = COLOUR_OF[faces[start]]
        for end in range(start + 1, min(start + 3, len(slots)) + 1):
            if COLOUR_OF[faces[end - 1]] != colour:
                break
            runs.append((slots[start:end], faces[start:end]))
    return runs


def play_actions(view: LieView) -> tuple[Action, ...]:
    """T5: plays this seat's own fronts allow now, and Pass unless it leads."""
    state = view.state
    seat = view.seat
    if state.phase is not PLAY or state.pending or state.order[state.position] != seat:
        return ()
    actions: list[Action] = [Play(slots) for slots in play_slots(view)]
    if state.position:
        actions.append(_PASS)
    return tuple(actions)


def play_slots(view: LieView) -> list[tuple[int, ...]]:
    """The slots of each play `play_actions` lists, in its order, without making the Plays: a
    bot that picks one makes one (a go lists about four).

    Written out (not via combinations + combination_fault) because bots call it on every go.
    The caller has checked that it is this seat's go in Phase 2.
    """
    state = view.state
    slots = state.hands[view.seat]
    lead, best = state.lead_colour, state.best
    faces = view.hand_faces
    plays: list[tuple[int, ...]] = []
    count = len(slots)
    for start in range(count):
        colour = COLOUR_OF[faces[start]]
        if lead is not None and colour != lead:
            continue
        number = NUMBER_OF[faces[start]]
        if number > best:
            plays.append(slots[start : start + 1])
        end = start + 1
        while end < count and end < start + 3 and COLOUR_OF[faces[end]] == colour:
            number = number * 10 + NUMBER_OF[faces[end]]
            end += 1
            if number > best:
                plays.append(slots[start:end])
    return plays


def legal_actions(view: LieView) -> tuple[Action, ...]:
    """Every legal action of `view.seat` now (empty when it may not act)."""
    if view.state.phase is BUILD:
        return claim_actions(view)
    return play_actions(view)


def check_action(view: LieView, action: Action) -> None:
    """Raise the IllegalAction this seat's own view already shows for `action`; else return.

    The public rules run first (phase, turn, slot taken, full hand, 1-3 adjacent cards, the
    leader's duty to play); then a play is checked on the seat's own fronts (T5: one colour, the
    lead colour, a greater number), so an honest app never sends a play that would be a Violation.
    """
    apply(view.state, view.seat, action)  # pure: the step is dropped
    if type(action) is not Play:
        return
    known = dict(view.hand)
    faces = [known.get(slot) for slot in action.slots]
    if any(face is None for face in faces):
        return
    fronts = [face for face in faces if face is not None]
    fault = combination_fault(fronts, view.lead_colour, view.best)
    if fault is not None:
        raise fault.error(view.seat, fault.reason)


__all__ = [
    "check_action",
    "claim_actions",
    "combinations",
    "legal_actions",
    "play_actions",
    "play_slots",
]
