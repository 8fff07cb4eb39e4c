"""A networked seat of a Larry table: the `TableSession` the UI, a bot or the CLI plays through.

`TablePeer` wires a `LarryTable` (p2p.table.driver) to the table log (`TableLog` + `TableSync`
over a connected `Mesh`) and to disk (the transcript, and the secrets file holding the seed of
this seat's randomness and the give-away shares it received). It publishes what the table says
this seat owes, lets a bot play for the seat if it has one, and reports `TableEvent`s.

Restart: a peer started again with the same identity and data directory finds its transcript,
replays it through a table rebuilt from the same seed (so it regains its own secrets), skips what
it had already signed, and catches up with the others through TableSync's "need" exchange.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fairdeal.engine.bots import Bot
from fairdeal.engine.larry import Action, IllegalAction, LarryOptions, LarryView, apply
from fairdeal.engine.larry.codec import to_data
from fairdeal.p2p.canonical import pack_canonical
from fairdeal.p2p.deck import DeckFault, DeckSession
from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import Identity, PublicIdentity
from fairdeal.p2p.lobby.messages import signed_roster_record
from fairdeal.p2p.lobby.roster import SignedRoster
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import Fault, Roster, TableLog
from fairdeal.p2p.log.transcript import SecretStore, Transcript, load_transcript
from fairdeal.p2p.net.framing import MAX_FRAME_SIZE, encode_frame, pack_message
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.table.api import (
    DoubtVerification,
    EventHistory,
    FaultDetected,
    Notice,
    SeatInfo,
    SeatStatus,
    StateChanged,
    TableEvent,
)
from fairdeal.p2p.table.driver import ACT, LarryTable, Private, Publish
from fairdeal.p2p.table.games import table_class_for
from fairdeal.p2p.table.randomness import SeededRandom, new_seed

if TYPE_CHECKING:
    from fairdeal.p2p.table.gather import Seated

log = logging.getLogger("fairdeal.table")


def evidence_path(transcript: Path) -> Path:
    """Where a peer keeps the signed evidence of faults that never enter the log."""
    return transcript.with_name(transcript.name + ".faults")


DEFAULT_SILENCE_LIMIT = 30.0


@dataclass
class PeerTimings:
    """What a peer measured (for `simulate` and the benchmark); seconds, monotonic clock."""

    started: float = 0.0
    setup_done: float | None = None
    finished: float | None = None
    move_latencies: list[float] = field(default_factory=list)
    doubt_latencies: list[float] = field(default_factory=list)
    hand_setups: list[float] = field(default_factory=list)  # the shuffle and deal of hands 2, 3


def describe_verification(verification: DoubtVerification) -> str:
    """The doubt as a headless peer logs it: each pile card, its proof, totals, verdict."""
    lines = [
        f"doubt by seat {verification.doubter} against seat {verification.last_player}:",
    ]
    for card in verification.cards:
        way = "face-up" if card.face_up else "face-down"
        lines.append(
            f"  slot {card.slot} played {way} by seat {card.seat}: card {card.face}, "
            f"shares {card.proof.value}"
        )
    verdict = "correct" if verification.correct else "wrong"
    lines.append(
        f"  true total {verification.true_total} vs announced {verification.announced} "
        f"(gloats {verification.gloats}): {verdict}; seat {verification.loser} picks up"
    )
    return "\n".join(lines)


def table_secret_name(table_id: bytes, what: str) -> str:
    """Where a seat keeps one of its secrets for table `table_id` in its SecretStore."""
    return f"table/{table_id.hex()}/{what}"


class TablePeer:
    """One seat at a networked Larry table (implements table_api.TableSession)."""

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
        bot: Bot | None = None,
        silence_limit: float = DEFAULT_SILENCE_LIMIT,
        table_class: type[LarryTable] | None = None,
        bot_delay: float = 0.0,
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
        )
        peer.seat_addresses = list(seated.addresses)  # kept in the header: `fairdeal resume`
        return peer

    def __init__(
        self,
        identity: Identity,
        roster: Roster,
        seat: int,
        options: LarryOptions,
        mesh: Mesh,
        *,
        transcript: Path,
        secrets: SecretStore,
        names: Sequence[str] | None = None,
        bot: Bot | None = None,
        silence_limit: float = DEFAULT_SILENCE_LIMIT,
        table_class: type[LarryTable] | None = None,
        signed_roster: SignedRoster | None = None,
        bot_delay: float = 0.0,
        bot_sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        """`signed_roster`: the lobby's roster every seat signed (protocol.md 5.5); it opens the
        log and is kept in the transcript's header for auditors. `bot_delay`: seconds the bot
        "thinks" before each move so that people at the table can follow (0: at once, as headless
        peers, simulate and the benchmarks play); `bot_sleep` waits it (tests inject their own)."""
        if bot_delay < 0:
            raise ValueError("the bot delay cannot be negative")
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
        self.bot = bot
        self.bot_delay = bot_delay
        self._bot_sleep = bot_sleep
        self._bot_thinking: asyncio.Task[None] | None = None  # the delayed move, while it waits
        self.silence_limit = silence_limit
        # The game's driver, by the options' game; tests plug cheating subclasses in here.
        self._table_class = table_class or table_class_for(options)
        self.signed_roster = signed_roster
        self.timings = PeerTimings()
        self.table: LarryTable | None = None
        self.sync: TableSync | None = None
        self.history = EventHistory()
        self._closed = False
        self._pump_scheduled = False
        self._already_signed: Counter[bytes] = Counter()
        self._done = asyncio.get_event_loop().create_future()
        self._watchdog: asyncio.Task[None] | None = None
        self._waiting_since = time.monotonic()
        self._reported_wait: int | None = None
        self._act_applied_at: float | None = None
        self._doubt_at: float | None = None
        self._hand_starting = False
        self._privates: list[Private] = []  # give-away shares this seat sent (resent on reconnect)

    # -- TableSession ---------------------------------------------------------------------

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

    def view(self) -> LarryView:
        assert self.table is not None and self.table.state is not None, "the game has not begun"
        return self.table.view()

    async def act(self, action: Action) -> None:
        table = self._require_table()
        if table.state is None or not table.my_turn():
            raise IllegalAction(self._seat, "it is not your turn")
        apply(table.state, self._seat, action)  # raises IllegalAction; nothing is published
        table.outbox.append(Publish(ACT, to_data(action)))
        self._pump()

    def events(self) -> AsyncIterator[TableEvent]:
        return self.history.replay()

    async def start(self) -> None:
        """Open (or reopen after a crash) this seat's table and start playing."""
        seed = self.secrets.get(self._secret_name("seed"))
        if seed is None:
            seed = new_seed()
            self.secrets.put(self._secret_name("seed"), seed)
        deck = DeckSession(
            self.roster.table, self._seat, len(self.roster.keys), random_bytes=SeededRandom(seed)
        )
        table = self._table_class(
            self.roster.table, len(self.roster.keys), self.options, deck, self.signed_roster
        )
        self.table = table
        table.start()
        self.mesh.on("fwd", self._on_forward)
        self.mesh.on_peer_up(self._on_peer_up)
        self.timings.started = time.monotonic()
        for sender, body in self.secrets.get(self._secret_name("forwards"), []):
            table.receive_private(sender, body)  # give-aways received before a restart
        if self.transcript_path.exists():
            contents = load_transcript(self.transcript_path)
            # What the replay makes this seat owe again was published before the crash; one
            # regenerated item is dropped per envelope signed (actions come from the bot, not
            # from the replay, and are never dropped).
            self._already_signed = Counter(
                pack_canonical(e.body) for e in contents.signed if e.kind != ACT
            )
            sync = TableSync.restore(
                self.mesh, self.identity, self.transcript_path, self._ordering, self._apply
            )
            self._emit(Notice(f"resumed from {self.transcript_path.name}: {table.applied} entries"))
        else:
            extra: dict[str, Any] = {}
            if self.signed_roster is not None:
                extra["signed_roster"] = signed_roster_record(self.signed_roster)
            if self.seat_addresses is not None:
                extra["addresses"] = [None if a is None else list(a) for a in self.seat_addresses]
            transcript = Transcript.create(self.transcript_path, self.roster, self._seat, extra)
            log_ = TableLog(self.roster, self._ordering, self._apply)
            sync = TableSync(self.mesh, log_, self.identity, self._seat, transcript)
        self.sync = sync
        sync.log.on_applied(self._on_applied)
        sync.log.on_fault(self._on_log_fault)
        for key in self.roster.keys:
            if key in self.mesh.peers:
                sync._ask(self.mesh.peers[key])  # catch up with whoever is already connected
        self._watchdog = asyncio.get_running_loop().create_task(self._watch_silence())
        self._pump()

    async def close(self) -> None:
        thinking, self._bot_thinking = self._bot_thinking, None
        if thinking is not None:  # a delayed bot move not made yet is dropped, never published
            thinking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await thinking
        if self._watchdog is not None:
            self._watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watchdog
        if self.sync is not None and self.sync.transcript is not None:
            self.sync.transcript.close()
        self._closed = True
        self.history.close()

    # -- waiting ---------------------------------------------------------------------------

    async def finished(self, timeout: float | None = None) -> LarryTable:
        """Wait until the game is over or stopped by a fault; returns the table."""
        async with asyncio.timeout(timeout):
            await asyncio.shield(self._done)
        return self._require_table()

    # -- internals -------------------------------------------------------------------------

    def _require_table(self) -> LarryTable:
        if self.table is None:
            raise RuntimeError("the table has not been started")
        return self.table

    def _secret_name(self, what: str) -> str:
        return table_secret_name(self.roster.table, what)

    def _ordering(self, _log: TableLog) -> int | None:
        return self._require_table().expected_seat()

    def _apply(self, envelope: Envelope) -> None:
        self._require_table().apply(envelope)

    def _on_applied(self, envelope: Envelope) -> None:
        now = time.monotonic()
        self._waiting_since = now
        if envelope.kind == ACT:
            self._act_applied_at = now
        self._schedule()

    def _on_log_fault(self, fault: Fault) -> None:
        """A fault the log finds (equivocation, a bad chain): keep its signed evidence beside
        the transcript, where `fairdeal audit` checks it, and stop the table."""
        record = {
            "seat": fault.seat,
            "kind": fault.kind,
            "detail": fault.detail,
            "evidence": [[e.signed, e.signature] for e in fault.evidence],
        }
        with open(evidence_path(self.transcript_path), "ab") as file:
            file.write(encode_frame(pack_message(record), MAX_FRAME_SIZE))
        table = self._require_table()
        table._stop(fault.seat, fault.kind, fault.detail)
        self._schedule()

    def _on_forward(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        sender = self.roster.seat_of(peer.key)
        if sender is None or message.get("table") != self.roster.table:
            return
        body = message.get("m")
        table = self._require_table()
        name = self._secret_name("forwards")
        known = self.secrets.get(name, [])
        if [sender, body] not in known:  # kept before use: a crash must not lose it
            self.secrets.put(name, [*known, [sender, body]])
        try:
            table.receive_private(sender, body)
        except DeckFault as fault:
            raise PeerError(f"seat {sender}", fault.what) from None
        self._schedule()

    def _send_private(self, item: Private) -> None:
        self.mesh.send(
            self.roster.keys[item.to], {"t": "fwd", "table": self.roster.table, "m": item.body}
        )

    def _on_peer_up(self, peer: PublicIdentity) -> None:
        """Give-away shares go again to a peer that (re)connects: it may have missed them (a
        copy it already has is ignored)."""
        seat = self.roster.seat_of(peer.key)
        for item in self._privates:
            if item.to == seat:
                self._send_private(item)

    def _schedule(self) -> None:
        if not self._pump_scheduled and not self._closed:
            self._pump_scheduled = True
            asyncio.get_running_loop().call_soon(self._pump)

    def _pump(self, bot_due: bool = False) -> None:
        """Publish what this seat owes, report events, and let the bot play its turn (after its
        delay, if it has one: `bot_due` says the delay has passed)."""
        self._pump_scheduled = False
        table, sync = self.table, self.sync
        if table is None or sync is None or self._closed:
            return
        while True:
            while table.outbox:
                item = table.outbox.pop(0)
                if isinstance(item, Private):
                    self._privates.append(item)
                    self._send_private(item)
                elif item.kind != ACT and self._already_signed[packed := pack_canonical(item.body)]:
                    self._already_signed[packed] -= 1  # signed before a restart: in the log
                else:
                    sync.publish(item.kind, item.body)
            self._drain_table_events()
            if (
                self.bot is not None
                and table.my_turn()
                and not sync.log.holds(self._seat, sync.log.next_seq(self._seat))
            ):
                if self.bot_delay > 0 and not bot_due:
                    self._think()
                    break
                bot_due = False  # the next move of this seat waits its own delay
                action = self.bot.choose(table.view())
                table.outbox.append(Publish(ACT, to_data(action)))
                continue
            break
        if table.over and not self._done.done():
            self.timings.finished = time.monotonic()
            self._done.set_result(None)

    def _think(self) -> None:
        """Let the bot move once its delay has passed; meanwhile the loop keeps receiving and
        checking the others' messages."""
        if self._bot_thinking is None:
            self._bot_thinking = asyncio.get_running_loop().create_task(self._move_after_delay())

    async def _move_after_delay(self) -> None:
        await self._bot_sleep(self.bot_delay)
        self._bot_thinking = None
        # The bot chooses now, from the table as it is now: if it is no longer this seat's turn
        # (or the move is already in the log) nothing is published.
        self._pump(bot_due=True)

    def _drain_table_events(self) -> None:
        table = self._require_table()
        events, table.events = table.events, []
        now = time.monotonic()
        for event in events:
            if isinstance(event, StateChanged):
                state = event.state
                awaiting_act = state.to_act() is not None and not state.over
                if awaiting_act and self.timings.setup_done is None:
                    self.timings.setup_done = now
                if any(type(e).__name__ == "HandStarted" for e in event.events):
                    self._hand_starting = True
                if (awaiting_act or state.over) and self._act_applied_at is not None:
                    elapsed = now - self._act_applied_at
                    if self._hand_starting:  # the move ended a hand: next hand's setup
                        self.timings.hand_setups.append(elapsed)
                    else:
                        self.timings.move_latencies.append(elapsed)
                    self._act_applied_at = None
                    self._hand_starting = False
                if any(type(e).__name__ == "Doubted" for e in event.events):
                    self._doubt_at = self._act_applied_at or now
            elif isinstance(event, DoubtVerification):
                if self._doubt_at is not None:
                    self.timings.doubt_latencies.append(now - self._doubt_at)
                    self._doubt_at = None
                log.info("%s", describe_verification(event))
            elif isinstance(event, FaultDetected):
                log.warning(
                    "seat %s broke the protocol: %s (%s)", event.seat, event.what, event.evidence
                )
            self._emit(event)

    def _emit(self, event: TableEvent) -> None:
        self.history.append(event)

    async def _watch_silence(self) -> None:
        """L-none: a seat silent past the limit is shown as holding up the game; we wait."""
        interval = max(0.05, min(1.0, self.silence_limit / 4))
        while True:
            await asyncio.sleep(interval)
            table = self.table
            if table is None or table.over:
                continue
            seat = table.expected_seat()
            waited = time.monotonic() - self._waiting_since
            if seat is None or seat == self._seat or waited < self.silence_limit:
                if self._reported_wait is not None:
                    self._emit(SeatStatus(self._reported_wait, True, None))
                    self._reported_wait = None
                continue
            connected = self.roster.keys[seat] in self.mesh.peers
            self._reported_wait = seat
            self._emit(SeatStatus(seat, connected, waited))
