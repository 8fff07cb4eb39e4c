"""The public state of a game of The Lie: what every seat knows. Immutable (frozen, tuples).

Hidden cards are slots (ints, never reused); every slot's back is public (`backs`, T1, T3) and
its front enters `revealed` only through a Reveal. Like LarryState, LieState keeps a __dict__
(no __slots__) so that the rules can build the next state by copying it, the fast way
(engine/lie/transaction.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from fairdeal.engine.lie import errors as E
from fairdeal.engine.lie.options import MAX_PLAYERS, LieOptions
from fairdeal.engine.records import quick_init
from fairdeal.engine.requests import Deal, Request
from fairdeal.engine.step import Step

__all__ = [
    "BUILD",
    "FINISHED_PHASES",
    "PLAY",
    "AwaitArrange",
    "AwaitPlay",
    "AwaitScore",
    "Awaiting",
    "LieState",
    "Phase",
    "Step",
    "TrickPlay",
]


class Phase(StrEnum):
    BUILD = "build"  # Phase 1: every seat with room claims cards and places them (T3)
    PLAY = "play"  # Phase 2: tricks (T5)
    SCORING = "scoring"  # the prize cards are being revealed (T10)
    GAME_OVER = "game_over"
    ABORTED = "aborted"  # a Violation stopped the game


@quick_init
@dataclass(frozen=True, slots=True)
class TrickPlay:
    """One play of the current trick: who, which slots, the number they formed."""

    seat: int
    slots: tuple[int, ...]
    number: int


@quick_init
@dataclass(frozen=True, slots=True)
class AwaitPlay:
    """A play waits for its cards' faces."""

    seat: int
    slots: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class AwaitArrange:
    """An Arrange waits for its order: "layout" (the table) or "prize_pile" (T4)."""

    reason: str


@quick_init
@dataclass(frozen=True, slots=True)
class AwaitScore:
    """The game is over; the prize cards are being revealed (T10)."""


Awaiting = AwaitPlay | AwaitArrange | AwaitScore

NOTHING: Mapping[int, int] = MappingProxyType({})
FINISHED_PHASES = frozenset({Phase.GAME_OVER, Phase.ABORTED})
# The phases the hot paths test, as module constants: `Phase.BUILD` is the enum class's attribute
# lookup (about 0.1 µs), a global a fifth of that, and the self-play loop asks several per move.
BUILD, PLAY = Phase.BUILD, Phase.PLAY
# `actors` for a table where every seat may act, by the number of seats: most moves of Phase 1.
_SEATS = tuple(tuple(range(players)) for players in range(MAX_PLAYERS + 1))


