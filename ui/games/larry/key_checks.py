"""What a key press at the table can be refused for before any dialog opens.

A key names a card and a way to play it; the dialogs that follow only add an announcement, a
target or a gift. So the action is checked at once with `engine.legal.check_action`, with stand-ins
for what the dialogs would ask (a total within the limit, the first other seat, the first other
card): whatever is refused then is refused for every answer a dialog could give.
"""

from __future__ import annotations

from fairdeal.engine.larry import Action, Card, CardKind, LarryView, PlayFaceDown, PlayFaceUp
from fairdeal.engine.larry.actions import ANNOUNCE_MIN
from fairdeal.engine.larry.cards import TARGETED_KINDS
from fairdeal.engine.larry.legal import check_action


def honest_total(view: LarryView, card: Card) -> int:
    """The total a face-down play of `card` would honestly announce (L6)."""
    return view.announced + (card.value if card.kind is CardKind.NUMBER else 0)


def face_down_action(view: LarryView, slot: int, card: Card, larry: bool) -> PlayFaceDown:
    """The face-down play of `slot` with an announcement the dialog would accept."""
    announce = max(ANNOUNCE_MIN, min(honest_total(view, card), view.limit))
    return PlayFaceDown(slot, announce, larry)


def is_zero_play(view: LarryView, card: Card) -> bool:
    """L12 (extended): an obliged seat plays a give away 1 that L11 bars as a 0, untargeted."""
    return card.kind is CardKind.GIVE_AWAY_1 and view.obligated[view.seat] and len(view.hand) < 3


def face_up_action(view: LarryView, slot: int, card: Card, larry: bool) -> PlayFaceUp:
    """The face-up play of `slot`, the target and gift filled in with the first candidates."""
    if card.kind not in TARGETED_KINDS or is_zero_play(view, card):
        return PlayFaceUp(slot, card.kind, None, None, larry)
    target = next(seat for seat in range(view.players) if seat != view.seat)
    give = None
    if card.kind is CardKind.GIVE_AWAY_1:
        give = next((other for other, _ in view.hand if other != slot), None)
    return PlayFaceUp(slot, card.kind, target, give, larry)


def refusal(view: LarryView, action: Action) -> str | None:
    """Why `action` is refused (the engine's reason, with its ruling), or None if it may go."""
    from fairdeal.engine import IllegalAction

    try:
        check_action(view, action)
    except IllegalAction as error:
        return error.reason
    return None


def larry_refusal(view: LarryView) -> str | None:
    """L15: "Larry!" is armed only when some play of this hand can leave exactly one card: a
    play from two cards, or a give away 1 from three (its gift goes too)."""
    size = len(view.hand)
    deck = view.deck
    gives = any(f is not None and deck[f].kind is CardKind.GIVE_AWAY_1 for _, f in view.hand)
    if size == 2 or (size == 3 and gives):
        return None
    return (
        f"you hold {size} card{'s' if size != 1 else ''}: no play of yours leaves one card now, "
        'so there is no "Larry!" to call (L15)'
    )
