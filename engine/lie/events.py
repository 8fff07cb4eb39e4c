"""What happened in a game of The Lie, as small frozen dataclasses; cards are slots until shown."""

from __future__ import annotations

from dataclasses import dataclass

from fairdeal.engine.events import Violation
from fairdeal.engine.lie.actions import Side
from fairdeal.engine.records import quick_init

__all__ = [
    "Claimed",
    "Event",
    "GameOver",
    "HandComplete",
    "Passed",
    "Placed",
    "Played",
    "PrizePileFormed",
    "PrizesTaken",
    "RoundEnded",
    "RoundStarted",
    "TableLaidOut",
    "TrickStarted",
    "TrickWon",
    "Violation",
    "WentOut",
]


@quick_init
@dataclass(frozen=True, slots=True)
class RoundStarted:
    """T9: round `round` begins with `cards` cards spread on the table, backs up."""

    round: int
    cards: int


@quick_init
@dataclass(frozen=True, slots=True)
class TableLaidOut:
    """The table's layout: `slots` in table position order (their backs are public, T3)."""

    round: int
    slots: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Claimed:
    """T3: `seat` took `slot` (back `back`); it now holds `size` cards, this one not yet placed."""

    seat: int
    slot: int
    back: int
    size: int


@quick_init
@dataclass(frozen=True, slots=True)
class Placed:
    """T3: `seat` added its taken card `slot` at the far `side` of its hand (the first card of a
    hand is placed by the engine, to the right, once its front is dealt)."""

    seat: int
    slot: int
    side: Side


@quick_init
@dataclass(frozen=True, slots=True)
class HandComplete:
    """T3: `seat` holds a full hand; `first` when it was the first ("Done!"), leading trick 1."""

    seat: int
    first: bool


@quick_init
@dataclass(frozen=True, slots=True)
class PrizePileFormed:
    """T4: the untaken cards, in a fair random order, became the prize pile (top first)."""

    slots: tuple[int, ...]
    backs: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class TrickStarted:
    trick: int
    leader: int


@quick_init
@dataclass(frozen=True, slots=True)
class Played:
    """T5: `seat` played `slots`, revealed as `cards`, of colour `colour`, forming `number`."""

    seat: int
    slots: tuple[int, ...]
    cards: tuple[int, ...]
    colour: int
    number: int


@quick_init
@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@quick_init
@dataclass(frozen=True, slots=True)
class WentOut:
    """T6: `seat` has no cards left; `place` is its placement (1 = first)."""

    seat: int
    place: int


@quick_init
@dataclass(frozen=True, slots=True)
class TrickWon:
    """T5: `seat` played the greatest number; the trick's cards go to the discard pile."""

    seat: int
    number: int


@quick_init
@dataclass(frozen=True, slots=True)
class RoundEnded:
    """T7: the round is over; `placement` lists the seats by place (1st first)."""

    round: int
    placement: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class PrizesTaken:
    """T8: `seat` (placed `place`) took `slots` from the prize pile, unseen."""

    seat: int
    place: int
    slots: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class GameOver:
    """T10: the winners (several share the win), points and prize cards per seat."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    prize_counts: tuple[int, ...]
    prizes: tuple[tuple[int, ...], ...]  # the faces of each seat's prize cards


Event = (
    RoundStarted
    | TableLaidOut
    | Claimed
    | Placed
    | HandComplete
    | PrizePileFormed
    | TrickStarted
    | Played
    | Passed
    | WentOut
    | TrickWon
    | RoundEnded
    | PrizesTaken
    | GameOver
    | Violation
)
