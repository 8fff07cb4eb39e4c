"""One Larry action checked against its seat's own view, before anything is sent.

The public rules run first (`apply` on the view's public state: turn, limit, targets, L11, L15 …);
then what only this seat can see: a face-up claim must be the kind of the card's face (L6, L12),
and a gloat or zero play under L12 must leave nothing else playable. Raises the typed error.
"""

from __future__ import annotations

from fairdeal.engine.larry import errors as E
from fairdeal.engine.larry.actions import Action, PlayFaceUp
from fairdeal.engine.larry.cards import CardKind
from fairdeal.engine.larry.rules import apply, stuck_under_obligation
from fairdeal.engine.larry.view import LarryView


def check_action(view: LarryView, action: Action) -> None:
    """Raise the IllegalAction this seat's own view already shows for `action`; else return."""
    apply(view.state, view.seat, action)  # pure: the step is dropped
    if not isinstance(action, PlayFaceUp):
        return
    faces = dict(view.hand)
    face = faces.get(action.slot)
    if face is None:
        return
    deck = view.deck
    kind = deck[face].kind
    if kind is not action.claim:
        raise E.BadClaim(view.seat, f"that card is {deck[face].name}, not {action.claim.value}")
    if action.claim is CardKind.GLOAT or (
        action.claim is CardKind.GIVE_AWAY_1 and action.target is None
    ):
        kinds = [deck[f].kind for f in faces.values() if f is not None]
        if not stuck_under_obligation(kinds):
            raise E.BadClaim(view.seat, "another card of your hand can be played face-up (L12)")
