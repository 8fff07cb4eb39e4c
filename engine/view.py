"""What one seat may see: its own faces, public facts and counts. Bots and UIs work on this only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.cards import Card, build_deck
from engine.options import LarryOptions
from engine.state import LarryState, Phase

Knowledge = Mapping[int, int]  # slot -> face, the cards a seat was dealt, given or shown


@dataclass(frozen=True, slots=True)
class LarryView:
    """A seat's view. Cards are (slot, face) pairs; face is None where this seat cannot know it."""

    seat: int
    players: int
    options: LarryOptions
    phase: Phase
    hand_no: int
    to_act: int | None  # the seat whose action is awaited; None while the driver works
    hand: tuple[tuple[int, int | None], ...]
    hand_sizes: tuple[int, ...]
    pile: tuple[tuple[int, int | None], ...]  # in play order; own and revealed cards have faces
    discard: tuple[tuple[int, int | None], ...]
    pickup_count: int
    limit: int
    direction: int
    announced: int
    last_player: int | None
    obligated: tuple[bool, ...]
    out_seat: int | None
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def deck(self) -> tuple[Card, ...]:
        return build_deck(self.options)

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat


def view_for(state: LarryState, knowledge: Knowledge, seat: int) -> LarryView:
    """The view of `seat`, given its private `knowledge` (slot -> face)."""
    revealed = state.revealed

    def face(slot: int) -> int | None:
        known = revealed.get(slot)
        return known if known is not None else knowledge.get(slot)

    return LarryView(
        seat=seat,
        players=state.players,
        options=state.options,
        phase=state.phase,
        hand_no=state.hand_no,
        to_act=state.to_act(),
        hand=tuple((slot, face(slot)) for slot in state.hands[seat]),
        hand_sizes=state.hand_sizes(),
        pile=tuple((slot, face(slot)) for slot in state.pile),
        discard=tuple((slot, face(slot)) for slot in state.discard),
        pickup_count=len(state.pickup),
        limit=state.limit,
        direction=state.direction,
        announced=state.announced,
        last_player=state.last_player,
        obligated=state.obligated,
        out_seat=state.out_seat,
        scores=state.scores,
        winners=state.winners,
    )
