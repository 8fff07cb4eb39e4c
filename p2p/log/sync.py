"""Keeps this peer's table log in step with the mesh, and on disk.

`TableSync` wires a `TableLog` to a `Mesh` and (optionally) a `Transcript`:

* `publish(kind, body)` signs this seat's next envelope, records it in the transcript (so a
  restart can never sign that place again), applies it locally when its turn comes and
  broadcasts it;
* every "env" message from any peer is parsed, verified and fed to the log; what gets applied is
  appended to the transcript and synced once per batch: once per turn of the event loop, however
  many envelopes that turn applied (an fsync costs milliseconds, and The Lie's Phase 1 applies an
  envelope from every seat for every claim). Nothing waits on a batch of applied records only:
  its fsync runs on a worker thread while the loop goes on (`Transcript.sync_in_background`);
* fsync before sending: once this seat has written an envelope it signed, the mesh holds
  everything this peer sends (`Mesh.hold`) until the turn's one fsync, which covers every
  envelope signed in that turn and the applied records before them; if the disk refuses it,
  nothing held is sent and the seat stops. Without an event loop (a replay at start-up) the
  record syncs at once;
* relay (protocol.md 4.4): an envelope this peer takes in for the first time, from anyone, is
  passed on at once to every seated peer that may lack it (all but its author, the peer that
  delivered it, and this one), so that an envelope reaching one honest peer reaches them all
  (an author that crashed mid-broadcast stalls nobody) and two different envelopes signed for
  one place meet at some honest peer. A copy already held is dropped by a dictionary look-up
  on its signature before anything is decoded or verified;
* equivocation: when the log finds two different envelopes signed for one place, both go to
  every seated peer but their author, so that each checks the two signatures itself;
* on every new channel each side sends "need" with its per-seat next sequence numbers and the
  other answers with every envelope the asker lacks (applied and buffered; relaying is safe
  because envelopes are signed), once per channel and at a rate per peer (p2p/log/answers.py).
  An envelope that arrives past a gap triggers a "need" too.

Envelopes go to, and "need" is answered for, seated peers only: a mesh may also carry peers that
are not in the roster (lobby watchers), and the log is not theirs to read. `_readers` is the one
place that decides who gets the log's envelopes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from fairdeal.p2p.errors import MalformedFrame
from fairdeal.p2p.identity import Identity, PublicIdentity
from fairdeal.p2p.log.answers import NeedAnswers
from fairdeal.p2p.log.envelope import Envelope, parse_envelope
from fairdeal.p2p.log.tablelog import EquivocationError, Fault, Ordering, Rules, TableLog
from fairdeal.p2p.log.transcript import Transcript, TranscriptWriteError, replay
from fairdeal.p2p.net.framing import field
from fairdeal.p2p.net.kinds import ENV, NEED, NEED_DONE
from fairdeal.p2p.net.mesh import Mesh

log = logging.getLogger(__name__)

MAX_HAVE_SEATS = 256


class TableSync:
    """This peer's view of one table's log, kept in step with the other seats."""

    def __init__(
        self,
        mesh: Mesh,
        table_log: TableLog,
        identity: Identity,
        seat: int,
        transcript: Transcript | None = None,
        signed: Iterable[Envelope] = (),
    ) -> None:
        """`signed`: this seat's envelopes signed before a restart, taken into the log again
        (`restore`)."""
        if table_log.roster.keys[seat] != identity.key:
            raise ValueError(f"seat {seat} of the roster is not {identity}")
        self.mesh = mesh
        self.log = table_log
        self.identity = identity
        self.seat = seat
        self.transcript = transcript
        self.failure: TranscriptWriteError | None = None  # the disk refused a write: stopped
        self._failure_callbacks: list[Callable[[TranscriptWriteError], None]] = []
        self._unsynced = False  # applied records written since the last fsync
        self._signed_unsynced = False  # an own envelope written, not yet fsynced nor sent
        self._sync_scheduled = False
        self._update_callbacks: list[Callable[[], None]] = []
        self._tick = asyncio.Event()
        table_log.on_applied(self._applied)
        table_log.on_fault(self._fault)
        mesh.on(ENV, self._on_env)
        mesh.on(NEED, self._on_need)
        mesh.on(NEED_DONE, self._on_need_done)
        mesh.on_peer_up(self._on_peer_up)
        self.answered: set[int] = set()  # seats that answered our `need` in full (need-done)
        # signature -> signed bytes of every envelope the log holds: the duplicate check that
        # runs before an envelope is decoded or verified (relay delivers most envelopes n-1 times)
        self._held: dict[bytes, bytes] = {}
        self.relayed = 0  # envelopes passed on to others (not counting this seat's own)
        self.duplicates = 0  # copies dropped by the duplicate check
        self._answer_callbacks: list[Callable[[int], None]] = []
        self.answers = NeedAnswers(table_log)  # what answering `need`s costs, per peer
        self._answer_timers: dict[bytes, asyncio.TimerHandle] = {}  # answers waiting for tokens
        self.closed = False  # the seat closed its table: its channels may outlive it
        for envelope in signed:
            self._take(envelope, "self")

    @classmethod
    def restore(
        cls,
        mesh: Mesh,
        identity: Identity,
        path: Path,
        ordering: Ordering | Rules,
        apply: Callable[[Envelope], None] | None = None,
    ) -> TableSync:
        """Rebuild from a transcript after a restart: replay the applied envelopes through the
        game's `apply`, re-buffer own signed ones not yet applied, keep appending to the file."""
        transcript, contents = Transcript.reopen(path)
        try:
            table_log = replay(contents, ordering, apply)
        except BaseException:
            transcript.close()
            raise
        return cls(mesh, table_log, identity, contents.seat, transcript, contents.signed)

    # -- sending ---------------------------------------------------------------------------

    def publish(self, kind: str, body: Any) -> Envelope:
        """Sign, persist, apply (when its turn comes) and broadcast this seat's next envelope."""
        if self.failure is not None:
            raise self.failure
        envelope = self.log.author(self.identity, self.seat, kind, body)
        if self.transcript is not None:
            try:
                self.transcript.append_signed(envelope)
            except TranscriptWriteError as error:  # never send what is not on disk
                self._fail(error)
                raise
            self._signed_unsynced = True
            if self._in_loop():  # sent once the turn's fsync is done (`_sync_batch`)
                self.mesh.hold(self._synced_for_sending)
                self._schedule_sync()
            else:  # no loop to batch in: sync now
                self._sync_now()
                if self.failure is not None:
                    raise self.failure from None
        self._take(envelope, "self")
        self._send_on(envelope)
        return envelope

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None) -> None:
        """Wait until `predicate()` holds; re-checked after every envelope taken in."""
        async with asyncio.timeout(timeout):
            while not predicate():
                await self._tick.wait()

    async def wait_for_length(self, length: int, timeout: float | None = None) -> None:
        await self.wait_until(lambda: len(self.log.entries) >= length, timeout)

    def close(self) -> None:
        """Take in nothing more and close the transcript. The mesh may stay up a while (a seat
        that left waits for its `left` to go out): what arrives meanwhile is dropped, never
        applied to a table that is done nor written to the closed file."""
        self.closed = True
        if self.transcript is not None:
            self.transcript.close()

    # -- receiving -------------------------------------------------------------------------

    def culprit(self, peer: PublicIdentity) -> str:
        seat = self.log.roster.seat_of(peer.key)
        return f"seat {seat} ({peer})" if seat is not None else f"{peer} (not seated)"

    def on_failure(self, callback: Callable[[TranscriptWriteError], None]) -> None:
        """Called once when the transcript cannot be written any more (a full disk)."""
        self._failure_callbacks.append(callback)

    def _fail(self, error: TranscriptWriteError) -> None:
        if self.failure is not None:
            return
        self.failure = error
        log.error("%s", error)
        for callback in self._failure_callbacks:
            callback(error)

    def _on_env(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        if self.failure is not None or self.closed:
            return  # nothing more is taken in than the disk keeps
        signature = message.get("s")
        if isinstance(signature, bytes) and self._held.get(signature) == message.get("d"):
            self.duplicates += 1  # a relayed copy of one held: nothing to decode or verify
            return
        culprit = self.culprit(peer)
        envelope = parse_envelope(message, culprit)
        is_new = not self.log.holds(envelope.seat, envelope.seq)
        try:
            self._take(envelope, culprit)
        except EquivocationError:
            self._send_proof(envelope.seat, envelope.seq)
            raise
        if is_new and self.log.held(envelope.seat, envelope.seq) is envelope:
            # At once, before this peer signs anything on top of it: channels keep order, so
            # every peer gets an envelope before any envelope that names a head after it (and
            # an equivocation's second envelope before anything built on the first).
            self._send_on(envelope, exclude={peer.key})
        gap = envelope.seq > self.log.next_seq(envelope.seat)
        if is_new and (gap or not self.log.knows_head(envelope.prev)):
            self._ask(peer)  # its author saw envelopes this peer lacks: fetch them

    def _readers(self) -> list[bytes]:
        """The connected peers that get the log's envelopes: the seated ones (a mesh may also
        carry lobby watchers). A spectator would be added here, and only here."""
        roster = self.log.roster
        return [key for key in self.mesh.peers if roster.seat_of(key) is not None]

    def _send_on(
        self, envelope: Envelope, exclude: set[bytes] | frozenset[bytes] = frozenset()
    ) -> None:
        """Send an envelope just taken in to every reader that may lack it: not its author, not
        the peer that delivered it (`exclude`)."""
        author = self.log.roster.keys[envelope.seat]
        skip = {*exclude, author, self.identity.key}
        targets = [key for key in self._readers() if key not in skip]
        if envelope.seat != self.seat:
            self.relayed += 1
        if targets:
            self.mesh.broadcast(envelope.to_wire(), exclude=set(self.mesh.peers) - set(targets))

    def _send_proof(self, seat: int, seq: int) -> None:
        """Two different envelopes signed for one place: both go to every reader but their
        author, so that each checks the two signatures itself (protocol.md 4.6)."""
        for fault in reversed(self.log.faults):
            first = fault.evidence[0]
            if fault.kind == "equivocation" and (first.seat, first.seq) == (seat, seq):
                for envelope in fault.evidence:
                    self._send_on(envelope)
                return

    def _on_need(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        if self.closed:
            return
        culprit = self.culprit(peer)
        if field(message, "table", bytes, culprit) != self.log.roster.table:
            return  # a request about another table on a shared connection
        if self.log.roster.seat_of(peer.key) is None:
            return  # the log is for the seats only
        have = field(message, "have", list, culprit)[:MAX_HAVE_SEATS]
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in have):
            raise MalformedFrame(culprit, '"need": field "have" must be a list of integers')
        self._answer(peer.key, have)

    def _answer(self, key: bytes, have: list[int] | None = None) -> None:
        """Send what the asker lacks and we did not send it on this channel yet, as far as its
        rate allows (p2p/log/answers.py); the rest goes when the bucket allows."""
        if have is None:
            self._answer_timers.pop(key, None)
            if not self.answers.pending(key):
                return  # finished meanwhile, by the answer to a later `need`
        if key not in self.mesh.peers:
            return  # its channel is gone: a new one asks again
        answer = self.answers.answer(key, have)
        for envelope in answer.envelopes:
            self.mesh.send(key, envelope.to_wire())
        if answer.done:
            # The channel keeps order: once this arrives, the asker holds all we had for it.
            self.mesh.send(key, {"t": NEED_DONE, "table": self.log.roster.table})
        elif self._in_loop() and key not in self._answer_timers:  # one wait per peer
            loop = asyncio.get_running_loop()
            self._answer_timers[key] = loop.call_later(answer.wait, self._answer, key)

    def _on_need_done(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        seat = self.log.roster.seat_of(peer.key)
        if seat is None or field(message, "table", bytes, self.culprit(peer)) != (
            self.log.roster.table
        ):
            return
        self.answered.add(seat)
        for callback in self._answer_callbacks:
            callback(seat)

    def on_answered(self, callback: Callable[[int], None]) -> None:
        """Called with the seat each time a seat has answered our `need` in full."""
        self._answer_callbacks.append(callback)

    def _on_peer_up(self, peer: PublicIdentity) -> None:
        seat = self.log.roster.seat_of(peer.key)
        if not self.closed and seat is not None:
            self.answers.channel_up(peer.key)
            self._ask(peer)
            self._tell_proofs(peer.key, seat)

    def _tell_proofs(self, key: bytes, seat: int) -> None:
        """A seat that connects gets the proof of every double signature found so far (not its
        author): one found while that seat was away (a resuming seat's, found before it met
        the others) would otherwise reach it never, and it would wait on a table that stopped."""
        for fault in self.log.faults:
            if fault.kind == "equivocation" and fault.seat != seat:
                for envelope in fault.evidence:
                    self.mesh.send(key, envelope.to_wire())

    def ask_connected(self) -> None:
        """Ask every seat connected already for what it has (a seat that connects later is
        asked then)."""
        for key in self.log.roster.keys:
            if key in self.mesh.peers:
                self._ask(self.mesh.peers[key])

    def _ask(self, peer: PublicIdentity) -> None:
        self.mesh.send(peer.key, {"t": NEED, "table": self.log.roster.table, "have": self.log.have})

    def on_update(self, callback: Callable[[], None]) -> None:
        """Called after every envelope taken in (applied or buffered), e.g. to answer a step
        another seat began (The Lie's Phase 1)."""
        self._update_callbacks.append(callback)

    def advance(self) -> list[Envelope]:
        """Apply what the ordering now allows after the game's state changed outside the log
        (use this rather than `log.advance()`, so the transcript is synced)."""
        return self._step(self.log.advance)

    def _take(self, envelope: Envelope, culprit: str) -> list[Envelope]:
        applied = self._step(lambda: self.log.receive(envelope, culprit))
        if self.log.held(envelope.seat, envelope.seq) is envelope:
            self._held[envelope.signature] = envelope.signed
        return applied

    def _step(self, action: Callable[[], list[Envelope]]) -> list[Envelope]:
        try:
            return action()
        finally:
            if self._unsynced and self.transcript is not None and self.failure is None:
                try:  # the process may die now: the operating system has the records
                    self.transcript.hand_over()
                except TranscriptWriteError as error:
                    self._fail(error)
            # The update callbacks first: what they schedule (this seat's answer, signed in the
            # next turn) then runs before this batch's fsync, which covers it too.
            for callback in self._update_callbacks:
                callback()
            if self._unsynced:
                self._schedule_sync()
            self._wake()

    def _schedule_sync(self) -> None:
        if self._sync_scheduled:
            return
        self._sync_scheduled = True
        try:
            asyncio.get_running_loop().call_soon(self._sync_batch)
        except RuntimeError:  # no loop (a replay at start-up): sync now
            self._sync_batch()

    def _sync_batch(self) -> None:
        """One fsync for the records written in this turn of the loop: the applied envelopes
        and this seat's own; then what the mesh held for them goes out."""
        self._sync_scheduled = False
        signed = self._signed_unsynced
        self._sync_now()
        if signed and self.failure is None:
            self.mesh.release()

    def _sync_now(self) -> None:
        transcript = self.transcript
        if transcript is None or self.failure is not None:
            return
        if self._unsynced or self._signed_unsynced:
            try:
                if transcript.closed:  # closing synced, or failed to
                    if transcript.failure is not None:
                        raise transcript.failure
                elif self._signed_unsynced or not self._in_loop():
                    transcript.sync()  # what is sent next waits for it
                else:  # applied records only: nothing waits, the loop goes on meanwhile
                    loop = asyncio.get_running_loop()
                    transcript.sync_in_background(
                        lambda: loop.call_soon_threadsafe(self._check_background)
                    )
            except TranscriptWriteError as error:
                self._fail(error)
                return
        self._unsynced = self._signed_unsynced = False

    def _check_background(self) -> None:
        """An fsync in the background failed: stop the seat, as for any refused write."""
        transcript = self.transcript
        if transcript is None or transcript.closed:
            return
        try:
            transcript.join_background()
        except TranscriptWriteError as error:
            self._fail(error)

    @staticmethod
    def _in_loop() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    def _synced_for_sending(self) -> bool:
        """The mesh's gate: True once every envelope this seat signed is on disk."""
        if self._signed_unsynced:
            self._sync_now()
        transcript = self.transcript
        return (
            self.failure is None
            and not self._signed_unsynced
            and (transcript is None or transcript.failure is None)
        )

    def _applied(self, envelope: Envelope) -> None:
        if self.transcript is not None and self.failure is None:
            try:
                self.transcript.append_applied(envelope)
            except TranscriptWriteError as error:
                self._fail(error)
                return
            self._unsynced = True

    def _fault(self, fault: Fault) -> None:
        log.warning("protocol violation: %s", fault)

    def _wake(self) -> None:
        self._tick.set()
        self._tick = asyncio.Event()
