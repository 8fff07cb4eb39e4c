"""A networked seat of a table of any game: the `TableSession` the UI, a bot or the CLI plays.

`TablePeer` wires a game's table driver (`LarryTable`, `LieTable`: p2p.table.core.games picks it by
the options) to the table log (`TableLog` + `TableSync` over a connected `Mesh`) and to disk (the
transcript, and the secrets file holding the seed of this seat's randomness and the give-away
shares it received). It publishes what the table says this seat owes, lets a bot play for the
seat if it has one, signs the step envelopes a phase in steps needs (The Lie's Phase 1: `pace`),
and reports `TableEvent`s. Everything game-specific is asked of the driver (`publish_action`,
`may_choose`, `pace`, `owes`, `choice_kinds`), so this file has no game branch.

The parts live beside it, each owning its state; the peer makes them and wires them (none holds
the peer): the pump that moves the table forward (p2p/table/runtime/pump.py), the give-away
forwards on the wire (forwarding.py), the reporting of the table's events (reporting.py), whether
the seat still plays (lifecycle.py), the restart's bookkeeping (recovery.py), the silence watch
(watchdog.py, a machine it ticks), the departures (departures.py), the watchers it serves
(watchers.py), the fault evidence file (evidence.py) and the timings (timings.py).

Restart: a peer started again with the same identity and data directory finds its transcript,
replays it through a table rebuilt from the same seed (so it regains its own secrets), skips what
it had already signed, and catches up with the others through TableSync's "need" exchange.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fairdeal.engine.bots import AnyBot
from fairdeal.engine.errors import IllegalAction
from fairdeal.p2p.deck import DeckSession
from fairdeal.p2p.identity import Identity, PublicIdentity
from fairdeal.p2p.lobby.messages import signed_roster_record
from fairdeal.p2p.lobby.roster import SignedRoster
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import Fault, Roster, TableLog, genesis_head
from fairdeal.p2p.log.transcript import (
    SecretStore,
    Transcript,
    TranscriptWriteError,
    load_transcript,
)
from fairdeal.p2p.net.kinds import FWD
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.table.core.api import (
    EventHistory,
    FaultDetected,
    MovesHeld,
    Notice,
    ReplayDone,
    ReplayStarted,
    SeatConnection,
    SeatInfo,
    TableEvent,
    WatchersChanged,
)
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.games import table_class_for
from fairdeal.p2p.table.core.leaving import LEFT, sign_left
from fairdeal.p2p.table.core.presenter import presenter_for, result_so_far
from fairdeal.p2p.table.core.withheld import WITHHELD_KIND
from fairdeal.p2p.table.runtime import left_file
from fairdeal.p2p.table.runtime.departures import Departures
from fairdeal.p2p.table.runtime.evidence import EvidenceFile, evidence_path
from fairdeal.p2p.table.runtime.forwarding import ForwardPost
from fairdeal.p2p.table.runtime.lifecycle import SeatLife
from fairdeal.p2p.table.runtime.pump import BotSeat, Pump
from fairdeal.p2p.table.runtime.randomness import (
    SeededRandom,
    new_seed,
    table_secret_name,
)
from fairdeal.p2p.table.runtime.reaction import BotTiming, Reactions
from fairdeal.p2p.table.runtime.recovery import Recovery, seat_seed_for
from fairdeal.p2p.table.runtime.reporting import Reporter
from fairdeal.p2p.table.runtime.timings import PeerTimings, TimingWatch
from fairdeal.p2p.table.runtime.watchdog import Applied, SilenceWatch, observe
from fairdeal.p2p.table.runtime.watchers import WatchService

if TYPE_CHECKING:
    from fairdeal.p2p.table.runtime.gather import Seated

log = logging.getLogger("fairdeal.table")


left_path = left_file.left_path  # where the signed `left` messages are kept (protocol.md 10.12)
# Kept importable from here, where they were before the peer's parts had their own modules.
__all__ = ["PeerTimings", "TablePeer", "evidence_path", "left_path"]


LEAVE_FLUSH_S = 2.0  # how long leaving waits for the `left` message to reach the others


DEFAULT_SILENCE_LIMIT = 30.0


class TablePeer:
    """One seat at a networked table of any game (implements table_api.TableSession)."""

    # Where each seat listens, recorded in a new transcript's header (None: not known).
    seat_addresses: list[tuple[str, int] | None] | None = None

    @classmethod
    def for_seated(
        cls,
        identity: Identity,
        seated: Seated,
        *,
        transcript: Path,
        secrets: SecretStore,
        bot: AnyBot | None = None,
        silence_limit: float = DEFAULT_SILENCE_LIMIT,
        table_class: type[TableDriver] | None = None,
        bot_delay: float = 0.0,
        claim_pace: float = 0.0,
        reactions: Reactions | None = None,
        timings: PeerTimings | None = None,
    ) -> TablePeer:
        """The peer of a table gathered by the lobby: its roster, seat, options, mesh, names and
        the signed roster that opens the log, all taken from `seated`."""
        peer = cls(
            identity,
            seated.roster,
            seated.seat,
            seated.options,
            seated.mesh,
            transcript=transcript,
            secrets=secrets,
            names=seated.names,
            bot=bot,
            silence_limit=silence_limit,
            table_class=table_class,
            signed_roster=seated.signed,
            bot_delay=bot_delay,
            claim_pace=claim_pace,
            reactions=reactions,
            timings=timings,
        )
        peer.seat_addresses = list(seated.addresses)  # kept in the header: `fairdeal resume`
        return peer

    def __init__(
        self,
        identity: Identity,
        roster: Roster,
        seat: int,
        options: Any,
        mesh: Mesh,
        *,
        transcript: Path,
        secrets: SecretStore,
        names: Sequence[str] | None = None,
        bot: AnyBot | None = None,
        silence_limit: float = DEFAULT_SILENCE_LIMIT,
        table_class: type[TableDriver] | None = None,
        signed_roster: SignedRoster | None = None,
        bot_delay: float = 0.0,
        claim_pace: float = 0.0,
        reactions: Reactions | None = None,
        reaction_rng: random.Random | None = None,
        bot_sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        new_contribution: Callable[[], bytes] = new_seed,
        timings: PeerTimings | None = None,
    ) -> None:
        """`signed_roster`: the lobby's roster every seat signed (protocol.md 5.5); it opens the
        log and is kept in the transcript's header for auditors. `bot_delay`: seconds the bot
        "thinks" before each move so that people at the table can follow (0: at once, as headless
        peers, simulate and the benchmarks play); `claim_pace`: where seats act at once (The
        Lie's Phase 1, T3), seconds the bot waits before each claim (0: as fast as allowed, one
        card at a time), unless `reactions` gives human-like reaction times to draw each wait
        from (with `reaction_rng`; the system's generator when None: p2p/table/runtime/reaction.py);
        `bot_sleep` waits any of them (tests inject their own).
        `new_contribution`: draws this seat's own secret contribution to a new table's seed
        (tests pin it; p2p.table.runtime.randomness). `timings`: where to measure this seat's
        table, for whoever reads it (simulate, the benchmarks, tests); None: nobody does, and
        nothing is timed."""
        bot_timing = BotTiming(bot_delay, claim_pace, reactions)
        if reaction_rng is not None:
            bot_timing = replace(bot_timing, rng=reaction_rng)
        if roster.keys[seat] != identity.key:
            raise ValueError(f"seat {seat} of the roster is not {identity}")
        if signed_roster is not None and roster.keys != signed_roster.roster.keys:
            raise ValueError("the signed roster seats other keys than the table's roster")
        self.identity = identity
        self.roster = roster
        self._seat = seat
        self.options = options
        self.mesh = mesh
        self.transcript_path = transcript
        self.secrets = secrets
        self.names = list(names or [f"seat {s}" for s in roster.seats])
        self.player = BotSeat(bot, bot_timing, bot_sleep)  # the pump lets it play
        self.silence_limit = silence_limit
        # The game's driver, by the options' game; tests plug cheating subclasses in here.
        self._table_class = table_class or table_class_for(options)
        self._new_contribution = new_contribution
        self.signed_roster = signed_roster
        # The parts, each owning its state; the pump and the handlers below wire them.
        self.timings = timings
        presenter = presenter_for(self._table_class.game_name)
        self._timing = None if timings is None else TimingWatch(timings, presenter)
        self.table: TableDriver | None = None
        self.sync: TableSync | None = None
        self.history = EventHistory()
        done: asyncio.Future[None] = asyncio.get_event_loop().create_future()
        self.life = SeatLife(self.history, done)
        self._pump: Pump | None = None  # made once the table and its log are
        self.recovery = Recovery(seat)
        self.watch_silence = SilenceWatch(silence_limit, time.monotonic())
        self._watchdog: asyncio.Task[None] | None = None
        self._verifier: ThreadPoolExecutor | None = None
        self.evidence = EvidenceFile(transcript, self.life.fail)
        self.reporter = Reporter(self.history, self._timing, self.evidence)
        self.post = ForwardPost(identity, roster, seat, mesh, secrets)
        life = self.life
        self.departures = Departures(
            seat, roster, mesh, transcript, self.history.append, lambda: life.closed
        )
        self._ended = False  # this seat left or ended the table: it signs nothing more

    # -- the parts' state, as the seat's --------------------------------------------------

    @property
    def bot(self) -> AnyBot | None:
        """The bot playing this seat (None: its player); it may be handed one at any time."""
        return self.player.bot

    @bot.setter
    def bot(self, bot: AnyBot | None) -> None:
        self.player.bot = bot

    @property
    def check_own_actions(self) -> bool:
        """Every action of this seat, the player's or its bot's, is checked by the driver before
        it is signed. Only a test's deliberate cheat turns this off, to reach the others' fault
        path."""
        return self.player.check

    @check_own_actions.setter
    def check_own_actions(self, check: bool) -> None:
        self.player.check = check

    @property
    def closed(self) -> bool:
        return self.life.closed

    @property
    def done(self) -> asyncio.Future[None]:
        return self.life.done

    @property
    def disk_failure(self) -> TranscriptWriteError | None:
        """The write the disk refused, if it did (the seat stopped there)."""
        return self.life.disk_failure

    @property
    def pump(self) -> Pump:
        if self._pump is None:
            raise RuntimeError("the table has not been started")
        return self._pump

    # -- TableSession ---------------------------------------------------------------------

    @property
    def left_seats(self) -> dict[int, str]:
        """The seats that left the table, with their reason."""
        return self.departures.left

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(
            SeatInfo(
                self.names[s],
                PublicIdentity(key, self.names[s]).code,
                is_bot=self.bot is not None and s == self._seat,
                is_me=s == self._seat,
            )
            for s, key in enumerate(self.roster.keys)
        )

    def view(self) -> Any:
        assert self.table is not None and self.table.state is not None, "the game has not begun"
        return self.table.view()

    async def act(self, action: Any) -> None:
        """Play `action` for this seat: the driver checks it as every peer will (raises
        IllegalAction, publishing nothing)."""
        table = self._require_table()
        if self._ended:
            raise IllegalAction(self._seat, "you have left this table")
        if table.state is None:
            raise IllegalAction(self._seat, "it is not your turn")
        table.publish_action(action)
        self.pump.run()
        if self.pump.recovering:  # kept, not lost: said, since nothing changes meanwhile
            names = [self.seats[seat].name for seat in sorted(self.recovery.waiting)]
            self.emit(
                Notice(
                    f"Your move is kept: it goes out once {' and '.join(names)} "
                    f"{'has' if len(names) == 1 else 'have'} sent back what they hold of this "
                    "seat's envelopes (a seat taken back after a crash signs nothing before)."
                )
            )

    def events(self) -> AsyncIterator[TableEvent]:
        return self.history.replay()

    def end_over_withheld_reveal(self) -> FaultDetected:
        """End the table because a seat withholds its coin reveal past the silence limit:
        the table stops with a fault naming that seat, and its evidence (the
        seat's signed commitment) is kept beside the transcript. Raises IllegalAction when no
        seat is withholding one: ordinary silence is waited out (protocol.md 10.6)."""
        table = self._require_table()
        withheld = self.watch_silence.withheld
        if withheld is None or table.over or table.expected_seat() != withheld.seat:
            raise IllegalAction(self._seat, "no seat is withholding a coin reveal")
        self.evidence.keep(withheld.seat, WITHHELD_KIND, withheld.describe(), [withheld.commitment])
        table.stop(withheld.seat, withheld.what, withheld.describe())
        self.pump.run()
        assert table.fault is not None
        return table.fault

    async def start(self) -> None:
        """Open (or reopen after a crash) this seat's table and start playing."""
        # Other seats' shuffle proofs (and half of each share message's) are checked on this
        # worker while the loop goes on: p2p/deck/chains.py, p2p/deck/session.py.
        self._verifier = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deck-verify")
        deck = DeckSession(
            self.roster.table,
            self._seat,
            len(self.roster.keys),
            random_bytes=SeededRandom(self._seat_seed()),
            parallel=self._verifier,
        )
        table = self._table_class(
            self.roster.table,
            len(self.roster.keys),
            self.options,
            deck,
            self.signed_roster,
            keys=self.roster.keys,
        )
        self.table = table
        table.start()
        self.mesh.on(FWD, self._on_forward)
        self.mesh.on(LEFT, self.departures.on_left)
        self.mesh.on_peer_up(self._on_peer_up)
        self.mesh.on_peer_down(self._on_peer_down)
        if self.timings is not None:
            self.timings.started = time.monotonic()
        for kept in self.secrets.get(table_secret_name(self.roster.table, "forwards"), []):
            table.restore_forward(kept)  # give-aways received (and checked) before a restart
        if self.transcript_path.exists():
            contents = load_transcript(self.transcript_path)
            # What the replay makes this seat owe again was published before the crash; one
            # regenerated item is dropped per envelope signed (actions come from the bot, not
            # from the replay, and are never dropped).
            others = set(self.roster.seats) - {self._seat}
            self.recovery.begin(contents.signed, table.choice_kinds, others)
            name = self.transcript_path.name
            self.emit(ReplayStarted(f"replaying {name}…"))
            sync = TableSync.restore(self.mesh, self.identity, self.transcript_path, table)
            # The disk may have dropped our last records, envelopes the others hold: sign
            # nothing until every other seat has sent back what it has (a new envelope for a
            # place already used would be equivocation).
            sync.on_answered(self._on_answered)
            self.recovery.restore_own(table, sync.log)
            self.departures.restore()
            self.reporter.drain(table, None)  # the game so far, before the notice that it is over
            self.emit(ReplayDone(f"resumed from {name}: {table.applied} entries"))
        else:
            extra = self._header_extra()
            transcript = Transcript.create(self.transcript_path, self.roster, self._seat, extra)
            log_ = TableLog(self.roster, table)  # the table is the log's rules
            sync = TableSync(self.mesh, log_, self.identity, self._seat, transcript)
        self.sync = sync
        pump = self._pump = Pump(
            self._seat,
            table,
            sync,
            transcript=self.transcript_path,
            recovery=self.recovery,
            post=self.post,
            reporter=self.reporter,
            life=self.life,
            timings=self.timings,
            player=self.player,
        )
        sync.log.limits = table.envelope_limits()  # what one seat can make this peer hold
        # Watchers (protocol.md 4.8): the log in order to peers with no seat, nothing private;
        # where the seats listen, so that a watcher goes on through another if this one goes.
        header = self._header_extra()
        self.watch = WatchService(self.mesh, sync.log, self._seat, header)
        self.watch.on_change(self._on_watchers)
        sync.on_failure(self.life.fail)
        sync.log.on_applied(self._on_applied)
        # An envelope held back (another seat's step envelope) may need this seat's answer.
        sync.on_update(pump.schedule)
        sync.log.on_fault(self._on_log_fault)
        sync.ask_connected()  # catch up with whoever is already connected
        for seat in self.roster.seats:  # where each seat is now; then as channels come and go
            if seat != self._seat:
                self.emit(SeatConnection(seat, self._connected(seat)))
        if self.recovery.recovering:  # taken back after a crash: whom its moves wait for
            self.emit(MovesHeld(tuple(sorted(self.recovery.waiting))))
        self._watchdog = asyncio.get_running_loop().create_task(self._watch_silence())
        pump.run()

    async def end_table(self, reason: str) -> None:
        """Leave for good (protocol.md 10.12): sign `left` and send it to every connected seat,
        wait a little for it to go out, emit the result so far (`TableEnded`) and close."""
        if self._ended or self.closed:
            return
        self._ended = True
        head = self.sync.log.head if self.sync is not None else genesis_head(self.roster.table)
        message = sign_left(self.identity, self.roster, self._seat, head, reason)
        # our own `left` is kept too (the audit says who ended the table), and `host` will not
        # take this seat back by itself (`resume` does, on purpose)
        left_file.append_left(self.transcript_path, message)
        left_file.mark_ended(self.transcript_path, self._seat, message.reason)
        sent = self.departures.send(message)
        log.info("seat %s left the table (%s); told %d seat(s)", self._seat, reason, sent)
        await self.mesh.drain_within(LEAVE_FLUSH_S)
        table = self.table
        state = table.state if table is not None else None
        self.emit(result_so_far(state, len(self.roster.keys), message.reason))
        await self.close()

    async def close(self) -> None:
        if self.closed:
            return
        if self._pump is not None:  # a delayed bot move not made yet is dropped, never published
            await self._pump.stop()
        if self._watchdog is not None:
            self._watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watchdog
        if self.sync is not None:
            self.sync.close()
        if self._verifier is not None:
            self._verifier.shutdown()
        self.life.closed = True
        self.history.close()

    # -- waiting ---------------------------------------------------------------------------

    async def finished(self, timeout: float | None = None) -> TableDriver:
        """Wait until the game is over or stopped by a fault; returns the table."""
        async with asyncio.timeout(timeout):
            await asyncio.shield(self.done)
        return self._require_table()

    # -- internals -------------------------------------------------------------------------

    def _require_table(self) -> TableDriver:
        if self.table is None:
            raise RuntimeError("the table has not been started")
        return self.table

    def _header_extra(self) -> dict[str, Any]:
        """What a new transcript's header keeps beside the roster (protocol.md 4.7), and what a
        watcher's header carries (4.8): the lobby's signed roster, where each seat listens."""
        extra: dict[str, Any] = {}
        if self.signed_roster is not None:
            extra["signed_roster"] = signed_roster_record(self.signed_roster)
        if self.seat_addresses is not None:
            extra["addresses"] = [None if a is None else list(a) for a in self.seat_addresses]
        return extra

    def _seat_seed(self) -> bytes:
        """This seat's seed for the table (recovery.seat_seed_for: drawn anew, or kept)."""
        return seat_seed_for(
            self.secrets,
            self.transcript_path,
            self.roster,
            self.signed_roster,
            self._seat,
            self._new_contribution,
        )

    def _on_applied(self, envelope: Envelope) -> None:
        now = time.monotonic()
        self.watch_silence.feed(Applied(now))  # names nobody at once: the clock restarts
        if self._timing is not None and envelope.kind == self._require_table().act_kind:
            self._timing.act_applied_at = now
        self.pump.schedule()

    def _on_log_fault(self, fault: Fault) -> None:
        """A fault the log finds (equivocation, a bad chain): keep its signed evidence beside
        the transcript, where `fairdeal audit` checks it, and stop the table."""
        self.evidence.keep(fault.seat, fault.kind, fault.detail, fault.evidence)
        table = self._require_table()
        table.log_fault(fault)  # names the seat and the envelopes that prove it
        self.pump.schedule()

    def _on_peer_up(self, peer: PublicIdentity) -> None:
        """Give-away shares go again to a peer that (re)connects: it may have missed them (a
        copy it already has is ignored); a seat that had left is back."""
        seat = self.roster.seat_of(peer.key)
        self.post.resend(seat)
        self.departures.connected(seat)
        self._tell_connection(seat)

    def _on_peer_down(self, peer: PublicIdentity) -> None:
        """A seat's channel closed: it is offline now, not after the silence limit."""
        self._tell_connection(self.roster.seat_of(peer.key))

    def _tell_connection(self, seat: int | None) -> None:
        if seat is not None and seat != self._seat and self.table is not None:
            self.emit(SeatConnection(seat, self._connected(seat)))

    def _on_answered(self, seat: int) -> None:
        """A seat answered our `need` in full; when all have, this seat may sign again. What
        the replay makes it owe is then matched against every envelope of its own the log
        holds, those taken back from the others included."""
        waiting = set(self.recovery.waiting)
        if self.sync is not None and self.recovery.answered(
            seat, self._require_table(), self.sync.log
        ):
            self.pump.schedule()
        if self.recovery.waiting != waiting:  # the moves wait for fewer seats, or for none
            self.emit(MovesHeld(tuple(sorted(self.recovery.waiting))))

    def _on_forward(self, sender: PublicIdentity, message: dict[str, Any]) -> None:
        """A give-away's sealed forward (protocol.md 10.8): the pump runs when the table took
        it (p2p/table/runtime/forwarding.py)."""
        table = self.table
        if table is not None and self.post.receive(sender, message, table):
            self.pump.schedule()

    def _on_watchers(self) -> None:
        """The players see who watches the table (name and key code, protocol.md 4.8): through
        this seat, and through the others as they say."""
        watchers = self.watch.everyone()
        who = ", ".join(f"{name} ({code})" for name, code in watchers) or "nobody any more"
        self.emit(WatchersChanged(f"Watching the table: {who}.", watchers))

    def emit(self, event: TableEvent) -> None:
        self.history.append(event)

    async def _watch_silence(self) -> None:
        """Tick the silence watch a few times per limit until the seat closes."""
        while True:
            await asyncio.sleep(self.watch_silence.interval)
            self._tick_silence(time.monotonic())

    def _tick_silence(self, now: float) -> None:
        """Show who holds the table up at `now` (monotonic), once the table and its log exist."""
        if self.table is None or self.sync is None:
            return
        connected = {seat for seat in self.roster.seats if self._connected(seat)}
        tick = observe(self.table, self.sync.log, self._seat, now, connected)
        for status in self.watch_silence.feed(tick):
            self.emit(status)

    def _connected(self, seat: int) -> bool:
        return self.roster.keys[seat] in self.mesh.peers
