"""The pump of a networked seat: what moves its table forward after anything happened.

After every envelope applied, forward received or action asked for, the seat's pump (once per
turn of the event loop) signs and sends what the table says this seat owes (its outbox: the
public envelopes through the log, a give-away's forward privately to its receiver), reports the
table's events, lets the seat's bot play (after its delay, or its claim pace where seats act at
once), and signs the step envelope a phase in steps needs of this seat now (`pace`).

It holds the parts it moves, which the seat (p2p/table/runtime/peer.py) made and wired: the
table and its log, the restart's bookkeeping (until the restart is over: then it drops it, as
the driver drops its setup part, and a flush signs what the table owes without asking it), the
forwards, the reporting, the seat's life and its bot; never the seat itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from fairdeal.engine.bots import AnyBot
from fairdeal.engine.errors import IllegalAction
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.transcript import TranscriptWriteError
from fairdeal.p2p.table.core.api import Notice
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.outbox import Private
from fairdeal.p2p.table.runtime.forwarding import ForwardPost
from fairdeal.p2p.table.runtime.lifecycle import SeatLife
from fairdeal.p2p.table.runtime.reaction import BotTiming
from fairdeal.p2p.table.runtime.recovery import Recovery
from fairdeal.p2p.table.runtime.reporting import Reporter
from fairdeal.p2p.table.runtime.timings import PeerTimings


@dataclass(slots=True)
class BotSeat:
    """The bot that plays a seat, if any (a player may hand the seat to one later): when it moves
    (`timing`, waited with `sleep`), and whether its actions are checked before they are signed
    (only a test's deliberate cheat turns that off)."""

    bot: AnyBot | None
    timing: BotTiming
    sleep: Callable[[float], Awaitable[object]]
    check: bool = True


class Pump:
    """One seat's pump over the parts it moves."""

    def __init__(
        self,
        seat: int,
        table: TableDriver,
        sync: TableSync,
        *,
        transcript: Path,
        recovery: Recovery,
        post: ForwardPost,
        reporter: Reporter,
        life: SeatLife,
        timings: PeerTimings | None,
        player: BotSeat,
    ) -> None:
        self.seat = seat
        self.table = table
        self.sync = sync
        self.transcript = transcript
        self.recovery: Recovery | None = recovery  # None once the restart is over (or none)
        self._forget_recovery()
        self.post = post
        self.reporter = reporter
        self.life = life
        self.timings = timings
        self.player = player
        self.scheduled = False
        self.thinking: asyncio.Task[None] | None = None  # the bot's delayed move, while it waits
        self._thinking_at_once = False  # whether that delay is a claim pace (seats act at once)

    @property
    def recovering(self) -> bool:
        """Whether this seat, taken back after a crash, must sign nothing yet."""
        return self.recovery is not None and self.recovery.recovering

    def _forget_recovery(self) -> None:
        """Drop the restart's bookkeeping once it is over: it never begins again."""
        if self.recovery is not None and self.recovery.over:
            self.recovery = None

    def schedule(self) -> None:
        """Run the pump soon (once, however many times this is called before it runs)."""
        if not self.scheduled and not self.life.closed:
            self.scheduled = True
            asyncio.get_running_loop().call_soon(self.run)

    def run(self, bot_due: bool = False) -> None:
        """Publish what this seat owes, report events, let the bot play (`bot_due`: its delay
        or claim pace has passed), and sign the step envelope the table needs now (`pace`)."""
        self.scheduled = False
        table, sync = self.table, self.sync
        if self.life.closed:
            return
        if self.recovering:  # report what the replay found, sign nothing yet
            self.reporter.drain(table, sync.log)
            if table.over:  # caught up to the end: nothing left to sign, so nobody to wait for
                self._finish()
            return
        while True:
            self.keep_forwards()
            if self.life.closed:  # the disk refused the forwards: publish nothing after it
                return
            if not self.flush():
                return  # the seat stopped (its disk failed): nothing is sent
            self.reporter.drain(table, sync.log)
            if self.player.bot is not None and self._bot_may_choose():
                at_once = table.simultaneous()
                waits = self.player.timing.waits(at_once)
                if waits and not (bot_due and self._thinking_at_once == at_once):
                    self._think(at_once)  # and meanwhile it still owes its steps
                else:
                    bot_due = False  # the next move of this seat waits its own delay
                    if self._bot_publish(self.player.bot):
                        continue
            # another seat's envelope held here may start a step this seat must answer at once
            table.pace(sync.log.buffered)
            if table.outbox and not table.over:
                continue
            break
        if table.over:
            self._finish()

    def _finish(self) -> None:
        """The game is over here: mark the transcript done (rerunning the command starts a new
        table) and let whoever waits on the seat go on."""
        if not self.life.done.done():
            if self.timings is not None:
                self.timings.finished = time.monotonic()
            self.life.finish(self.transcript)

    def flush(self) -> bool:
        """Sign and send the table's outbox; False once the disk refused a write."""
        table, sync, recovery = self.table, self.sync, self.recovery
        while table.outbox:
            item = table.outbox.pop(0)
            if isinstance(item, Private):
                self.post.send_owed(table, item)
            elif recovery is not None and recovery.signed_already(
                item.kind, item.body, table.choice_kinds
            ):
                continue  # signed before a restart: in the log
            else:
                try:
                    sync.publish(item.kind, item.body)
                except TranscriptWriteError:
                    return False
                if item.claims is not None and self.timings is not None:
                    self.timings.claims_signed[item.claims] = time.monotonic()
        self._forget_recovery()
        return True

    def keep_forwards(self) -> None:
        """Write the forwards the table used to the secrets file before their receipts go out:
        a crash must not lose a card this seat was given. The post is asked only when the table
        used some since the last run (a give-away's, rarely)."""
        used = self.table.kept_forwards
        if not used:
            return
        try:
            self.post.keep(used)
        except TranscriptWriteError as error:  # nothing is sent after a write that failed
            self.life.fail(error)
            return
        used.clear()  # on disk now: never written twice

    async def stop(self) -> None:
        """Drop a delayed bot move not made yet: it is never published."""
        thinking, self.thinking = self.thinking, None
        if thinking is not None:
            thinking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await thinking

    def _bot_may_choose(self) -> bool:
        """The bot chooses when the driver lets this seat choose; in turn, only once (its move
        not yet in the log), so a move signed and waiting is not made twice."""
        table, log_ = self.table, self.sync.log
        if table.over or not table.may_choose():
            return False
        return table.simultaneous() or not log_.holds(self.seat, log_.next_seq(self.seat))

    def _bot_publish(self, bot: AnyBot) -> bool:
        """The bot's choice, checked like a player's by the driver; whether a move was kept.
        A refused one is replaced by a listed legal action the driver accepts, else the bot
        waits for the table to change (the pump runs again then): either way one notice line,
        so a faulty bot never stops the table nor prints a traceback."""
        table = self.table
        view = table.view()
        action = bot.choose(view)
        try:
            table.publish_action(action, check=self.player.check)
            return True
        except IllegalAction as error:
            refused = error.reason
        said = f"✗ The move of seat {self.seat}'s bot was refused ({refused})"
        for fallback in table.game.legal_actions(view):
            with contextlib.suppress(IllegalAction):
                table.publish_action(fallback)
                self.reporter.emit(Notice(f"{said}; it played another"))
                return True
        self.reporter.emit(Notice(f"{said}; it waits for the table to move on"))
        return False

    def _think(self, at_once: bool) -> None:
        """Let the bot move once its delay has passed (`at_once`: where seats act at once, its
        claim pace or a reaction time); meanwhile the loop keeps receiving and checking the
        others' messages."""
        if self.thinking is None:
            self._thinking_at_once = at_once
            follow_up = at_once and self.table.follows_up()
            delay = self.player.timing.delay(at_once, follow_up=follow_up)
            task = self._move_after_delay(delay)
            self.thinking = asyncio.get_running_loop().create_task(task)

    async def _move_after_delay(self, delay: float) -> None:
        await self.player.sleep(delay)
        self.thinking = None
        # The bot chooses now, from the table as it is now: if this seat may no longer choose
        # (or the move is already in the log) nothing is published.
        self.run(bot_due=True)
