"""The legal actions of a seat, computed from its view alone.

Announcements are free (L6: any integer not above the limit), so the list cannot hold them all:
it lists announcements from `announce_floor(view)` up to the limit, which covers every honest
total (the lowest card is -2) and a band of bluffs. `apply` accepts any integer from ANNOUNCE_MIN
up to the limit.

`check_action(view, action)` is the one check of a seat's own action before it is sent: the
public rules, then everything else this seat knows (the faces of its own cards). The app, the
plain-text prompts and the bots all call it, so a key press that would be a provable cheat is
refused with the reason and the ruling instead of reaching the table's fault path.
"""

from __future__ import annotations

from fairdeal.engine.larry.actions import (
    ANNOUNCE_MIN,
    AcceptOut,
    Action,
    Doubt,
    PlayFaceDown,
    PlayFaceUp,
)
from fairdeal.engine.larry.cards import ACTION_KINDS, TARGETED_KINDS, Card, CardKind, lowest_value
from fairdeal.engine.larry.errors import FalseClaim
from fairdeal.engine.larry.rules import apply, is_zero_play, stuck_under_obligation
from fairdeal.engine.larry.state import Phase
from fairdeal.engine.larry.view import LarryView


def announce_floor(view: LarryView) -> int:
    """The lowest announcement listed: the lowest honest total reachable from here."""
    state = view.state
    return max(ANNOUNCE_MIN, min(state.announced, 0) + lowest_value(state.options))


def can_doubt(view: LarryView) -> bool:
    return view.my_turn and bool(view.pile)  # L7


def doubt_actions(view: LarryView) -> tuple[Action, ...]:
    if not can_doubt(view):
        return ()
    return (Doubt(),)


def accept_actions(view: LarryView) -> tuple[Action, ...]:
    if view.my_turn and view.phase is Phase.GOING_OUT:
        return (AcceptOut(),)
    return ()


def larry_flag(cards_left: int) -> bool:
    """L15: the correct call for a play that leaves `cards_left` cards."""
    return cards_left == 1


def face_down_actions(view: LarryView) -> tuple[Action, ...]:
    if not view.my_turn or view.phase is not Phase.PLAY or view.obligated[view.seat]:
        return ()
    larry = larry_flag(len(view.hand) - 1)
    announcements = range(announce_floor(view), view.limit + 1)
    return tuple(
        PlayFaceDown(slot, announce, larry) for slot, _ in view.hand for announce in announcements
    )


def face_up_actions(view: LarryView) -> tuple[PlayFaceUp, ...]:
    """Face-up plays of cards whose face this seat knows (its own hand), with their targets."""
    if not view.my_turn or view.phase is not Phase.PLAY:
        return ()
    seat, hand = view.seat, view.hand
    deck = view.deck
    obligated = view.obligated[seat]
    others = [other for other in range(view.players) if other != seat]
    known = [(slot, deck[face].kind) for slot, face in hand if face is not None]
    if obligated and len(known) == len(hand) and stuck_under_obligation([k for _, k in known]):
        # L12 (extended): nothing playable for effect or value, so one card goes up as a 0.
        larry = larry_flag(len(hand) - 1)
        return tuple(PlayFaceUp(slot, kind, None, None, larry) for slot, kind in known)
    actions: list[PlayFaceUp] = []
    for slot, kind in known:
        if kind in ACTION_KINDS:
            if kind is CardKind.GIVE_AWAY_1:
                if len(hand) < 3:  # L11
                    continue
                larry = larry_flag(len(hand) - 2)
                actions.extend(
                    PlayFaceUp(slot, kind, target, give, larry)
                    for target in others
                    for give, _ in hand
                    if give != slot
                )
            elif kind in TARGETED_KINDS:
                larry = larry_flag(len(hand) - 1)
                actions.extend(PlayFaceUp(slot, kind, target, None, larry) for target in others)
            else:
                actions.append(PlayFaceUp(slot, kind, None, None, larry_flag(len(hand) - 1)))
        elif obligated and kind is CardKind.NUMBER:  # L12
            actions.append(PlayFaceUp(slot, kind, None, None, larry_flag(len(hand) - 1)))
    return tuple(actions)


def legal_actions(view: LarryView) -> tuple[Action, ...]:
    """Every listed legal action of `view.seat` (empty when it is not this seat's turn)."""
    if not view.my_turn:
        return ()
    if view.phase is Phase.GOING_OUT:
        return doubt_actions(view) + accept_actions(view)
    return doubt_actions(view) + face_down_actions(view) + face_up_actions(view)


def check_action(view: LarryView, action: Action) -> None:
    """Raise the engine's IllegalAction (with the reason and the ruling) unless `view.seat` may
    play `action` given all it knows; return None when it may. Changes nothing.

    First the public rules (`apply` on the view's state, whose result is dropped), then the
    seat's own faces, which the table cannot see until the card is revealed: a face-up claim
    must be what the card is, and a "nothing else is playable" play (L12) must be true of the
    whole hand.
    """
    apply(view.state, view.seat, action)
    if isinstance(action, PlayFaceUp):
        _check_claim(view, action)


KIND_NAMES = {
    CardKind.NUMBER: "a number card",
    CardKind.GLOAT: "a gloat card",
    CardKind.FACE_UP: 'a "play face-up" card',
    CardKind.PICK_UP_2: 'a "pick up 2" card',
    CardKind.GIVE_AWAY_1: 'a "give away 1" card',
    CardKind.CHANGE_DIRECTION: 'a "change direction" card',
}


def _describe(card: Card) -> str:
    if card.kind is CardKind.NUMBER:
        return f"the number card {card.value}"
    return KIND_NAMES[card.kind]


def _check_claim(view: LarryView, action: PlayFaceUp) -> None:
    seat, deck = view.seat, view.deck
    faces = dict(view.hand)
    face = faces.get(action.slot)
    if face is None:  # a card whose face this seat does not know: only the table can check it
        return
    card = deck[face]
    if card.kind is not action.claim:
        claimed = KIND_NAMES.get(action.claim, str(action.claim))
        raise FalseClaim(seat, f"that card is {_describe(card)}, not {claimed} (L6, L12)")
    if not is_zero_play(view.state, seat, action) or None in faces.values():
        return
    kinds = [deck[known].kind for known in faces.values() if known is not None]
    if not stuck_under_obligation(kinds):
        what = _describe(card)
        raise FalseClaim(
            seat,
            f"under the face-up obligation {what} goes face-up only when nothing else can: "
            "play a number or an action card, or doubt (L12)",
        )
