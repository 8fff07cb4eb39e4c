"""A mutable working copy of a LarryState for one transition, with the moves every rule shares.

The idiom is every game's (engine/transaction.py): each transition copies the state's fields into
a Transaction, applies its rule (drawing cards, clearing the pile, starting and scoring hands) and
freezes the result into a new LarryState, so the hot path makes one state object per call and no
deep copies.
"""

from __future__ import annotations

from collections.abc import Mapping

from fairdeal.engine import transaction
from fairdeal.engine.larry.cards import Card, deck_of
from fairdeal.engine.larry.deal import deal_layout
from fairdeal.engine.larry.events import (
    Event,
    GameOver,
    HandScored,
    HandStarted,
    PickedUp,
    Reshuffled,
)
from fairdeal.engine.larry.options import LarryOptions
from fairdeal.engine.larry.state import (
    NOTHING_REVEALED,
    Awaiting,
    AwaitScore,
    LarryState,
    Phase,
)
from fairdeal.engine.requests import Deal, NewDeck, Request, Reshuffle, Reveal
from fairdeal.engine.step import Step

LarryStep = Step[LarryState, Event]  # what every transition of the game returns


class Transaction(transaction.Transaction[LarryState, Event]):
    """A mutable working copy of a LarryState for one transition (engine/transaction.py)."""

    state_type = LarryState
    players: int
    options: LarryOptions
    phase: Phase
    hand_no: int
    turn: int
    hands: tuple[tuple[int, ...], ...]
    pickup: tuple[int, ...]
    pile: tuple[int, ...]
    pile_seats: tuple[int, ...]
    pile_totals: tuple[int, ...]
    discard: tuple[int, ...]
    revealed: Mapping[int, int]
    limit: int
    direction: int
    announced: int
    last_player: int | None
    obligated: tuple[bool, ...]
    out_seat: int | None
    scores: tuple[int, ...]
    last_acted: tuple[int, ...]
    actions_in_hand: int
    next_slot: int
    next_request: int
    pending: tuple[Request, ...]
    awaiting: Awaiting | None
    winners: tuple[int, ...]
    in_front: tuple[tuple[int, ...], ...]

    __slots__ = ("_deck",)

    def __init__(self, state: LarryState) -> None:
        super().__init__(state)
        self._deck: tuple[Card, ...] | None = None

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck list, looked up only by the rules that need faces (most plays do not)."""
        deck = self._deck
        if deck is None:
            deck = self._deck = deck_of(self.options)
        return deck

    # -- bookkeeping -------------------------------------------------------------------------
    def set_hand(self, seat: int, hand: tuple[int, ...]) -> None:
        hands = list(self.hands)
        hands[seat] = hand
        self.hands = tuple(hands)

    def next_seat(self, seat: int) -> int:
        return (seat + self.direction) % self.players

    def mark_acted(self, seat: int) -> None:
        acted = list(self.last_acted)
        acted[seat] = self.actions_in_hand
        self.last_acted = tuple(acted)
        self.actions_in_hand += 1

    def set_obligation(self, seat: int, value: bool) -> None:
        obligated = list(self.obligated)
        obligated[seat] = value
        self.obligated = tuple(obligated)

    def lay_in_front(self, target: int, slot: int) -> None:
        """L20: a play-face-up card lies in front of its target while the obligation lasts."""
        in_front = list(self.in_front or ((),) * self.players)
        in_front[target] = (*in_front[target], slot)
        self.in_front = tuple(in_front)

    def discard_in_front(self, seat: int | None = None) -> None:
        """L20: the obligation of `seat` (of everyone: None) ended; its cards go to the discard."""
        if not self.in_front:
            return
        in_front = list(self.in_front)
        for who in range(self.players) if seat is None else (seat,):
            self.discard = self.discard + in_front[who]
            in_front[who] = ()
        self.in_front = tuple(in_front)

    # -- card movements ----------------------------------------------------------------------
    def draw(self, seat: int, count: int, reason: str) -> None:
        """Move `count` cards from the pick-up pile to `seat`, reshuffling the discard (L14)."""
        drawn = 0
        while drawn < count:
            if not self.pickup:
                if not self.discard:
                    break  # L14: both piles empty, draw what there is
                new = self.alloc(len(self.discard))
                self.ask(Reshuffle(self.request_id(), self.discard, new))
                self.emit(Reshuffled(len(new)))
                self.pickup, self.discard = new, ()
            take = self.pickup[: count - drawn]
            self.pickup = self.pickup[len(take) :]
            self.set_hand(seat, self.hands[seat] + take)
            self.ask(Deal(self.request_id(), seat, take))
            drawn += len(take)
        self.emit(PickedUp(seat, drawn, reason))

    def clear_pile(self) -> None:
        """The pile goes to the discard pile and a new round starts at 0 (L7, L9, L12)."""
        self.discard = self.discard + self.pile
        self.pile = self.pile_seats = self.pile_totals = ()
        self.announced = 0
        self.last_player = None

    # -- hands ---------------------------------------------------------------------------------
    def start_hand(self, first: int) -> None:
        """Fresh deck in new slots, deal by L3, limit 7 clockwise (L4), `first` starts (L5).

        Where each deck position goes is `deal_layout` (fairdeal.engine.larry.deal).
        """
        n = self.players
        per_player = self.options.cards_per_player(n)
        slots = self.alloc(len(self.deck))
        self.ask(NewDeck(self.request_id(), slots))
        hands, pickup = deal_layout(n, per_player, len(slots)).slots(slots[0])
        for seat, hand in enumerate(hands):
            self.ask(Deal(self.request_id(), seat, hand))
        self.hands = hands
        self.pickup = pickup
        self.pile = self.discard = self.pile_seats = self.pile_totals = ()
        self.revealed = NOTHING_REVEALED
        self.limit = self.options.limits[0]
        self.direction = 1
        self.announced = 0
        self.last_player = None
        self.obligated = (False,) * n
        self.in_front = ((),) * n
        self.out_seat = None
        self.last_acted = (-1,) * n
        self.actions_in_hand = 0
        self.turn = first
        self.phase = Phase.PLAY
        self.awaiting = None
        self.emit(HandStarted(self.hand_no, first, per_player))

    def end_hand(self, out_seat: int) -> None:
        """L16: the hand is over; reveal what is left in the hands for L17 scoring."""
        self.phase = Phase.SCORING
        self.out_seat = out_seat
        self.discard_in_front()  # L20: the end of the hand ends every obligation
        hidden = tuple(slot for hand in self.hands for slot in hand if slot not in self.revealed)
        if hidden:
            self.awaiting = AwaitScore(out_seat)
            self.ask(Reveal(self.request_id(), hidden, "score"))
        else:
            self.score_hand(out_seat)

    def score_hand(self, out_seat: int) -> None:
        """L17 scoring, then L18 (game over?) and L5 (who starts the next hand)."""
        self.awaiting = None
        faces = tuple(tuple(self.revealed[slot] for slot in hand) for hand in self.hands)
        hand_scores = tuple(
            2 if seat == out_seat else -sum(self.deck[face].symbols for face in faces[seat])
            for seat in range(self.players)
        )
        totals = tuple(a + b for a, b in zip(self.scores, hand_scores, strict=True))
        self.scores = totals
        self.emit(HandScored(self.hand_no, out_seat, hand_scores, totals, faces))
        options: LarryOptions = self.options
        if options.short_game or self.hand_no >= options.hands:
            if options.short_game:
                winners: tuple[int, ...] = (out_seat,)  # L18 short game
            else:
                best = max(totals)
                winners = tuple(seat for seat, total in enumerate(totals) if total == best)
            self.winners = winners
            self.phase = Phase.GAME_OVER
            self.emit(GameOver(winners, totals))
            return
        # L5: most minus points overall (lowest total); ties: who acted most recently.
        first = min(
            range(self.players),
            key=lambda seat: (totals[seat], -self.last_acted[seat]),
        )
        self.hand_no += 1
        self.start_hand(first)
