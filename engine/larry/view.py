"""What one seat may see: the public state, its own knowledge, and nothing else.

Bots and UIs work on a LarryView only. It is computed lazily from the public state (which every
seat holds anyway) and the seat's private knowledge, so building one per turn costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from fairdeal.engine.game import Knowledge
from fairdeal.engine.larry.cards import Card, deck_of
from fairdeal.engine.larry.options import LarryOptions
from fairdeal.engine.larry.state import LarryState, Phase
from fairdeal.engine.view import CardEntry, SeatView, StateField


@dataclass(frozen=True, slots=True)
class LarryView(SeatView):
    """The view of `seat`. Card lists are (slot, face) pairs; own and revealed cards have faces."""

    seat: int
    state: LarryState
    knowledge: Knowledge

    # -- public facts, as the state has them ----------------------------------------------------
    players = StateField[int]()
    options = StateField[LarryOptions]()
    phase = StateField[Phase]()
    hand_no = StateField[int]()
    pile_seats = StateField[tuple[int, ...]]()  # who played each pile card
    pile_totals = StateField[tuple[int, ...]]()  # the total announced with each, as all heard it
    limit = StateField[int]()
    direction = StateField[int]()
    announced = StateField[int]()
    last_player = StateField[int | None]()
    obligated = StateField[tuple[bool, ...]]()
    out_seat = StateField[int | None]()
    scores = StateField[tuple[int, ...]]()
    winners = StateField[tuple[int, ...]]()

    # -- cards, as this seat sees them (its hand: SeatView.hand) ---------------------------------
    @property
    def pile(self) -> tuple[CardEntry, ...]:
        """The table pile in play order."""
        return self._cards(self.state.pile)

    @property
    def discard(self) -> tuple[CardEntry, ...]:
        return self._cards(self.state.discard)

    # -- public facts, computed ------------------------------------------------------------------
    @property
    def deck(self) -> tuple[Card, ...]:
        return deck_of(self.state.options)

    @property
    def to_act(self) -> int | None:
        """The seat whose action is awaited; None while the driver works or the game is over."""
        return self.state.to_act()

    @property
    def my_turn(self) -> bool:
        return self.state.to_act() == self.seat

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple([len(hand) for hand in self.state.hands])

    @property
    def pile_size(self) -> int:
        return len(self.state.pile)

    @property
    def pickup_count(self) -> int:
        return len(self.state.pickup)

    @property
    def discard_count(self) -> int:
        return len(self.state.discard)

    @property
    def in_front(self) -> tuple[tuple[int, ...], ...]:
        """L20: per seat, the play-face-up cards lying in front of it (face up: public)."""
        return self.state.in_front or ((),) * self.state.players


def view_for(state: LarryState, knowledge: Knowledge, seat: int) -> LarryView:
    """The view of `seat`, given its private `knowledge` (slot -> face).

    The knowledge is copied, so the view stays a snapshot while the driver learns more.
    """
    return LarryView(seat, state, MappingProxyType(dict(knowledge)))
