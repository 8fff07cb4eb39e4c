"""The public state of a game of Larry: what every seat knows. Immutable (frozen, tuples).

Hidden cards are slots (ints). `revealed` maps the slots opened so far in this hand to faces.
LarryState is frozen but keeps a __dict__ (no __slots__): the rules build the next state by
filling a fresh instance's __dict__ in one step, which is several times faster than __init__.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from fairdeal.engine.larry.actions import PlayFaceUp
from fairdeal.engine.larry.options import LarryOptions
from fairdeal.engine.requests import Request
from fairdeal.engine.step import Step

__all__ = [
    "FINISHED_PHASES",
    "NOTHING_REVEALED",
    "AwaitDoubt",
    "AwaitFaceUp",
    "AwaitScore",
    "Awaiting",
    "LarryState",
    "Phase",
    "Step",
]


class Phase(StrEnum):
    PLAY = "play"  # `turn` doubts or plays a card (L6)
    GOING_OUT = "going_out"  # `out_seat` went out; `turn` may doubt or accept (L16)
    SCORING = "scoring"  # waiting for the faces left in the hands (L17)
    GAME_OVER = "game_over"  # L18
    ABORTED = "aborted"  # a Violation stopped the game


@dataclass(frozen=True, slots=True)
class AwaitDoubt:
    """A doubt is waiting for the pile's faces."""

    doubter: int


@dataclass(frozen=True, slots=True)
class AwaitFaceUp:
    """A face-up play is waiting for its card's face (and, for a gloat claim, the hand's)."""

    seat: int
    play: PlayFaceUp
    left: int  # cards left in hand once the play (and gift) leave it
    forced: bool  # L12: a number card or a zero play, onto the pile, ending the obligation
    zero_play: bool  # L12: a gloat (or barred give-away) counting 0; the whole hand is shown


@dataclass(frozen=True, slots=True)
class AwaitScore:
    """The hand is over; waiting for the faces left in the hands."""

    out_seat: int


Awaiting = AwaitDoubt | AwaitFaceUp | AwaitScore


NOTHING_REVEALED: Mapping[int, int] = MappingProxyType({})
FINISHED_PHASES = frozenset({Phase.GAME_OVER, Phase.ABORTED})


@dataclass(frozen=True)
class LarryState:
    players: int
    options: LarryOptions
    phase: Phase
    hand_no: int  # 1-based
    turn: int  # the seat to act in PLAY and GOING_OUT
    hands: tuple[tuple[int, ...], ...]  # slots per seat
    pickup: tuple[int, ...]  # the face-down pick-up pile; draws take from the front
    pile: tuple[int, ...]  # the table pile, in play order
    pile_seats: tuple[int, ...]  # who played each pile card
    pile_totals: tuple[int, ...]  # the total announced with each pile card (public, heard)
    discard: tuple[int, ...]
    revealed: Mapping[int, int]  # slot -> face, public; a read-only mapping
    limit: int
    direction: int  # +1 clockwise, -1 counter-clockwise
    announced: int  # the last announced total (0 on an empty pile, L7)
    last_player: int | None  # L6: responsible for the pile
    obligated: tuple[bool, ...]  # L12, per seat
    out_seat: int | None  # L16
    scores: tuple[int, ...]  # running totals (L17)
    last_acted: tuple[int, ...]  # per seat, index of its latest action in this hand (L5)
    actions_in_hand: int
    next_slot: int  # slots are never reused
    next_request: int
    pending: tuple[Request, ...]  # requests the driver must still answer, in order
    awaiting: Awaiting | None  # what the outstanding Reveal is for
    winners: tuple[int, ...]  # set when phase is GAME_OVER
    # L20: per seat, the play-face-up cards lying in front of it while its obligation lasts (in
    # no pile, never reshuffled). A default so that states encoded before L20 still decode.
    in_front: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        # Built from outside (decoded data, tests): make sure `revealed` is read-only too.
        # The rules build states without __init__ and always store a read-only mapping.
        if not isinstance(self.revealed, MappingProxyType):
            object.__setattr__(self, "revealed", MappingProxyType(dict(self.revealed)))

    @property
    def rounds(self) -> int:
        """The hands begun, this one included (engine/game.py `PublicState`)."""
        return self.hand_no

    @property
    def waiting_for_driver(self) -> bool:
        return bool(self.pending)

    @property
    def over(self) -> bool:
        return self.phase in FINISHED_PHASES

    def to_act(self) -> int | None:
        """The seat whose action is awaited, or None (driver to serve requests, or game over)."""
        if self.pending or self.phase not in (Phase.PLAY, Phase.GOING_OUT):
            return None
        return self.turn

    def actors(self) -> tuple[int, ...]:
        """The seats that may act now: Larry is played in turn, so one seat or none."""
        seat = self.to_act()
        return () if seat is None else (seat,)

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(hand) for hand in self.hands)

    def all_slots(self) -> list[int]:
        """Every live slot: hands, pick-up pile, table pile, discard pile, cards in front (L20)."""
        slots: list[int] = []
        for hand in self.hands:
            slots.extend(hand)
        slots.extend(self.pickup)
        slots.extend(self.pile)
        slots.extend(self.discard)
        for cards in self.in_front:
            slots.extend(cards)
        return slots
