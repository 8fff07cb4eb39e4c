"""The local table keeps the TableSession contract: events from the start, idle, doubts, errors."""

from __future__ import annotations

import random

import pytest

from fairdeal.engine.larry import Action, Doubt, IllegalAction, LarryView, PlayFaceDown
from fairdeal.engine.larry.bots.heuristic import HeuristicBot
from fairdeal.engine.larry.events import DoubtResolved, GameOver, HandScored
from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.p2p.table.core.api import (
    FaultDetected,
    ProofStatus,
    SeatStatus,
    SetupProgress,
    StateChanged,
    TableEvent,
)
from fairdeal.p2p.table.runtime.local import LocalTable

from .support import play_out


async def collect(table: LocalTable) -> list[TableEvent]:
    events: list[TableEvent] = []
    async for event in table.events():
        events.append(event)
        if len(events) == table.event_count and table.state.over:
            break
    return events


async def test_a_whole_game_against_bots_ends_with_scores_and_winners() -> None:
    table = LocalTable(3, seed=11)
    await table.start()
    await play_out(table, HeuristicBot(random.Random(7)))
    state = table.state
    assert state.over and state.winners
    events = await collect(table)
    engine_events = [e for ev in events if isinstance(ev, StateChanged) for e in ev.events]
    assert sum(isinstance(e, HandScored) for e in engine_events) == 3  # L18: a full game
    assert isinstance(engine_events[-1], GameOver)
    await table.close()


async def test_every_seat_is_reported_connected_and_setup_progress_is_sent() -> None:
    table = LocalTable(4, seed=1)
    await table.start()
    events = list(table.history)
    statuses = [e for e in events if isinstance(e, SeatStatus)]
    assert [s.seat for s in statuses] == [0, 1, 2, 3]
    assert all(s.connected for s in statuses)
    setup = [e for e in events if isinstance(e, SetupProgress)]
    assert [s.seat for s in setup if s.phase == "shuffle"] == [0, 1, 2, 3]
    assert setup[-1].phase == "deal" and setup[-1].done == setup[-1].total
    await table.close()


async def test_doubt_verification_lists_the_pile_as_played() -> None:
    table = LocalTable(3, seed=1)
    await table.start()
    await table.wait_idle()
    view = table.view()
    assert view.my_turn and not view.pile  # seat 0 starts hand 1
    slot, _ = view.hand[0]
    await table.act(PlayFaceDown(slot, view.limit))
    await table.wait_idle()
    before = table.view()
    assert before.pile, "seed 1: the bots leave a pile to doubt"
    pile_seats = before.pile_seats
    start = table.event_count
    await table.act(Doubt())
    new = table.history[start:]
    verification = next(e for e in new if isinstance(e, DoubtVerification))
    resolved = next(
        e
        for ev in new
        if isinstance(ev, StateChanged)
        for e in ev.events
        if isinstance(e, DoubtResolved)
    )
    assert verification.doubter == 0
    assert tuple(card.seat for card in verification.cards) == pile_seats
    assert tuple(card.face for card in verification.cards) == resolved.cards
    assert all(card.proof is ProofStatus.NOT_APPLICABLE for card in verification.cards)
    assert verification.correct == resolved.correct
    assert verification.true_total == resolved.total
    await table.close()


async def test_an_illegal_action_raises_and_changes_nothing() -> None:
    table = LocalTable(3, seed=1)
    await table.start()
    await table.wait_idle()
    state, count = table.state, table.event_count
    with pytest.raises(IllegalAction) as error:
        await table.act(Doubt())  # L7: the pile is empty
    assert "L7" in error.value.reason
    slot, _ = table.view().hand[0]
    with pytest.raises(IllegalAction, match="limit"):
        await table.act(PlayFaceDown(slot, table.view().limit + 1))  # L6
    assert table.state is state and table.event_count == count
    await table.close()


async def test_the_same_seed_gives_the_same_game() -> None:
    async def record(seed: int) -> list[object]:
        table = LocalTable(3, seed=seed)
        await table.start()
        await play_out(table, HeuristicBot(random.Random(7)))
        events = [e for e in table.history if isinstance(e, StateChanged)]
        await table.close()
        return [ev.events for ev in events]

    assert await record(5) == await record(5)
    assert await record(5) != await record(6)


async def test_acting_after_close_is_refused() -> None:
    table = LocalTable(2, seed=0)
    await table.start()
    await table.close()
    with pytest.raises(IllegalAction, match="closed"):
        await table.act(Doubt())


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError):
        LocalTable(9)
    with pytest.raises(ValueError):
        LocalTable(3, seat=3)
    with pytest.raises(ValueError):
        LocalTable(3, bot_delay=-1)
    with pytest.raises(ValueError):
        LocalTable(3, bots={0: CheatingBot()})  # seat 0 is the human's
    with pytest.raises(ValueError):
        LocalTable(3, bot_kind="heuristic,random,random")


class CheatingBot:
    name = "cheat"

    def choose(self, view: LarryView) -> Action:
        slot, _ = view.hand[0]
        return PlayFaceDown(slot, view.limit + 5)  # above the limit (L6)


async def test_a_bot_that_breaks_the_rules_stops_the_table_with_a_fault() -> None:
    table = LocalTable(2, seed=0, bots={1: CheatingBot()})
    await table.start()
    await table.wait_idle()
    slot, _ = table.view().hand[0]
    await table.act(PlayFaceDown(slot, 0))
    await table.wait_idle()  # resolves: the table stopped instead of hanging
    faults = [e for e in table.history if isinstance(e, FaultDetected)]
    assert len(faults) == 1 and faults[0].seat == 1 and "limit" in faults[0].evidence
    assert table.state.to_act() == 1  # the illegal move changed nothing
    with pytest.raises(IllegalAction, match="stopped"):
        await table.act(Doubt())
    await table.close()
