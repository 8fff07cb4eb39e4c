"""What a networked seat measures of its table (for `simulate` and the benchmark).

Seconds on the monotonic clock, read from the table's events as the peer reports them: how long
the setup took, each move from its envelope applied to the next state that awaits an action,
each new hand's setup, each doubt to its verification, each claim to the front of its card. The
game's presenter says which engine events begin a round (a new deal) and which open a
verification (p2p/table/core/presenter.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fairdeal.p2p.table.core.api import CardsVerified, StateChanged, TableEvent, Verification
from fairdeal.p2p.table.core.presenter import PLAIN, Mark, Presenter


@dataclass
class PeerTimings:
    """What a peer measured (for `simulate` and the benchmark); seconds, monotonic clock."""

    started: float = 0.0
    setup_done: float | None = None
    finished: float | None = None
    move_latencies: list[float] = field(default_factory=list)
    # What the engine did during each move (its events' names, in order; the same index):
    # tells a slow move's cause, e.g. an L14 reshuffle (`Reshuffled`), apart from the rest.
    move_events: list[list[str]] = field(default_factory=list)
    doubt_latencies: list[float] = field(default_factory=list)
    hand_setups: list[float] = field(default_factory=list)  # the shuffle and deal of hands 2, 3
    # Claims (T3): from signing a claim to knowing the front of the card it dealt this seat.
    claim_latencies: list[float] = field(default_factory=list)
    claims_signed: dict[int, float] = field(default_factory=dict)  # slot -> when, until dealt


class TimingWatch:
    """Fills a `PeerTimings` from the table's events and the moments actions were applied."""

    def __init__(self, timings: PeerTimings, presenter: Presenter[Any] = PLAIN) -> None:
        self.timings = timings
        self.presenter = presenter
        self.act_applied_at: float | None = None
        self._doubt_at: float | None = None
        self._hand_starting = False
        self._move_events: list[str] = []

    def observe(self, event: TableEvent, simultaneous: bool, now: float) -> None:
        """One table event, as the peer reports it (`simultaneous`: seats act at once now)."""
        timings = self.timings
        if isinstance(event, StateChanged):
            state = event.state
            # the first move or claim may be made (claims open, T3)
            awaiting_act = not state.over and (state.to_act() is not None or simultaneous)
            if timings.setup_done is None and awaiting_act:
                timings.setup_done = now
            if any(self.presenter.mark(e) is Mark.ROUND for e in event.events):
                self._hand_starting = True
            if self.act_applied_at is not None:
                self._move_events += [type(e).__name__ for e in event.events]
            if (awaiting_act or state.over) and self.act_applied_at is not None:
                elapsed = now - self.act_applied_at
                if self._hand_starting:  # the move ended a hand: next hand's setup
                    timings.hand_setups.append(elapsed)
                else:
                    timings.move_latencies.append(elapsed)
                    timings.move_events.append(self._move_events)
                self.act_applied_at = None
                self._move_events = []
                self._hand_starting = False
            if any(self.presenter.opens_verification(e) for e in event.events):
                self._doubt_at = self.act_applied_at or now
        elif isinstance(event, CardsVerified) and event.reason == "claim":
            for card in event.cards:
                signed = timings.claims_signed.pop(card.slot, None)
                if signed is not None:
                    timings.claim_latencies.append(now - signed)
        elif isinstance(event, Verification) and self._doubt_at is not None:
            timings.doubt_latencies.append(now - self._doubt_at)
            self._doubt_at = None
