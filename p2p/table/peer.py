"""A networked seat of a table of any game: the `TableSession` the UI, a bot or the CLI plays.

`TablePeer` wires a game's table driver (`LarryTable`, `LieTable`: p2p.table.games picks it by
the options) to the table log (`TableLog` + `TableSync` over a connected `Mesh`) and to disk (the
transcript, and the secrets file holding the seed of this seat's randomness and the give-away
shares it received). It publishes what the table says this seat owes, lets a bot play for the
seat if it has one, signs the step envelopes a phase in steps needs (The Lie's Phase 1: `pace`),
and reports `TableEvent`s. Everything game-specific is asked of the driver (`publish_action`,
`may_choose`, `pace`, `owes`, `choice_kinds`), so this file has no game branch.

Restart: a peer started again with the same identity and data directory finds its transcript,
replays it through a table rebuilt from the same seed (so it regains its own secrets), skips what
it had already signed, and catches up with the others through TableSync's "need" exchange.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fairdeal.engine.bots import Bot
from fairdeal.engine.errors import IllegalAction
from fairdeal.p2p.canonical import pack_canonical
from fairdeal.p2p.deck import DeckFault, DeckSession
from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import Identity, PublicIdentity
from fairdeal.p2p.lobby.messages import signed_roster_record
from fairdeal.p2p.lobby.roster import SignedRoster
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import Fault, Roster, TableLog, genesis_head
from fairdeal.p2p.log.transcript import (
    SecretStore,
    Transcript,
    TranscriptError,
    TranscriptWriteError,
    load_transcript,
    mark_done,
    open_private,
)
from fairdeal.p2p.net.framing import MAX_FRAME_SIZE, encode_frame, pack_message
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.table import left_file
from fairdeal.p2p.table.api import (
    CardsVerified,
    DoubtVerification,
    EventHistory,
    FaultDetected,
    Notice,
    ReplayDone,
    ReplayStarted,
    SeatInfo,
    SeatLeft,
    SeatReturned,
    SeatStatus,
    StateChanged,
    TableEvent,
    WatchersChanged,
    result_so_far,
)
from fairdeal.p2p.table.driver import Private, TableDriver
from fairdeal.p2p.table.forwards import SignedForward, sign_forward
from fairdeal.p2p.table.games import table_class_for
from fairdeal.p2p.table.leaving import LEFT, parse_left, sign_left
from fairdeal.p2p.table.randomness import (
    SeededRandom,
    check_new_table,
    new_seed,
    seat_seed,
    table_secret_name,
)
from fairdeal.p2p.table.watch import WatchService
from fairdeal.p2p.table.withheld import WITHHELD_KIND, WithheldReveal, withheld_reveal

if TYPE_CHECKING:
    from fairdeal.p2p.table.gather import Seated

log = logging.getLogger("fairdeal.table")


def evidence_path(transcript: Path) -> Path:
    """Where a peer keeps the signed evidence of faults that never enter the log."""
    return transcript.with_name(transcript.name + ".faults")


left_path = left_file.left_path  # where the signed `left` messages are kept (protocol.md 10.12)


LEAVE_FLUSH_S = 2.0  # how long leaving waits for the `left` message to reach the others


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
    # The Lie (T3): from signing a claim to knowing the front of the card it dealt this seat.
    claim_latencies: list[float] = field(default_factory=list)
    claims_signed: dict[int, float] = field(default_factory=dict)  # slot -> when, until dealt


# Engine events that start a new deal after a move: the next hand (Larry) or round (The Lie).
NEW_DEAL_EVENTS = frozenset({"HandStarted", "RoundStarted"})


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


class TablePeer:
    """One seat at a networked table of any game (implements table_api.TableSession)."""

    # Where each seat listens, recorded in a new transcript's header (None: not known).
    seat_addresses: list[tuple[str, int] | None] | None = None
    # Every action of this seat, the player's or its bot's, is checked by the driver before it is
    # signed. Only a test's deliberate cheat turns this off, to reach the others' fault path.
    check_own_actions: bool = True

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
        table_class: type[TableDriver] | None = None,
        bot_delay: float = 0.0,
        claim_pace: float = 0.0,
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
        bot: Bot | None = None,
        silence_limit: float = DEFAULT_SILENCE_LIMIT,
        table_class: type[TableDriver] | None = None,
        signed_roster: SignedRoster | None = None,
        bot_delay: float = 0.0,
        claim_pace: float = 0.0,
        bot_sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        new_contribution: Callable[[], bytes] = new_seed,
    ) -> None:
        """`signed_roster`: the lobby's roster every seat signed (protocol.md 5.5); it opens the
        log and is kept in the transcript's header for auditors. `bot_delay`: seconds the bot
        "thinks" before each move so that people at the table can follow (0: at once, as headless
        peers, simulate and the benchmarks play); `claim_pace`: where seats act at once (The
        Lie's Phase 1, T3), seconds the bot waits before each claim (0: as fast as allowed, one
        card at a time); `bot_sleep` waits either (tests inject their own).
        `new_contribution`: draws this seat's own secret contribution to a new table's seed
        (tests pin it; p2p.table.randomness)."""
        if bot_delay < 0 or claim_pace < 0:
            raise ValueError("the bot delay and the claim pace cannot be negative")
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
        self.claim_pace = claim_pace
        self._bot_sleep = bot_sleep
        self._bot_thinking: asyncio.Task[None] | None = None  # the delayed move, while it waits
        self._thinking_at_once = False  # whether that delay is a claim pace (seats act at once)
        self.silence_limit = silence_limit
        # The game's driver, by the options' game; tests plug cheating subclasses in here.
        self._table_class = table_class or table_class_for(options)
        self._new_contribution = new_contribution
        self.signed_roster = signed_roster
        self.timings = PeerTimings()
        self.table: TableDriver | None = None
        self.sync: TableSync | None = None
        self.history = EventHistory()
        self._closed = False
        self._pump_scheduled = False
        self._already_signed: Counter[bytes] = Counter()
        self._last_prev: bytes | None = None  # the prev of the newest envelope this seat signed
        self._signed_before: Counter[bytes] = Counter()
        self._recovering: set[int] = set()  # after a restart: seats yet to send back our own
        self._done = asyncio.get_event_loop().create_future()
        self._watchdog: asyncio.Task[None] | None = None
        self._verifier: ThreadPoolExecutor | None = None
        self._waiting_since = time.monotonic()
        self._reported_wait: set[int] = set()  # seats last reported as holding up the game
        self._withheld: WithheldReveal | None = None  # a coin reveal held up past the limit
        self._act_applied_at: float | None = None
        self._doubt_at: float | None = None
        self._hand_starting = False
        # give-away forwards this seat signed and sent (resent whenever the receiver reconnects)
        self._privates: list[SignedForward] = []
        self._evidence_kept = False  # a fault's evidence is in the `.faults` file
        self.disk_failure: TranscriptWriteError | None = None  # the disk refused a write
        self.left_seats: dict[int, str] = {}  # seats that left the table, with their reason
        self._lefts_seen: set[bytes] = set()  # every `left` already taken (a relayed copy is old)
        self._ended = False  # this seat left or ended the table: it signs nothing more

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
        self._pump()

    def events(self) -> AsyncIterator[TableEvent]:
        return self.history.replay()

    def end_over_withheld_reveal(self) -> FaultDetected:
        """End the table because a seat withholds its coin reveal past the silence limit
        (issue 13 item 6): the table stops with a fault naming that seat, and its evidence (the
        seat's signed commitment) is kept beside the transcript. Raises IllegalAction when no
        seat is withholding one: ordinary silence is waited out (protocol.md 10.6)."""
        table = self._require_table()
        withheld = self._withheld
        if withheld is None or table.over or table.expected_seat() != withheld.seat:
            raise IllegalAction(self._seat, "no seat is withholding a coin reveal")
        self._keep_evidence(
            withheld.seat, WITHHELD_KIND, withheld.describe(), [withheld.commitment]
        )
        table._stop(withheld.seat, withheld.what, withheld.describe())
        self._pump()
        assert table.fault is not None
        return table.fault

    async def start(self) -> None:
        """Open (or reopen after a crash) this seat's table and start playing."""
        # The next shuffler proves while this worker verifies the deck it got (issue 12.3).
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
        self.mesh.on("fwd", self._on_forward)
        self.mesh.on(LEFT, self._on_left)
        self.mesh.on_peer_up(self._on_peer_up)
        self.timings.started = time.monotonic()
        for kept in self.secrets.get(self._secret_name("forwards"), []):
            table.restore_forward(kept)  # give-aways received (and checked) before a restart
        if self.transcript_path.exists():
            contents = load_transcript(self.transcript_path)
            # What the replay makes this seat owe again was published before the crash; one
            # regenerated item is dropped per envelope signed (actions come from the bot, not
            # from the replay, and are never dropped).
            choices = table.choice_kinds
            self._already_signed = Counter(
                pack_canonical(e.body) for e in contents.signed if e.kind not in choices
            )
            name = self.transcript_path.name
            self._emit(ReplayStarted(f"replaying {name}…"))
            self._signed_before = Counter(self._already_signed)
            sync = TableSync.restore(
                self.mesh, self.identity, self.transcript_path, self._ordering, self._apply
            )
            # The disk may have dropped our last records, envelopes the others hold: sign
            # nothing until every other seat has sent back what it has (a new envelope for a
            # place already used would be equivocation).
            self._recovering = set(self.roster.seats) - {self._seat}
            sync.on_answered(self._on_answered)
            self._restore_own(sync.log)
            self._restore_left()
            self._drain_table_events()  # the game so far, before the notice that it is over
            self._emit(ReplayDone(f"resumed from {name}: {table.applied} entries"))
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
        # Watchers (protocol.md 4.8): the log in order to peers with no seat, nothing private.
        header = (
            {}
            if self.signed_roster is None
            else {"signed_roster": signed_roster_record(self.signed_roster)}
        )
        self.watch = WatchService(self.mesh, sync.log, self._seat, header)
        self.watch.on_change(self._on_watchers)
        sync.on_failure(self._on_disk_failure)
        sync.log.on_applied(self._on_applied)
        # An envelope held back (another seat's step envelope) may need this seat's answer.
        sync.on_update(self._schedule)
        sync.log.on_fault(self._on_log_fault)
        for key in self.roster.keys:
            if key in self.mesh.peers:
                sync._ask(self.mesh.peers[key])  # catch up with whoever is already connected
        self._watchdog = asyncio.get_running_loop().create_task(self._watch_silence())
        self._pump()

    async def end_table(self, reason: str) -> None:
        """Leave for good (protocol.md 10.12): sign `left` and send it to every connected seat,
        wait a little for it to go out, emit the result so far (`TableEnded`) and close."""
        if self._ended or self._closed:
            return
        self._ended = True
        head = self.sync.log.head if self.sync is not None else genesis_head(self.roster.table)
        message = sign_left(self.identity, self.roster, self._seat, head, reason)
        # our own `left` is kept too (the audit says who ended the table), and `host` will not
        # take this seat back by itself (`resume` does, on purpose)
        left_file.append_left(self.transcript_path, message)
        left_file.mark_ended(self.transcript_path, self._seat, message.reason)
        sent = self.mesh.broadcast(message.to_wire())
        log.info("seat %s left the table (%s); told %d seat(s)", self._seat, reason, sent)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(LEAVE_FLUSH_S):
                await self.mesh.drain()
        table = self.table
        state = table.state if table is not None else None
        self._emit(result_so_far(state, len(self.roster.keys), message.reason))
        await self.close()

    async def close(self) -> None:
        if self._closed:
            return
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
        if self._verifier is not None:
            self._verifier.shutdown()
        self._closed = True
        self.history.close()

    # -- waiting ---------------------------------------------------------------------------

    async def finished(self, timeout: float | None = None) -> TableDriver:
        """Wait until the game is over or stopped by a fault; returns the table."""
        async with asyncio.timeout(timeout):
            await asyncio.shield(self._done)
        return self._require_table()

    # -- internals -------------------------------------------------------------------------

    def _require_table(self) -> TableDriver:
        if self.table is None:
            raise RuntimeError("the table has not been started")
        return self.table

    def _seat_seed(self) -> bytes:
        """This seat's seed for the table (p2p.table.randomness): its own contribution, drawn for
        a new table (refused if the table id was played here before) or kept from before a
        crash, bound to the signed roster and the seat."""
        name = self._secret_name("seed")
        if self.transcript_path.exists():
            contribution = self.secrets.get(name)
            if contribution is None:
                raise TranscriptError(
                    f"{self.secrets.path} holds no secrets for the table of "
                    f"{self.transcript_path}: this seat cannot be resumed"
                )
        else:
            check_new_table(self.secrets, self.roster.table)
            contribution = self._new_contribution()
            self.secrets.put(name, contribution)
        return seat_seed(contribution, self._roster_digest(), self._seat)

    def _roster_digest(self) -> bytes:
        """The digest of the roster every seat signed (of the log's roster, with no lobby)."""
        if self.signed_roster is not None:
            return self.signed_roster.roster.digest
        return hashlib.sha256(
            b"fairdeal/log-roster/v1\x00" + self.roster.table + b"".join(self.roster.keys)
        ).digest()

    def _secret_name(self, what: str) -> str:
        return table_secret_name(self.roster.table, what)

    def _ordering(self, _log: TableLog) -> int | None:
        return self._require_table().expected_seat()

    def _apply(self, envelope: Envelope) -> None:
        self._require_table().apply(envelope)

    def _on_applied(self, envelope: Envelope) -> None:
        now = time.monotonic()
        self._waiting_since = now
        if envelope.kind == self._require_table().act_kind:
            self._act_applied_at = now
        self._schedule()

    def _on_log_fault(self, fault: Fault) -> None:
        """A fault the log finds (equivocation, a bad chain): keep its signed evidence beside
        the transcript, where `fairdeal audit` checks it, and stop the table."""
        self._keep_evidence(fault.seat, fault.kind, fault.detail, fault.evidence)
        table = self._require_table()
        table.log_fault(fault)  # names the seat and the envelopes that prove it
        self._schedule()

    def _keep_evidence(
        self, seat: int, kind: str, detail: str, evidence: Sequence[Envelope]
    ) -> None:
        """Append a fault and its signed envelopes to the `.faults` file beside the transcript
        (once: a replay after a restart finds the same fault again), synced."""
        self._evidence_kept = True
        record = {
            "seat": seat,
            "kind": kind,
            "detail": detail,
            "evidence": [[e.signed, e.signature] for e in evidence],
        }
        frame = encode_frame(pack_message(record), MAX_FRAME_SIZE)
        path = evidence_path(self.transcript_path)
        if path.exists() and frame in path.read_bytes():
            return
        try:
            with open_private(path, append=True) as file:
                file.write(frame)
                file.flush()
                os.fsync(file.fileno())
        except OSError as error:
            self._on_disk_failure(TranscriptWriteError(path, error))

    def _keep_table_fault(self, fault: FaultDetected) -> None:
        """A fault the table found in an applied envelope (a failed proof, an illegal action):
        keep that envelope in the `.faults` file too, so that a transcript cut before it cannot
        audit as a clean game (protocol.md 10.4)."""
        sync = self.sync
        if self._evidence_kept or sync is None or not sync.log.entries:
            return
        self._keep_evidence(
            fault.seat, "table", f"{fault.what} ({fault.evidence})", [sync.log.entries[-1]]
        )

    def _on_forward(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        """A give-away's signed forward (protocol.md 10.8): the table checks it before anything
        is kept; only a forward it used is written to the secrets file (`_keep_forwards`)."""
        sender = self.roster.seat_of(peer.key)
        if sender is None or message.get("table") != self.roster.table:
            return
        data = {key: value for key, value in message.items() if key not in ("t", "table")}
        try:
            self._require_table().receive_private(sender, data)
        except DeckFault as fault:
            raise PeerError(f"seat {sender}", fault.what) from None
        self._schedule()

    def _keep_forwards(self, table: TableDriver) -> None:
        """Write the forwards the table used to the secrets file before their receipts go out:
        a crash must not lose a card this seat was given."""
        if not table.kept_forwards:
            return
        name = self._secret_name("forwards")
        kept = [*self.secrets.get(name, []), *(f.to_data() for f in table.kept_forwards)]
        try:
            self.secrets.put(name, kept)
        except TranscriptWriteError as error:  # nothing is sent after a write that failed
            self._on_disk_failure(error)
            return
        table.kept_forwards.clear()

    def _send_private(self, forward: SignedForward) -> None:
        wire = {"t": "fwd", "table": self.roster.table, **forward.to_data()}
        self.mesh.send(self.roster.keys[forward.to], wire)

    def _on_left(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        """A seat's signed `left` (from it, or relayed): keep it as evidence, show it once, pass
        it on to the seats that may not have it. A bad one is refused, naming who sent it."""
        try:
            left = parse_left(message, self.roster, f"{peer.name} ({peer.fingerprint})")
        except PeerError as error:
            log.warning("refused a left message: %s", error)
            return
        if left.seat == self._seat or left.seat in self.left_seats or self._closed:
            return
        if left.signed in self._lefts_seen:  # a relayed copy of one it came back from
            return
        self._lefts_seen.add(left.signed)
        left_file.append_left(self.transcript_path, left)
        self.left_seats[left.seat] = left.reason
        self._emit(SeatLeft(left.seat, left.reason))
        self.mesh.broadcast(left.to_wire(), exclude={peer.key, self.roster.keys[left.seat]})

    def _on_peer_up(self, peer: PublicIdentity) -> None:
        """Give-away shares go again to a peer that (re)connects: it may have missed them (a
        copy it already has is ignored)."""
        seat = self.roster.seat_of(peer.key)
        for forward in self._privates:
            if forward.to == seat:
                self._send_private(forward)
        if seat is not None and self.left_seats.pop(seat, None) is not None:
            # a seat that left closed its connections: connecting again, it took its seat back
            log.info("seat %s is back at the table", seat)
            self._emit(SeatReturned(seat))

    def _restore_left(self) -> None:
        """After a restart: the seats that had left (kept beside the transcript) are still gone
        until they connect again; our own `left`, if any, is the one we are coming back from."""
        for message in left_file.read_left(self.transcript_path, self.roster):
            self._lefts_seen.add(message.signed)
            connected = self.roster.keys[message.seat] in self.mesh.peers  # it is back already
            if message.seat != self._seat and not connected:
                self.left_seats[message.seat] = message.reason
                self._emit(SeatLeft(message.seat, message.reason))
        left_file.clear_ended(self.transcript_path)

    def _schedule(self) -> None:
        if not self._pump_scheduled and not self._closed:
            self._pump_scheduled = True
            asyncio.get_running_loop().call_soon(self._pump)

    def _pump(self, bot_due: bool = False) -> None:
        """Publish what this seat owes, report events, let the bot play (after its delay or
        claim pace, if it has one: `bot_due` says that wait has passed), and sign the step
        envelope a phase in steps needs of this seat now (`pace`: The Lie's Phase 1)."""
        self._pump_scheduled = False
        table, sync = self.table, self.sync
        if table is None or sync is None or self._closed:
            return
        if self._recovering:  # report what the replay found, sign nothing yet
            self._drain_table_events()
            return
        while True:
            self._keep_forwards(table)
            if self._closed:  # the disk refused the forwards: publish nothing after it
                return
            if not self._flush(table, sync):
                return  # the seat stopped (_on_disk_failure): nothing is sent
            self._drain_table_events()
            if self.bot is not None and self._bot_may_choose(table, sync):
                at_once = table.simultaneous()
                delay = self.claim_pace if at_once else self.bot_delay
                if delay > 0 and not (bot_due and self._thinking_at_once == at_once):
                    self._think(delay, at_once)  # and meanwhile it still owes its steps
                else:
                    bot_due = False  # the next move of this seat waits its own delay
                    self._bot_publish(table)
                    continue
            # another seat's envelope held here may start a step this seat must answer at once
            table.pace(sync.log.buffered)
            if table.outbox and not table.over:
                continue
            break
        if table.over and not self._done.done():
            self.timings.finished = time.monotonic()
            mark_done(self.transcript_path)  # rerunning the command starts a new table
            self._done.set_result(None)

    def _flush(self, table: TableDriver, sync: TableSync) -> bool:
        """Sign and send the table's outbox; False once the disk refused a write."""
        choices = table.choice_kinds
        while table.outbox:
            item = table.outbox.pop(0)
            if isinstance(item, Private):
                forward = sign_forward(
                    self.identity.sign,
                    self.roster.table,
                    item.transfer,
                    item.slot,
                    item.body,
                    game=table.game_name,
                )
                self._privates.append(forward)
                self._send_private(forward)
            elif (
                item.kind not in choices
                and self._already_signed[packed := pack_canonical(item.body)]
            ):
                self._already_signed[packed] -= 1  # signed before a restart: in the log
            else:
                try:
                    envelope = sync.publish(item.kind, item.body)
                except TranscriptWriteError:
                    return False
                self._last_prev = envelope.prev
                if item.claims is not None:
                    self.timings.claims_signed[item.claims] = time.monotonic()
        return True

    def _bot_may_choose(self, table: TableDriver, sync: TableSync) -> bool:
        """The bot chooses when the driver lets this seat choose; in turn, only once (its move
        not yet in the log), so a move signed and waiting is not made twice."""
        if table.over or not table.may_choose():
            return False
        return table.simultaneous() or not sync.log.holds(self._seat, sync.log.next_seq(self._seat))

    def _restore_own(self, log_: TableLog) -> None:
        """After a restart: the envelopes this seat signed that its log holds but has not
        applied still count (The Lie's step envelope of a step under way: its commitment, which
        it opens in the next step)."""
        table = self._require_table()
        own = [e for e in (*log_.entries, *log_.buffered) if e.seat == self._seat]
        if own:
            self._last_prev = max(own, key=lambda e: e.seq).prev
        for envelope in log_.buffered:
            if envelope.seat == self._seat:
                table.restore_signed(envelope)

    def _on_answered(self, seat: int) -> None:
        """A seat answered our `need` in full; when all have, this seat may sign again. What
        the replay makes it owe is then matched against every envelope of its own the log
        holds, those taken back from the others included."""
        if not self._recovering:
            return
        self._recovering.discard(seat)
        if self._recovering or self.sync is None:
            return
        log_ = self.sync.log
        own = [e for e in (*log_.entries, *log_.buffered) if e.seat == self._seat]
        choices = self._require_table().choice_kinds
        regenerated = Counter(pack_canonical(e.body) for e in own if e.kind not in choices)
        published = self._signed_before - self._already_signed  # matched since the restart
        self._already_signed = regenerated - published
        self._restore_own(log_)
        log.info("seat %s took back its own envelopes from the others", self._seat)
        self._schedule()

    def _on_disk_failure(self, error: TranscriptWriteError) -> None:
        """The disk refused a write: this seat stops where its files end (nothing after a
        failed write is sent or kept) and says how to take the seat back."""
        if self.disk_failure is not None:
            return
        self.disk_failure = error
        log.error("%s", error)
        self._emit(Notice(f"✗ {error}"))
        self._closed = True  # publish nothing more, let no bot move
        if not self._done.done():
            self._done.set_exception(error)
            self._done.exception()  # retrieved here: finished() raises it to whoever waits

    def _bot_publish(self, table: TableDriver) -> None:
        """The bot's choice, checked like a player's by the driver; a refused one is reported
        and replaced by a listed legal action, so a faulty bot never stops the table for its own
        seat."""
        assert self.bot is not None
        view = table.view()
        action = self.bot.choose(view)
        try:
            table.publish_action(action, check=self.check_own_actions)
            return
        except IllegalAction as error:
            log.warning("the bot of seat %s chose an illegal move: %s", self._seat, error.reason)
            self._emit(Notice(f"✗ The bot's move was refused ({error.reason}); it plays another"))
            refused = error
        for fallback in table.game.legal_actions(view):
            with contextlib.suppress(IllegalAction):
                table.publish_action(fallback)
                return
        raise refused

    def _think(self, delay: float, at_once: bool) -> None:
        """Let the bot move once `delay` has passed (`at_once`: a claim pace, where seats act
        at once); meanwhile the loop keeps receiving and checking the others' messages."""
        if self._bot_thinking is None:
            self._thinking_at_once = at_once
            task = self._move_after_delay(delay)
            self._bot_thinking = asyncio.get_running_loop().create_task(task)

    async def _move_after_delay(self, delay: float) -> None:
        await self._bot_sleep(delay)
        self._bot_thinking = None
        # The bot chooses now, from the table as it is now: if this seat may no longer choose
        # (or the move is already in the log) nothing is published.
        self._pump(bot_due=True)

    def _drain_table_events(self) -> None:
        table = self._require_table()
        events, table.events = table.events, []
        now = time.monotonic()
        for event in events:
            if isinstance(event, StateChanged):
                state = event.state
                # the first move or claim may be made (The Lie: claims open, T3)
                awaiting_act = not state.over and (
                    state.to_act() is not None or table.simultaneous()
                )
                if self.timings.setup_done is None and awaiting_act:
                    self.timings.setup_done = now
                if any(type(e).__name__ in NEW_DEAL_EVENTS for e in event.events):
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
            elif isinstance(event, CardsVerified) and event.reason == "claim":
                for card in event.cards:
                    signed = self.timings.claims_signed.pop(card.slot, None)
                    if signed is not None:
                        self.timings.claim_latencies.append(now - signed)
            elif isinstance(event, DoubtVerification):
                if self._doubt_at is not None:
                    self.timings.doubt_latencies.append(now - self._doubt_at)
                    self._doubt_at = None
                log.info("%s", describe_verification(event))
            elif isinstance(event, FaultDetected):
                log.warning(
                    "seat %s broke the protocol: %s (%s)", event.seat, event.what, event.evidence
                )
                self._keep_table_fault(event)
            self._emit(event)

    def _on_watchers(self) -> None:
        """The players see who watches the table (name and key code, protocol.md 4.8): through
        this seat, and through the others as they say."""
        watchers = self.watch.everyone()
        who = ", ".join(f"{name} ({code})" for name, code in watchers) or "nobody any more"
        self._emit(WatchersChanged(f"Watching the table: {who}.", watchers))

    def _emit(self, event: TableEvent) -> None:
        self.history.append(event)

    def _held_up_by(self, table: TableDriver) -> dict[int, tuple[str, ...]]:
        """The other seats the table waits for, with what each owes (`TableDriver.owes`: the
        seat whose turn it is, every seat that owes shares, a give-away's giver; in The Lie's
        Phase 1 what each owes to the step under way). A seat whose next envelope is already
        here is not silent: the log holds it for others."""
        expect = table.expected_seat()
        if expect is None:
            return {}
        assert self.sync is not None
        log_ = self.sync.log
        sent = {envelope.seat for envelope in log_.buffered}
        owed = {seat: what for seat, what in table.owes().items() if seat not in sent}
        owed.pop(self._seat, None)
        return owed

    async def _watch_silence(self) -> None:
        """A seat silent past the limit is shown as holding up the game; we wait. A seat's
        silence counts from the later of the last envelope applied and the moment the table
        began to wait for it (in Phase 1 a quiet table waits for nobody until someone claims)."""
        interval = max(0.05, min(1.0, self.silence_limit / 4))
        held_since: dict[int, float] = {}
        while True:
            await asyncio.sleep(interval)
            table = self.table
            if table is None or table.over:
                continue
            now = time.monotonic()
            held = self._held_up_by(table)
            held_since = {seat: held_since.get(seat, now) for seat in held}
            waited = {
                seat: now - max(self._waiting_since, since) for seat, since in held_since.items()
            }
            seats = {seat for seat, wait in waited.items() if wait >= self.silence_limit}
            for seat in sorted(self._reported_wait - seats):
                self._emit(SeatStatus(seat, True, None))
            self._reported_wait = seats
            if not seats:
                self._withheld = None
                continue
            assert self.sync is not None
            longest = max(waited[seat] for seat in seats)
            self._withheld = withheld_reveal(table, self.sync.log, longest)
            for seat in sorted(seats):
                connected = self.roster.keys[seat] in self.mesh.peers
                withheld = self._withheld
                what = withheld.what if withheld is not None and withheld.seat == seat else None
                self._emit(SeatStatus(seat, connected, waited[seat], what, held[seat]))
