"""What a peer measured of each move says what the engine did in it, and a simulation's summary
names its slowest moves with those events: how an L14 reshuffle is found behind a move p99."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fairdeal.engine.larry.events import Doubted, PickedUp, Reshuffled
from fairdeal.p2p.table.core.api import StateChanged
from fairdeal.p2p.table.runtime.latency import slowest_moves
from fairdeal.p2p.table.runtime.timings import PeerTimings, TimingWatch


@dataclass
class AwaitingState:
    """The little of a state the watch reads: nobody or somebody to act."""

    actor: int | None
    over: bool = False

    def to_act(self) -> int | None:
        return self.actor


def changed(actor: int | None, *events: Any) -> StateChanged[Any, Any]:
    return StateChanged(AwaitingState(actor), tuple(events))


def test_each_move_keeps_the_engine_events_that_happened_in_it() -> None:
    timings = PeerTimings()
    watch = TimingWatch(timings)
    watch.observe(changed(0), False, 0.0)  # setup done
    watch.act_applied_at = 1.0
    watch.observe(changed(None, Doubted(1, 0)), False, 1.1)
    watch.observe(changed(None, Reshuffled(38)), False, 1.5)
    watch.observe(changed(2, PickedUp(0, 1, "doubt")), False, 2.0)
    watch.act_applied_at = 3.0
    watch.observe(changed(3), False, 3.25)
    assert timings.move_latencies == [1.0, 0.25]
    assert timings.move_events == [["Doubted", "Reshuffled", "PickedUp"], []]


def test_the_slowest_moves_of_every_peer_come_first_with_their_events() -> None:
    results = [
        {"seat": 0, "move_latencies": [0.01, 0.9], "move_events": [["Played"], ["Reshuffled"]]},
        {"seat": 1, "move_latencies": [0.2], "move_events": [["Doubted", "Doubted"]]},
        None,  # a peer that reported nothing
    ]
    assert slowest_moves(results, count=2) == [
        {"ms": 900.0, "seat": 0, "events": ["Reshuffled"]},
        {"ms": 200.0, "seat": 1, "events": ["Doubted"]},
    ]
