"""The Lie's events in plain words for the table's log (fronts only where they are public)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fairdeal.engine.lie import events as ev
from fairdeal.p2p.games.lie.events import ClaimVoid
from fairdeal.ui.games.lie.widgets.cards import back_label, front_label, ordinal


def lie_event_text(
    event: object, names: list[str], letters: tuple[str, ...], colour_names: tuple[str, ...]
) -> str:
    """One log line for `event`, or "" for events the screen shows in other ways."""
    if isinstance(event, ev.RoundStarted):
        return f"Round {event.round}: {event.cards} cards lie on the table, backs up. Grab them!"
    if isinstance(event, ev.HandComplete):
        if event.first:
            return f'{names[event.seat]}: "Done!" A full hand first: leads trick 1 (T3).'
        return f"{names[event.seat]} has a full hand."
    if isinstance(event, ev.PrizePileFormed):
        return f"The {len(event.slots)} cards left over form the prize pile, face down (T4)."
    if isinstance(event, ev.TrickStarted):
        return f"Trick {event.trick}: {names[event.leader]} leads."
    if isinstance(event, ev.Played):
        cards = " ".join(front_label(face, letters) for face in event.cards)
        return f"{names[event.seat]} plays {cards} = {event.number} ({colour_names[event.colour]})."
    if isinstance(event, ev.Passed):
        return f"{names[event.seat]} passes."
    if isinstance(event, ev.TrickWon):
        return f"{names[event.seat]} wins the trick with {event.number}."
    if isinstance(event, ev.WentOut):
        return f"{names[event.seat]} is out: {ordinal(event.place)} place (T6)."
    if isinstance(event, ev.RoundEnded):
        order = ", ".join(
            f"{ordinal(place)} {names[seat]}" for place, seat in enumerate(event.placement, 1)
        )
        return f"Round {event.round} is over: {order}."
    if isinstance(event, ev.PrizesTaken):
        count = len(event.slots)
        return f"{names[event.seat]} takes {count} prize card{'s' * (count != 1)}, unseen (T8)."
    if isinstance(event, ev.GameOver):
        verb = "wins" if len(event.winners) == 1 else "win"
        return f"Game over: {' and '.join(names[s] for s in event.winners)} {verb} (T10)."
    if isinstance(event, ev.Violation):
        return f"VIOLATION by {names[event.seat]}: {event.reason}"
    return ""


def claim_void_text(
    event: ClaimVoid,
    names: Sequence[str],
    backs: Mapping[int, int] | Sequence[int],
    letters: tuple[str, ...],
) -> str:
    """A void claim in the players' words (T3): "Ada and Tess went for the r1 at the same moment:
    Tess won the draw (T3)", or "Tess was too late for the y2: someone took it first (T3)"."""
    try:
        card = f"the {back_label(backs[event.slot], letters)}"
    except (IndexError, KeyError):  # a slot the view does not know any more: its number
        card = f"slot {event.slot}"
    if event.winner is None:
        return f"{names[event.seat]} was too late for {card}: someone took it first (T3)"
    return (
        f"{names[event.seat]} and {names[event.winner]} went for {card} at the same moment: "
        f"{names[event.winner]} won the draw (T3)"
    )
