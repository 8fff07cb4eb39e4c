"""A local table: the engine, the oracle driver and local bots in one process, under asyncio.

One class for every game of the registry (Larry, The Lie). It plays the
`p2p.table.core.api.TableSession` contract exactly as a networked table would, so the UI cannot tell
them apart: it pushes `StateChanged` after every step, `SetupProgress` while a hand or round is
dealt, `DoubtVerification` after every doubt in Larry (L9/L16), `CardsVerified` in The Lie for
the human's claims, every play and the prizes at the end (T3, T5, T10), as a networked table
reports them (proofs are NOT_APPLICABLE: the oracle knows the deck, there is nothing to prove),
and `SeatStatus` for every seat (always connected).

Bots think for `bot_delay` seconds before each move so that a human can follow the game. Where
several seats act at once (The Lie's Phase 1, T3) every bot claims on its own clock, one card
every `claim_pace` seconds, and places it as soon as its front is dealt, or, at a `difficulty`,
after human-like reaction times (p2p/table/runtime/reaction.py) and choosing as its bots do at that
difficulty, while the human claims and places whenever they like. Tests use 0 for both and
synchronise on `wait_idle()`, which resolves once no bot has anything to do (the human is to act,
or the game is over).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from fairdeal.engine.bots import BOT_NAMES, AnyBot, make_bot
from fairdeal.engine.errors import IllegalAction
from fairdeal.engine.events import Violation
from fairdeal.engine.game import PublicState
from fairdeal.engine.games import AnyGame, default_game, game_of_options, get_game
from fairdeal.engine.oracle import OracleDriver
from fairdeal.p2p.table.core.api import (
    EventHistory,
    FaultDetected,
    Notice,
    ProofStatus,
    SeatInfo,
    SeatStatus,
    StateChanged,
    TableEvent,
)
from fairdeal.p2p.table.core.presenter import Presenter, presenter_for, result_so_far
from fairdeal.p2p.table.runtime.reaction import reactions


class LocalTable:
    """One human seat (`seat`) against bots in every other seat; deterministic for a seed.

    `game` names the game (fairdeal.engine.games); without it the game is that of `options` (the
    default game when neither is given).
    """

    def __init__(
        self,
        players: int = 4,
        *,
        game: str | None = None,
        seat: int = 0,
        human_name: str = "You",
        human_fingerprint: str = "",
        options: Any = None,
        seed: int | None = 0,
        bot_kind: str = "heuristic",  # a kind, or a comma list for the bot seats in order
        bot_delay: float = 0.0,
        claim_pace: float = 0.0,
        difficulty: str | None = None,
        reaction_rng: random.Random | None = None,
        hold_rounds: bool = False,
        bot_names: Sequence[str] = BOT_NAMES,
        bots: Mapping[int, AnyBot] | None = None,
    ) -> None:
        """`bots` replaces the bots of the given seats (tests bring their own). With
        `hold_rounds`, bots start a round's simultaneous phase (The Lie's Phase 1) only once the
        player said `ready(round)`: nobody grabs while the player still reads the scores.
        `difficulty` (fairdeal.engine.bots.DIFFICULTIES): the bots race with its reaction times,
        drawn with `reaction_rng` (the system's generator when None), not `claim_pace`."""
        self.game: AnyGame = (
            get_game(game)
            if game is not None
            else game_of_options(options)
            if options is not None
            else get_game(default_game())
        )
        self._presenter: Presenter[Any] = presenter_for(self.game.name)
        chosen: Any = options if options is not None else self.game.default_options()
        if type(chosen) is not self.game.options_type:
            raise ValueError(f"{type(chosen).__name__} are not options of {self.game.title}")
        self.game.options_type.validate(chosen, players)
        options = chosen
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not a seat of a {players}-seat table")
        if bot_delay < 0 or claim_pace < 0:
            raise ValueError("the bot delay and the claim pace cannot be negative")
        self._seat = seat
        self._bot_delay = bot_delay
        self._claim_pace = claim_pace
        self._reactions = None if difficulty is None else reactions(difficulty)
        self._reaction_rng = reaction_rng or secrets.SystemRandom()
        self._hold_rounds = hold_rounds
        self._ready_round = 0
        rng = random.Random(seed)
        self._driver = OracleDriver(players, options, seed=rng.randrange(2**32), game=self.game)
        bot_seats = [other for other in range(players) if other != seat]
        kinds = [kind.strip() for kind in bot_kind.split(",") if kind.strip()] or ["heuristic"]
        if len(kinds) > len(bot_seats):
            raise ValueError(f"{len(kinds)} bot kinds for {len(bot_seats)} bot seats")
        kinds += [kinds[-1]] * (len(bot_seats) - len(kinds))  # the last kind fills the rest
        self._bots: dict[int, AnyBot] = {
            other: make_bot(kind, random.Random(rng.randrange(2**32)), self.game.name, difficulty)
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
        self._wake = asyncio.Event()  # the state changed or the table closed: bots look again

    # -- TableSession ----------------------------------------------------------------------------
    @property
    def seat(self) -> int:
        return self._seat

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        return self._seats

    @property
    def state(self) -> Any:
        return self._driver.state

    def view(self) -> Any:
        return self.game.view_for(
            self._driver.state, self._driver.knowledge[self._seat], self._seat
        )

    async def act(self, action: Any) -> None:
        if self._closed:
            raise IllegalAction(self._seat, "the table is closed")
        if self._stopped:
            raise IllegalAction(self._seat, "the table stopped after a fault")
        # What this seat's own cards forbid too (a Lie play its fronts contradict would otherwise
        # be a Violation that stops the game); raises IllegalAction, the state stays as it was.
        self.game.check_action(self.view(), action)
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

    def end_over_withheld_reveal(self) -> FaultDetected:
        """Nobody withholds anything at a local table: the bots are ours."""
        raise IllegalAction(self._seat, "no seat is withholding a coin reveal")

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
        """Resolve once no bot has anything to do (the human is to act, or the game is over), or
        the table is closed."""
        await self._idle.wait()

    @property
    def transcript_path(self) -> None:
        """A local table keeps no transcript: there is nothing to prove."""
        return None

    def round_seen(self, round_no: int) -> None:
        """The player sees round `round_no`'s table: held bots may start grabbing."""
        self._ready_round = max(self._ready_round, round_no)
        self._wake.set()
        self._update_idle()

    # -- internals -------------------------------------------------------------------------------
    def _held(self) -> bool:
        state: PublicState = self._driver.state
        simultaneous = state.to_act() is None
        return self._hold_rounds and simultaneous and state.rounds > self._ready_round

    def _bot_actors(self) -> list[int]:
        """The bot seats that may act now (several at once in The Lie's Phase 1)."""
        if self._held():
            return []
        return [seat for seat in self.game.actors(self._driver.state) if seat != self._seat]

    def _is_idle(self) -> bool:
        if self._closed or self._stopped or self._driver.state.over:
            return True
        return not self._bot_actors()

    def _update_idle(self) -> None:
        if self._is_idle():
            self._idle.set()
        else:
            self._idle.clear()

    def _delay(self, seat: int) -> float:
        """How long a bot waits before its next move: the claim pace where seats act at once
        (no single seat is awaited), the bot delay on a turn of its own. A Lie bot places the
        card it took at once: the pace is between its cards (T3)."""
        state = self._driver.state
        if state.to_act() is not None:
            return self._bot_delay
        follow_up = self.game.follows_up(state, seat)
        if self._reactions is not None:
            return self._reactions.draw(self._reaction_rng, follow_up=follow_up)
        return 0.0 if follow_up else self._claim_pace

    async def _run_bots(self) -> None:
        """Every bot that may act gets a due time when it may first act; the earliest due bot
        moves, then waits again if it may still act. The human acting wakes the loop to look
        again, but keeps every bot's clock: in Phase 1 the bots do not wait for the human."""
        loop = asyncio.get_running_loop()
        due: dict[int, float] = {}
        while not self._driver.state.over and not self._closed:
            actors = self._bot_actors()
            now = loop.time()
            for seat in list(due):
                if seat not in actors:
                    del due[seat]
            for seat in actors:
                if seat not in due:  # a reaction time is drawn once per move
                    due[seat] = now + self._delay(seat)
            self._update_idle()
            self._wake.clear()
            if not due:
                await self._wake.wait()
                continue
            seat = min(due, key=lambda s: (due[s], s))
            wait = due[seat] - now
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
                continue  # woken early or due now: look at the table again
            await asyncio.sleep(0)  # even with no delay, the UI and the human get to run
            if self._closed or seat not in self._bot_actors():
                continue
            del due[seat]
            state = self._driver.state
            bot_view = self.game.view_for(state, self._driver.knowledge[seat], seat)
            try:
                choice = self._bots[seat].choose(bot_view)
                self.game.check_action(bot_view, choice)  # what the bot's own cards forbid, too
                self._apply(seat, choice)
            except IllegalAction as error:  # a broken bot stops the table; it never hangs it
                self._stopped = True
                self._emit(FaultDetected(seat, "a local bot tried an illegal move", error.reason))
                break
        self._update_idle()

    def _apply(self, seat: int, action: Any) -> None:
        pre_state = self._driver.state
        self._driver.act(seat, action)
        self._publish(self._driver.state, pre_state)

    def _publish(self, state: Any, pre_state: Any) -> None:
        """Turn the driver's new events into table events (setup, opened cards, faults, the
        state), as the game's presenter says a networked table reports them; the oracle knows
        the deck, so nothing needs a proof (NOT_APPLICABLE)."""
        new_events = tuple(self._driver.events[self._events_read :])
        self._events_read = len(self._driver.events)
        players = len(self._seats)
        presenter = self._presenter
        knowledge = self._driver.knowledge[self._seat]
        for event in new_events:
            for shown in presenter.table_events(
                event, pre_state, state, ProofStatus.NOT_APPLICABLE, self._seat, knowledge, players
            ):
                self._emit(shown)
            if isinstance(event, Violation):
                evidence = ", ".join(
                    f"slot {s} = card {f}" for s, f in zip(event.slots, event.faces, strict=True)
                )
                self._emit(FaultDetected(event.seat, event.reason, evidence))
        self._emit(StateChanged(state, new_events))

    def _emit(self, event: TableEvent) -> None:
        self._history.append(event)
