"""A local table: the engine, the oracle driver and local bots in one process, under asyncio.

It plays the `p2p.table.api.TableSession` contract exactly as a networked table would, so the UI
cannot tell them apart: it pushes `StateChanged` after every step, `SetupProgress` while a hand is
dealt, `DoubtVerification` after every doubt (L9/L16; proofs are NOT_APPLICABLE: the oracle knows
the deck, there is nothing to prove) and `SeatStatus` for every seat (always connected).

Bots think for `bot_delay` seconds before each move so that a human can follow the game; tests
use 0 and synchronise on `wait_idle()`, which resolves when the human seat is to act or the game
is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Mapping, Sequence

from fairdeal.engine.bots import BOT_NAMES, Bot, make_bot
from fairdeal.engine.larry import (
    Action,
    IllegalAction,
    LarryOptions,
    LarryState,
    LarryView,
    view_for,
)
from fairdeal.engine.larry.events import (
    DoubtResolved,
    HandStarted,
    Reshuffled,
    Violation,
)
from fairdeal.engine.larry.legal import check_action
from fairdeal.engine.oracle import OracleDriver
from fairdeal.p2p.table.api import (
    DoubtVerification,
    EventHistory,
    FaultDetected,
    Notice,
    ProofStatus,
    SeatInfo,
    SeatStatus,
    SetupProgress,
    StateChanged,
    TableEvent,
    VerifiedCard,
    result_so_far,
)


class LocalTable:
    """One human seat (`seat`) against bots in every other seat; deterministic for a seed."""

    def __init__(
        self,
        players: int = 4,
        *,
        seat: int = 0,
        human_name: str = "You",
        human_fingerprint: str = "",
        options: LarryOptions | None = None,
        seed: int | None = 0,
        bot_kind: str = "heuristic",  # a kind, or a comma list for the bot seats in order
        bot_delay: float = 0.0,
        bot_names: Sequence[str] = BOT_NAMES,
        bots: Mapping[int, Bot] | None = None,
    ) -> None:
        """`bots` replaces the bots of the given seats (tests bring their own)."""
        options = options or LarryOptions()
        options.validate(players)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not a seat of a {players}-seat table")
        if bot_delay < 0:
            raise ValueError("the bot delay cannot be negative")
        self._seat = seat
        self._bot_delay = bot_delay
        rng = random.Random(seed)
        self._driver = OracleDriver(players, options, seed=rng.randrange(2**32))
        bot_seats = [other for other in range(players) if other != seat]
        kinds = [kind.strip() for kind in bot_kind.split(",") if kind.strip()] or ["heuristic"]
        if len(kinds) > len(bot_seats):
            raise ValueError(f"{len(kinds)} bot kinds for {len(bot_seats)} bot seats")
        kinds += [kinds[-1]] * (len(bot_seats) - len(kinds))  # the last kind fills the rest
        self._bots: dict[int, Bot] = {
            other: make_bot(kind, random.Random(rng.randrange(2**32)))
            for other, kind in zip(bot_seats, kinds, strict=True)
        }
        for other, bot in (bots or {}).items():
            if other not in self._bots:
                raise ValueError(f"seat {other} is not a bot seat")
            self._bots[other] = bot
        names = iter(bot_names)
        self._seats = tuple(
            SeatInfo(human_name, human_fingerprint, False, True)
            if index == seat
            else SeatInfo(f"{next(names, f'Bot {index}')} (bot)", "", True, False)
            for index in range(players)
        )
        self._history = EventHistory()
        self._closed = False
        self._stopped = False  # a bot broke the rules: the table stops, as on a fault
        self._events_read = 0  # how many driver events have been turned into table events
        self._bot_task: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._wake = asyncio.Event()  # the human acted or the table closed: bots look again

    # -- TableSession ----------------------------------------------------------------------------
    @property
    def seat(self) -> int:
        return self._seat

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        return self._seats

    @property
    def state(self) -> LarryState:
        return self._driver.state

    def view(self) -> LarryView:
        return view_for(self._driver.state, self._driver.knowledge[self._seat], self._seat)

    async def act(self, action: Action) -> None:
        if self._closed:
            raise IllegalAction(self._seat, "the table is closed")
        if self._stopped:
            raise IllegalAction(self._seat, "the table stopped after a fault")
        check_action(self.view(), action)  # raises IllegalAction; the state stays as it was
        self._apply(self._seat, action)
        self._wake.set()
        self._update_idle()

    def events(self) -> AsyncIterator[TableEvent]:
        return self._history.replay()

    async def start(self) -> None:
        if self._bot_task is not None:
            return
        for index in range(len(self._seats)):
            self._emit(SeatStatus(index, connected=True))
        self._emit(Notice("A local table: bots play the other seats, no proofs are needed."))
        self._publish(self._driver.state, pre_state=None)
        self._bot_task = asyncio.create_task(self._run_bots(), name="local-table-bots")
        self._update_idle()

    async def end_table(self, reason: str) -> None:
        """Stop here with the result so far (nobody else to tell: the bots are ours)."""
        if self._closed:
            return
        self._emit(result_so_far(self._driver.state, len(self._seats), reason))
        await self.close()

    async def close(self) -> None:
        self._closed = True
        self._history.close()
        self._idle.set()
        self._wake.set()
        if self._bot_task is not None:
            self._bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._bot_task

    # -- for tests and the app ---------------------------------------------------------------------
    @property
    def history(self) -> tuple[TableEvent, ...]:
        """Every table event emitted so far, in order."""
        return tuple(self._history.events)

    @property
    def event_count(self) -> int:
        """How many table events have been emitted so far."""
        return len(self._history)

    async def wait_idle(self) -> None:
        """Resolve once the human seat is to act, the game is over, or the table is closed."""
        await self._idle.wait()

    # -- internals -------------------------------------------------------------------------------
    def _is_idle(self) -> bool:
        state = self._driver.state
        return self._closed or self._stopped or state.over or state.to_act() == self._seat

    def _update_idle(self) -> None:
        if self._is_idle():
            self._idle.set()
        else:
            self._idle.clear()

    async def _run_bots(self) -> None:
        while not self._driver.state.over:
            seat = self._driver.state.to_act()
            if seat is None or seat == self._seat:
                self._update_idle()
                self._wake.clear()
                await self._wake.wait()
                if self._closed:
                    return
                continue
            # Yield even with no delay, so the UI and the human get their turn to run.
            await asyncio.sleep(self._bot_delay)
            if self._driver.state.to_act() != seat:
                continue
            bot_view = view_for(self._driver.state, self._driver.knowledge[seat], seat)
            try:
                choice = self._bots[seat].choose(bot_view)
                check_action(bot_view, choice)  # what the bot's own cards forbid, too (L12)
                self._apply(seat, choice)
            except IllegalAction as error:  # a broken bot stops the table; it never hangs it
                self._stopped = True
                self._emit(FaultDetected(seat, "a local bot tried an illegal move", error.reason))
                break
        self._update_idle()

    def _apply(self, seat: int, action: Action) -> None:
        pre_state = self._driver.state
        self._driver.act(seat, action)
        self._publish(self._driver.state, pre_state)

    def _publish(self, state: LarryState, pre_state: LarryState | None) -> None:
        """Turn the driver's new events into table events (setup, doubts, faults, the state)."""
        new_events = tuple(self._driver.events[self._events_read :])
        self._events_read = len(self._driver.events)
        players = len(self._seats)
        for event in new_events:
            if isinstance(event, HandStarted):
                for shuffler in range(players):
                    self._emit(SetupProgress("shuffle", shuffler, shuffler + 1, players, 0))
                self._emit(SetupProgress("deal", None, players, players, 0))
            elif isinstance(event, Reshuffled):
                self._emit(SetupProgress("reshuffle", None, 1, 1, 0))
            elif isinstance(event, DoubtResolved) and pre_state is not None:
                self._emit(_verification(event, pre_state))
            elif isinstance(event, Violation):
                evidence = ", ".join(
                    f"slot {s} = card {f}" for s, f in zip(event.slots, event.faces, strict=True)
                )
                self._emit(FaultDetected(event.seat, event.reason, evidence))
        self._emit(StateChanged(state, new_events))

    def _emit(self, event: TableEvent) -> None:
        self._history.append(event)


def _verification(event: DoubtResolved, pre_state: LarryState) -> DoubtVerification:
    """The pile as it lay before the doubt, card by card, with the faces the doubt revealed."""
    cards = tuple(
        VerifiedCard(
            slot=slot,
            seat=played_by,
            face=face,
            face_up=slot in pre_state.revealed,
            proof=ProofStatus.NOT_APPLICABLE,
        )
        for slot, played_by, face in zip(
            pre_state.pile, pre_state.pile_seats, event.cards, strict=True
        )
    )
    return DoubtVerification(
        doubter=event.doubter,
        last_player=event.last_player,
        cards=cards,
        announced=event.announced,
        true_total=event.total,
        gloats=event.gloats,
        correct=event.correct,
        loser=event.loser,
        said=tuple(pre_state.pile_totals),
    )
