"""The contract between a table and whoever shows it to a player (the Textual UI, a CLI, a bot).

One interface, two implementations: a local table (the engine with an oracle driver and local
bots, no crypto, in one process) and the networked table (the same engine driven by the fair-deck
protocol over the signed table log). The UI is written against `TableSession` only, so it plays
the same way against either.

A session pushes `TableEvent`s; the UI keeps no game state of its own and redraws from
`session.view()` whenever a `StateChanged` arrives.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from fairdeal.engine.games import AnyGame

StateT = TypeVar("StateT")
EventT = TypeVar("EventT")
ViewT_co = TypeVar("ViewT_co", covariant=True)
ActionT_contra = TypeVar("ActionT_contra", contravariant=True)


class ProofStatus(Enum):
    VERIFIED = "verified"  # every decryption share of this card was proved (Chaum–Pedersen)
    FAILED = "failed"  # a proof failed: see the FaultDetected event that accompanies it
    NOT_APPLICABLE = "n/a"  # a local table: the oracle knows the deck, there is nothing to prove


def combined_proof(statuses: Iterable[ProofStatus | None]) -> ProofStatus | None:
    """One status for several cards: FAILED if any failed, VERIFIED once all are, None while
    some are still unknown; NOT_APPLICABLE at a local table."""
    seen = list(statuses)
    if not seen or any(status is None for status in seen):
        return ProofStatus.FAILED if ProofStatus.FAILED in seen else None
    if ProofStatus.FAILED in seen:
        return ProofStatus.FAILED
    if all(status is ProofStatus.VERIFIED for status in seen):
        return ProofStatus.VERIFIED
    return ProofStatus.NOT_APPLICABLE


@dataclass(frozen=True, slots=True)
class SeatInfo:
    name: str
    fingerprint: str  # the short code people compare aloud ("" for a local bot)
    is_bot: bool
    is_me: bool


@dataclass(frozen=True, slots=True)
class StateChanged(Generic[StateT, EventT]):
    """The engine applied a step; `events` are what happened, `state` the new public state
    (the game's own state and event types)."""

    state: StateT
    events: tuple[EventT, ...]


@dataclass(frozen=True, slots=True)
class SetupProgress:
    """Seats are keying, shuffling or dealing. `seat` is the seat at work, if one is."""

    phase: str  # "keys", "shuffle", "deal", "reshuffle", "reveal"
    seat: int | None
    done: int
    total: int
    proofs_verified: int


@dataclass(frozen=True, slots=True)
class VerifiedCard:
    slot: int
    seat: int  # who played it
    face: int  # card id
    face_up: bool
    proof: ProofStatus


@dataclass(frozen=True, slots=True)
class Verification(ABC):
    """What an engine event opened and the table proved, card by card, in one game's terms (a
    doubt's pile, L9): a game's own table event (p2p/games/<game>/events.py), made by its
    presenter or its table part. A generic module reads none of its fields: the game tells it."""

    @abstractmethod
    def log_text(self) -> str:
        """How a headless peer logs it, seats and cards by number."""

    @abstractmethod
    def facts(self) -> dict[str, Any]:
        """Its outcome as plain data, for a simulated peer's progress line."""

    @abstractmethod
    def story(
        self,
        names: Sequence[str],
        card_text: Callable[[int], str],
        proof_mark: Callable[[ProofStatus], str],
    ) -> str:
        """One line of a replay's story: seats by name, a face as `card_text` names it, a
        card's proof as `proof_mark` marks it."""


@dataclass(frozen=True, slots=True)
class CardsVerified:
    """The Lie: fronts the fair deck just revealed, each card with its proof.

    `reason` is "claim" (a card dealt to this seat in Phase 1, its front known to it alone, T3),
    "play" (a combination played in Phase 2, revealed to all by its owner's shares, T5) or
    "prizes" (the prize cards turned over and counted at the end of the game, T10). `seat` is the
    claimer, the player, or the seat whose prizes these are. A local table reports
    `ProofStatus.NOT_APPLICABLE`: its oracle knows the deck.
    """

    reason: str
    seat: int
    cards: tuple[VerifiedCard, ...]


@dataclass(frozen=True, slots=True)
class SeatStatus:
    """A seat's connection state; `waiting_seconds` is set while the table waits on that seat.
    `withholding` says what it holds up when only it can, and it may do so on purpose (its
    reveal of a joint coin): then the others may end the table (`end_over_withheld_reveal`).
    `owes`: what the table waits for from it, in words (`TableDriver.owes`: "their turn", "shares
    for the doubt", "a give-away forward")."""

    seat: int
    connected: bool
    waiting_seconds: float | None = None
    withholding: str | None = None
    owes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatConnection:
    """Whether another seat has a channel to this one now: told the moment a channel comes up or
    closes (not after the silence limit, which `SeatStatus` reports), and for every other seat
    when this seat starts or takes its seat back after a crash."""

    seat: int
    connected: bool


@dataclass(frozen=True, slots=True)
class MovesHeld:
    """This seat, taken back after a crash, signs nothing until `seats` have sent back what they
    hold of its own envelopes (protocol.md 4.6): its moves wait for them, and go out once they
    have. Empty `seats`: nothing waits any more."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FaultDetected:
    """A seat broke the protocol or the rules provably; the hand stops. `evidence` is readable."""

    seat: int
    what: str
    evidence: str


@dataclass(frozen=True, slots=True)
class Notice:
    """Anything else worth a line in the log."""

    text: str


@dataclass(frozen=True, slots=True)
class ReplayStarted(Notice):
    """A resumed seat replays its transcript: the events up to `ReplayDone` happened before."""


@dataclass(frozen=True, slots=True)
class ReplayDone(Notice):
    """The replay is over: what follows is the game as it goes on."""


@dataclass(frozen=True, slots=True)
class WatchersChanged(Notice):
    """Who watches the table now (protocol.md 4.8), through this seat and the others: each
    watcher's name and key code. A Notice, so that a front end that does not list them still
    logs the news."""

    watchers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """A seat left the table for good (its signed `left` message, protocol.md 10.12): the game
    cannot go on past its turn; the remaining players may end the table (`end_table`)."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class SeatReturned:
    """A seat that had left connected again (`fairdeal resume`): it has taken its seat back, and
    the table no longer counts it as gone (protocol.md 10.12)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TableEnded:
    """This seat has stopped playing at the table (it left, or ended the table after another
    seat left): the result so far. `hands` is how many hands were scored, `scores` the running
    totals after them (L17), `leaders` the seats with the highest total (none before a hand).
    The Lie: `hands` counts rounds, `scores` the prize cards won (their points are unseen until
    the game ends, T8) and `leaders` is empty, unless the game is over (points, winners)."""

    reason: str
    hands: int
    scores: tuple[int, ...]
    leaders: tuple[int, ...]


# Any: the union serves every game; a front end knows its game's state and event types.
TableEvent = (
    StateChanged[Any, Any]
    | SetupProgress
    | Verification
    | CardsVerified
    | SeatStatus
    | SeatConnection
    | MovesHeld
    | FaultDetected
    | Notice
    | SeatLeft
    | SeatReturned
    | TableEnded
)


class EventHistory:
    """Every event a session has emitted, replayed from the start to each reader.

    `TableSession.events()` promises the whole history to every caller, however late it starts
    reading; the sessions keep one of these instead of each writing that loop again.
    """

    def __init__(self) -> None:
        self.events: list[TableEvent] = []
        self.closed = False
        self._changed = asyncio.Event()

    def __len__(self) -> int:
        return len(self.events)

    def append(self, event: TableEvent) -> None:
        self.events.append(event)
        self._wake()

    def close(self) -> None:
        """End every reader's replay once it has caught up."""
        self.closed = True
        self._wake()

    async def changed(self) -> None:
        """Wait for the next event or the close."""
        await self._changed.wait()

    async def replay(self) -> AsyncIterator[TableEvent]:
        index = 0
        while True:
            while index < len(self.events):
                yield self.events[index]
                index += 1
            if self.closed:
                return
            await self.changed()

    def _wake(self) -> None:
        # A fresh Event per change: every waiter of this change wakes, none misses the next.
        self._changed.set()
        self._changed = asyncio.Event()


class TableSession(Protocol[ViewT_co, ActionT_contra]):
    """A table as one seat sees and plays it: `ViewT_co` is the game's view, `ActionT_contra`
    its action type."""

    @property
    def seat(self) -> int: ...

    @property
    def seats(self) -> tuple[SeatInfo, ...]: ...

    @property
    def game(self) -> AnyGame | None:
        """The game played here (the app picks the table screen by it); None while a table
        joined by address has not said it yet."""
        ...

    @property
    def transcript_path(self) -> Path | None:
        """Where this seat's signed transcript is kept (`fairdeal report` makes its page of it);
        None for a table that keeps none (a local table, a replay)."""
        ...

    def round_seen(self, round_no: int) -> None:
        """The player sees the table at the start of round `round_no`: a table that holds its
        bots until then (a local one, where seats race) lets them go; any other ignores it."""
        ...

    def view(self) -> ViewT_co:
        """This seat's view of the current state (its own faces, public facts, counts)."""
        ...

    async def act(self, action: ActionT_contra) -> None:
        """Play `action` for this seat; raises engine.IllegalAction (state unchanged)."""
        ...

    def events(self) -> AsyncIterator[TableEvent]:
        """Every event from the start of the session, in order; ends when the session closes."""
        ...

    async def start(self) -> None:
        """Set the table up (keys, shuffle, deal) and begin play; events report progress."""
        ...

    async def end_table(self, reason: str) -> None:
        """Stop playing at this table for good, with the result so far: tell the other seats
        (a networked table signs a `left` message, protocol.md 10.12), take no more actions, emit
        `TableEnded` and close. Used when the player leaves, and by the remaining players to end
        a table that cannot go on (a seat left or withholds its part)."""
        ...

    def end_over_withheld_reveal(self) -> FaultDetected:
        """End the table because a seat withholds its joint-coin reveal past the silence limit
        (`SeatStatus.withholding`): a fault naming that seat. Raises engine.IllegalAction when no
        seat withholds one (a local table never does)."""
        ...

    async def close(self) -> None: ...