@dataclass(frozen=True)
class LieState:
    players: int
    options: LieOptions
    phase: Phase
    round_no: int  # 1-based (T9)
    backs: Mapping[int, int]  # slot -> back index, public, for every live slot (T1)
    layout: tuple[int, ...]  # this round's slots in table position order (set by Arrange)
    table: tuple[int, ...]  # the slots still on the table, in layout order (T3)
    hands: tuple[tuple[int, ...], ...]  # per seat, left to right; never re-ordered (T3)
    # per seat, the slot it took and has not placed yet (T3: it sees the front, then places it)
    unplaced: tuple[int | None, ...]
    first_done: int | None  # the first seat with a full hand (T3); leads trick 1
    prize_pile: tuple[int, ...]  # top first (T4)
    prizes: tuple[tuple[int, ...], ...]  # prize cards won so far, per seat, unseen (T8)
    discard: tuple[int, ...]
    trick_no: int  # 1-based within the round; 0 in Phase 1
    trick: tuple[TrickPlay, ...]  # the plays of the current trick, in order
    order: tuple[int, ...]  # the seats that have a go in this trick, leader first (T5)
    position: int  # index into `order` of the seat to act
    lead_colour: int | None
    best: int  # the number to beat (0 before the lead)
    best_seat: int | None
    placement: tuple[int, ...]  # seats out this round, in order (T6)
    revealed: Mapping[int, int]  # slot -> face, public
    scores: tuple[int, ...]  # points per seat, known once the game is over (T10)
    winners: tuple[int, ...]
    next_slot: int
    next_request: int
    pending: tuple[Request, ...]
    awaiting: Awaiting | None

    def __post_init__(self) -> None:
        # Built from outside (decoded data, tests): make the mappings read-only too.
        for name in ("backs", "revealed"):
            value = getattr(self, name)
            if not isinstance(value, MappingProxyType):
                object.__setattr__(self, name, MappingProxyType(dict(value)))

    @property
    def over(self) -> bool:
        return self.phase in FINISHED_PHASES

    @property
    def rounds(self) -> int:
        """The rounds begun, this one included (T9; engine/game.py `PublicState`)."""
        return self.round_no

    @property
    def turn(self) -> int | None:
        """The seat whose go it is in Phase 2 (None otherwise)."""
        if self.phase is not PLAY or not self.order:
            return None
        return self.order[self.position]

    def claims_open(self) -> bool:
        """Phase 1 and nothing but deals outstanding: claims may come (T3)."""
        if self.phase is not BUILD:
            return False
        # A loop, not all(): asked on every claim and bot move, and a generator costs 1 µs.
        for request in self.pending:  # noqa: SIM110
            if type(request) is not Deal:
                return False
        return True

    def dealing_to(self, seat: int) -> bool:
        """Is a card `seat` took still being dealt to it (its Deal not answered yet, T3)?"""
        return any(type(request) is Deal and request.seat == seat for request in self.pending)

    def held(self, seat: int, settling: int = 0) -> int:
        """T3: the cards that count against `seat`'s hand: placed, taken but not placed, and
        `settling` claims a networked table has not decided yet."""
        return len(self.hands[seat]) + (self.unplaced[seat] is not None) + settling

    def room(self, seat: int, settling: int = 0) -> int:
        """T3: how many more cards `seat` may take before its hand is full (see `held`)."""
        return self.options.hand_size - self.held(seat, settling)

    def front_known(self, seat: int) -> bool:
        """Has `seat`'s unplaced card been dealt to it (its Deal answered), so it may Place (T3)?"""
        slot = self.unplaced[seat]
        if slot is None:
            return False
        for request in self.pending:
            if type(request) is Deal and request.seat == seat and slot in request.slots:
                return False
        return True

    def actors(self) -> tuple[int, ...]:
        """The seats that may act now, else the one to go.

        Phase 1: every seat with room and nothing to place (it may claim) and every seat whose
        taken card's front it knows (it may place); not a seat whose card is still being dealt.
        """
        if self.phase is BUILD:
            pending = self.pending
            unplaced = self.unplaced
            size = self.options.hand_size
            if not pending:  # the common case (a local table serves every request at once)
                if max(map(len, self.hands)) < size:  # every hand has room: every seat may act
                    return _SEATS[self.players]
                return tuple(
                    [
                        seat
                        for seat, hand in enumerate(self.hands)
                        if unplaced[seat] is not None or len(hand) < size
                    ]
                )
            dealing = set()
            for request in pending:
                if type(request) is not Deal:
                    return ()
                dealing.add(request.seat)
            # With nothing unplaced, `room` (above) is the hand size less the hand: written out,
            # as actors is asked before every move of Phase 1.
            return tuple(
                [
                    seat
                    for seat, hand in enumerate(self.hands)
                    if (unplaced[seat] is None and len(hand) < size)
                    or (unplaced[seat] is not None and seat not in dealing)
                ]
            )
        if self.pending or self.phase is not PLAY:
            return ()
        return (self.order[self.position],)

    def to_act(self) -> int | None:
        """The single seat awaited in Phase 2; None in Phase 1 (see actors), pending or over."""
        if self.pending or self.phase is not PLAY:
            return None
        return self.order[self.position]

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(hand) for hand in self.hands)

    def trick_slots(self) -> list[int]:
        return [slot for play in self.trick for slot in play.slots]

    def all_slots(self) -> list[int]:
        """Every live slot: table, hands, unplaced cards, trick, discard, prize pile, prizes won."""
        slots = list(self.table)
        for hand in self.hands:
            slots.extend(hand)
        slots.extend([slot for slot in self.unplaced if slot is not None])
        slots.extend(self.trick_slots())
        slots.extend(self.discard)
        slots.extend(self.prize_pile)
        for won in self.prizes:
            slots.extend(won)
        return slots


# T3's one rule for taking a card from the table. The engine's own check of a Claim
# (engine/lie/rules.py), the view's `can_claim` and the legal actions (engine/lie/view.py,
# engine/lie/legal.py) all ask it; so may a table or an app that keeps claims of its own still
# being decided (`settling`).
def claim_refusal(
    state: LieState, seat: int, *, settling: int = 0, placing: bool = False
) -> E.IllegalAction | None:
    """Why `seat` may not take a card now, as the typed error a Claim would raise; None: it may.

    `settling`: claims of this seat a networked table has sent and not decided yet; they count
    against the hand. `placing`: the same move also places the seat's last card taken (a
    networked step carries both), so an unplaced card whose front is known does not forbid it.
    Which slot is claimed is not asked here: a slot no longer on the table is SlotTaken.
    """
    if state.phase is not BUILD:
        return E.NotBuilding(seat, "cards are taken from the table only in Phase 1 (T3)")
    if not state.claims_open():
        return E.WaitingForDriver(seat, "the table is still being laid out")
    unplaced = state.unplaced[seat]
    if unplaced is not None:
        if not placing:
            return E.PlaceFirst(
                seat, f"place your last card (slot {unplaced}) before taking another (T3)"
            )
        if not state.front_known(seat):
            return E.WaitingForDriver(seat, f"the front of slot {unplaced} is still being dealt")
    size = state.options.hand_size
    # LieState.held written out (this is asked on every claim): placed, unplaced, settling.
    if len(state.hands[seat]) + (unplaced is not None) + settling >= size:
        return E.HandFull(seat, f"your hand is complete: {size} cards (T3)")
    return None
