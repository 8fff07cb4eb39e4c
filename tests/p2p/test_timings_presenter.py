"""A peer's timings ask the game's presenter which engine events begin a round and which open a
verification (p2p/table/runtime/timings.py), instead of matching event class names: Larry's
doubt is timed to its verification, a new hand's deal counts as that hand's setup, and a game
whose presenter says neither (the plain one) times neither."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fairdeal.engine.larry.events import Doubted, HandStarted
from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.p2p.table.core.api import StateChanged
from fairdeal.p2p.table.core.presenter import PLAIN, presenter_for
from fairdeal.p2p.table.runtime.timings import PeerTimings, TimingWatch


@dataclass
class AwaitingState:
    actor: int | None
    over: bool = False

    def to_act(self) -> int | None:
        return self.actor


def changed(actor: int | None, *events: Any) -> StateChanged[Any, Any]:
    return StateChanged(AwaitingState(actor), tuple(events))


VERIFIED = DoubtVerification(1, 0, (), 5, 3, 0, False, 1)


def watched(presenter: Any) -> PeerTimings:
    timings = PeerTimings()
    watch = TimingWatch(timings, presenter)
    watch.observe(changed(0), False, 0.0)  # setup done
    watch.act_applied_at = 1.0
    watch.observe(changed(None, Doubted(1, 0)), False, 1.0)
    watch.observe(VERIFIED, False, 1.5)
    watch.observe(changed(None, HandStarted(2, 1, 7)), False, 1.75)
    watch.observe(changed(1), False, 2.5)
    return timings


def test_larrys_presenter_times_the_doubt_and_the_next_hands_setup() -> None:
    timings = watched(presenter_for("larry"))
    assert timings.doubt_latencies == [0.5]
    assert timings.hand_setups == [1.5] and timings.move_latencies == []


def test_a_presenter_that_names_no_such_event_times_them_as_a_move() -> None:
    timings = watched(PLAIN)
    assert timings.doubt_latencies == [] and timings.hand_setups == []
    assert timings.move_latencies == [1.5]
