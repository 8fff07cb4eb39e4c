"""Plain words for cards and game events: the log, the pile and the doubt view all read from here.

Every label carries its meaning in text (a face-down card is "??", a face-up one is marked "up"),
so colour is only ever a second signal.
"""

from __future__ import annotations

from collections.abc import Sequence

from fairdeal.engine.events import Violation
from fairdeal.engine.larry import Card, CardKind
from fairdeal.engine.larry import events as ev
from fairdeal.ui.wording import counted as counted  # the games' screens say counts alike
from fairdeal.ui.wording import seat_names as seat_names

CARD_LABELS: dict[CardKind, str] = {
    CardKind.GLOAT: "GLOAT",
    CardKind.FACE_UP: "UP!",
    CardKind.PICK_UP_2: "PICK2",  # not "+2": that reads like a number card
    CardKind.GIVE_AWAY_1: "GIVE",
    CardKind.CHANGE_DIRECTION: "TURN",
}
CARD_NAMES: dict[CardKind, str] = {
    CardKind.NUMBER: "number",
    CardKind.GLOAT: "gloat card",
    CardKind.FACE_UP: "'play face-up'",
    CardKind.PICK_UP_2: "'pick up 2'",
    CardKind.GIVE_AWAY_1: "'give away 1'",
    CardKind.CHANGE_DIRECTION: "'change direction'",
}
CARD_USES: dict[CardKind, str] = {
    CardKind.GLOAT: "face-down, an odd number of them makes any total right (L8)",
    CardKind.FACE_UP: "u: the target's next card goes face-up (L12)",
    CardKind.PICK_UP_2: "u: the target picks up 2 (L10)",
    CardKind.GIVE_AWAY_1: "u: give one of your cards away (L11)",
    CardKind.CHANGE_DIRECTION: "u: reverse the direction, limit 7↔5 (L13)",
}
PICKUP_REASONS: dict[str, str] = {
    "doubt": "after the doubt",
    "over_limit": "for going over the limit (L12)",
    "pick_up_2": "('pick up 2', L10)",
    "larry": "for not calling Larry (L15)",
}


def card_label(card: Card) -> str:
    """A short face for a card box: "7", "-2", "GLOAT", "+2" …"""
    if card.kind is CardKind.NUMBER:
        return f"{card.value:+d}" if card.value < 0 else str(card.value)
    return CARD_LABELS[card.kind]


def card_name(card: Card) -> str:
    """The card in words: "a 7", "a gloat card", "a 'pick up 2'"."""
    if card.kind is CardKind.NUMBER:
        return f"a {card.value}"
    return f"a {CARD_NAMES[card.kind]}"


def gift_text(gift: ev.CardGiven, names: Sequence[str], card: Card | None) -> str:
    """A give-away (L11): the card is named to those who know it, the giver and the taker."""
    what = card_name(card) if card is not None else "a card"
    return f"{names[gift.seat]} gave {what} to {names[gift.target]} (L11)."


def card_use(card: Card) -> str:
    """What a special card does, in a few words ("" for a number card)."""
    return CARD_USES.get(card.kind, "")


def direction_text(direction: int) -> str:
    return "clockwise ↻" if direction > 0 else "counter-clockwise ↺"


def event_text(event: object, names: Sequence[str], deck: Sequence[Card]) -> str | None:
    """One log line for an engine event, or None when the event says nothing new to a player
    (or is no event of Larry's: the replay's story hands every game's events to its narrator)."""
    match event:
        case ev.HandStarted(hand, first_seat, cards):
            return f"Hand {hand}: {cards} cards each; {names[first_seat]} starts (L5)."
        case ev.PickedUp(seat, count, reason):
            noun = "card" if count == 1 else "cards"
            return f"{names[seat]} picked up {count} {noun} {PICKUP_REASONS.get(reason, reason)}."
        case ev.Reshuffled(count):
            return f"The discard pile ({count} cards) was shuffled into a new pick-up pile (L14)."
        case ev.PlayedFaceDown(seat, _slot, announce, larry):
            call = ' and called "Larry!"' if larry else ""
            return f"{names[seat]} played a card face-down and said {announce}{call}."
        case ev.PlayedFaceUp(seat, _slot, card, _claim, target, total, larry):
            against = f" against {names[target]}" if target is not None else ""
            call = ' and called "Larry!"' if larry else ""
            kind = deck[card].kind
            if kind in (CardKind.NUMBER, CardKind.GLOAT):
                return f"{names[seat]} played {card_name(deck[card])} face-up: total {total}{call}."
            return f"{names[seat]} played {card_name(deck[card])} face-up{against}{call}."
        case ev.CardGiven():
            return gift_text(event, names, None)
        case ev.DirectionChanged(direction, limit):
            return f"Direction is now {direction_text(direction)}; the limit is {limit} (L13)."
        case ev.ObligationPlaced(seat, target):
            return f"{names[target]} must play their next card face-up (L12, from {names[seat]})."
        case ev.OverLimit(seat, total, limit):
            return f"{names[seat]} went over the limit: {total} > {limit} (L12)."
        case ev.Doubted(seat, last_player):
            return f"{names[seat]} doubted {names[last_player]}'s total."
        case ev.DoubtResolved(doubter, last, announced, total, gloats, correct, loser, _cards):
            verdict = "right" if correct else "wrong"
            gloat_note = f", {counted(gloats, 'gloat card')}" if gloats else ""
            return (
                f"The pile adds up to {total} (said {announced}{gloat_note}): the total was "
                f"{verdict}. {names[loser]} picks up 2 (L9; doubter {names[doubter]}, "
                f"last player {names[last]})."
            )
        case ev.LarryPenalty(seat):
            return f'{names[seat]} forgot to call "Larry!" (L15).'
        case ev.WentOut(seat, final_doubt):
            tail = " The next player may doubt (L16)." if final_doubt else ""
            return f"{names[seat]} played their last card.{tail}"
        case ev.OutAccepted(seat):
            return f"{names[seat]} did not doubt: the hand ends (L16)."
        case ev.HandScored(hand, out_seat, hand_scores, _totals, _hands):
            scores = ", ".join(f"{names[s]} {v:+d}" for s, v in enumerate(hand_scores))
            return f"Hand {hand} over, {names[out_seat]} went out (L17): {scores}."
        case ev.GameOver(winners, _totals):
            return f"Game over. Winner: {' and '.join(names[w] for w in winners)} (L18)."
        case Violation(seat, reason, _slots, _faces):
            return f"CHEAT by {names[seat]}: {reason}. The game stops."
    return None
