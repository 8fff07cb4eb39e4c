"""What one seat may see: the public state, its own knowledge, and nothing else.

Bots and UIs work on a LarryView only. It is computed lazily from the public state (which every
seat holds anyway) and the seat's private knowledge, so building one per turn costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from fairdeal.engine.game import CardEntry, Knowledge, card_entries
from fairdeal.engine.larry.cards import Card, deck_of
from fairdeal.engine.larry.options import LarryOptions
from fairdeal.engine.larry.state import LarryState, Phase


@dataclass(frozen=True, slots=True)
class LarryView:
    """The view of `seat`. Card lists are (slot, face) pairs; own and revealed cards have faces."""

    seat: int
    state: LarryState
    knowledge: Knowledge

    def _cards(self, slots: tuple[int, ...]) -> tuple[CardEntry, ...]:
        return card_entries(self.state.revealed, self.knowledge, slots)

    # -- this seat's cards -----------------------------------------------------------------------
    @property
    def hand(self) -> tuple[CardEntry, ...]:
        return self._cards(self.state.hands[self.seat])

    @property
    def pile(self) -> tuple[CardEntry, ...]:
        """The table pile in play order."""
        return self._cards(self.state.pile)

    @property
    def discard(self) -> tuple[CardEntry, ...]:
        return self._cards(self.state.discard)

    # -- public facts ----------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.state.players

    @property
    def options(self) -> LarryOptions:
        return self.state.options

    @property
    def deck(self) -> tuple[Card, ...]:
        return deck_of(self.state.options)

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def hand_no(self) -> int:
        return self.state.hand_no

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
    def pile_seats(self) -> tuple[int, ...]:
        """Who played each pile card."""
        return self.state.pile_seats

    @property
    def pile_totals(self) -> tuple[int, ...]:
        """The total announced with each pile card, as everyone heard it."""
        return self.state.pile_totals

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
    def limit(self) -> int:
        return self.state.limit

    @property
    def direction(self) -> int:
        return self.state.direction

    @property
    def announced(self) -> int:
        return self.state.announced

    @property
    def last_player(self) -> int | None:
        return self.state.last_player

    @property
    def obligated(self) -> tuple[bool, ...]:
        return self.state.obligated

    @property
    def in_front(self) -> tuple[tuple[int, ...], ...]:
        """L20: per seat, the play-face-up cards lying in front of it (face up: public)."""
        return self.state.in_front or ((),) * self.state.players

    @property
    def out_seat(self) -> int | None:
        return self.state.out_seat

    @property
    def scores(self) -> tuple[int, ...]:
        return self.state.scores

    @property
    def winners(self) -> tuple[int, ...]:
        return self.state.winners


def view_for(state: LarryState, knowledge: Knowledge, seat: int) -> LarryView:
    """The view of `seat`, given its private `knowledge` (slot -> face).

    The knowledge is copied, so the view stays a snapshot while the driver learns more.
    """
    return LarryView(seat, state, MappingProxyType(dict(knowledge)))
