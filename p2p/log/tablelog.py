"""The table log, sans-IO: verified envelopes in one order that every honest peer agrees on.

Envelopes may arrive in any order, from the author or relayed by anyone. The log

* verifies each against the roster (table id, seat, signature) and refuses bad input with an
  `EnvelopeError` naming who delivered it, changing nothing;
* suppresses duplicates and detects equivocation (two different envelopes signed for one seat
  and sequence number), keeping both as evidence;
* buffers envelopes that arrive early and applies them when the ordering policy reaches them.

The order is the game's to decide. Before each application the log asks `ordering()`:

* a seat number: the next envelope (by that seat's sequence) of that seat comes next;
* `Simultaneous(seats)`: the next envelopes of those seats are applied by (lamport, seat), each
  once it is stable, i.e. no seat in the phase can still send an envelope that sorts before it
  (every other seat either has its next envelope here or has already passed that Lamport time);
* None: nothing may be applied now.

Checks that need the order (the author's `prev` must be a head of this log no older than its
previous one, Lamport times must grow, the game's own `apply` may reject) make a `Fault`: the
envelope is dropped and the evidence kept. Every honest peer finds the same faults.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.p2p.errors import EnvelopeError
from fairdeal.p2p.identity import Identity, fingerprint
from fairdeal.p2p.log.envelope import Envelope, sign_envelope

LOG_DOMAIN = b"fairdeal/log/v1\x00"
MAX_AHEAD = 1024  # how far past a seat's next sequence number we buffer
MAX_BUFFERED = 8192


@dataclass(frozen=True)
class Roster:
    """Who sits where: seat i is held by the Ed25519 key keys[i]."""

    table: bytes
    keys: tuple[bytes, ...]

    def seat_of(self, key: bytes) -> int | None:
        try:
            return self.keys.index(key)
        except ValueError:
            return None

    @property
    def seats(self) -> range:
        return range(len(self.keys))


@dataclass(frozen=True)
class Simultaneous:
    """Ordering result for a phase where these seats act at once: The Lie's Phase 1 (ruling
    T3), where the earlier of two claims on one card wins. "Earlier" is the (lamport, seat)
    order this log applies, the same on every peer."""

    seats: frozenset[int]


# The game's rule for what comes next, asked before every application.
Ordering = Callable[["TableLog"], "int | Simultaneous | None"]


@dataclass(frozen=True)
class Fault:
    """A seat's provable misbehaviour: what, and the signed envelopes that prove it."""

    seat: int
    kind: str  # "equivocation", "bad-prev", "lamport", "rejected"
    detail: str
    evidence: tuple[Envelope, ...]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.kind}: {self.detail}"


class Rejected(Exception):
    """Raised by the game's apply callback: the envelope breaks the rules (cite the ruling)."""


class EquivocationError(EnvelopeError):
    """A seat signed two different envelopes for the same place."""

    code = "equivocation"


def genesis_head(table: bytes) -> bytes:
    return hashlib.sha256(LOG_DOMAIN + table).digest()


def next_head(head: bytes, envelope: Envelope) -> bytes:
    return hashlib.sha256(head + envelope.id).digest()


def seat_order(seats: Sequence[int]) -> Ordering:
    """An ordering that cycles through `seats` (useful for tests and turn-based phases)."""

    def order(log: TableLog) -> int:
        return seats[len(log.entries) % len(seats)]

    return order


class TableLog:
    """One table's agreed log. `receive` envelopes, `author` new ones; read `entries`."""

    def __init__(
        self,
        roster: Roster,
        ordering: Ordering,
        apply: Callable[[Envelope], None] | None = None,
        max_buffered: int = MAX_BUFFERED,
    ) -> None:
        self.roster = roster
        self.ordering = ordering
        self._apply = apply
        self.max_buffered = max_buffered
        self.entries: list[Envelope] = []
        self.faults: list[Fault] = []
        self.head = genesis_head(roster.table)
        self._heads: dict[bytes, int] = {self.head: 0}  # head hash -> log length at that head
        self._by_place: dict[tuple[int, int], Envelope] = {}  # applied and buffered
        self._buffer: dict[tuple[int, int], Envelope] = {}
        # place -> signed bytes of the second envelopes found there (each is one fault, once)
        self._proven: dict[tuple[int, int], set[bytes]] = {}
        self._next_seq = dict.fromkeys(roster.seats, 0)
        self._last_applied: dict[int, Envelope] = {}
        self._max_lamport = 0
        self._lamport_floor = [0]  # [i]: highest Lamport time among the first i entries
        self._listeners: list[Callable[[Envelope], None]] = []
        self._fault_listeners: list[Callable[[Fault], None]] = []

    # -- observers -------------------------------------------------------------------------

    def on_applied(self, listener: Callable[[Envelope], None]) -> None:
        """Called after each envelope is applied (after the game's apply accepted it)."""
        self._listeners.append(listener)

    def on_fault(self, listener: Callable[[Fault], None]) -> None:
        self._fault_listeners.append(listener)

    def next_seq(self, seat: int) -> int:
        """The sequence number of `seat`'s next envelope to apply."""
        return self._next_seq[seat]

    @property
    def have(self) -> list[int]:
        """Next sequence number per seat: what a catch-up request sends."""
        return [self._next_seq[seat] for seat in self.roster.seats]

    def holds(self, seat: int, seq: int) -> bool:
        """Whether an envelope for this place is applied or buffered here."""
        return (seat, seq) in self._by_place

    def held(self, seat: int, seq: int) -> Envelope | None:
        """The envelope applied or buffered here for this place (the first one, if its author
        signed two)."""
        return self._by_place.get((seat, seq))

    def knows_head(self, head: bytes) -> bool:
        """Whether this log has been at `head` (an envelope naming another head means the
        author has applied envelopes this peer has not seen yet)."""
        return head in self._heads

    @property
    def buffered(self) -> list[Envelope]:
        return sorted(self._buffer.values(), key=lambda e: (e.seat, e.seq))

    # -- input -----------------------------------------------------------------------------

    def verify(self, envelope: Envelope, culprit: str) -> None:
        """Raise EnvelopeError unless the envelope belongs to this table and is signed by its
        seat's key."""
        if envelope.table != self.roster.table:
            raise EnvelopeError(
                culprit,
                f"envelope for table {envelope.table.hex()[:16]}, "
                f"not this table {self.roster.table.hex()[:16]}",
            )
        if envelope.seat >= len(self.roster.keys):
            raise EnvelopeError(culprit, f"envelope from seat {envelope.seat}, which is empty")
        key = self.roster.keys[envelope.seat]
        if not envelope.verify(key):
            raise EnvelopeError(
                culprit,
                f"bad signature on {envelope} (seat {envelope.seat} is {fingerprint(key)})",
            )

    def receive(self, envelope: Envelope, culprit: str = "self") -> list[Envelope]:
        """Verify, deduplicate, buffer and apply what the ordering allows; returns the envelopes
        applied by this call, in order. Raises EnvelopeError (nothing changed) on bad input and
        EquivocationError (evidence kept in `faults`) on a double signature."""
        place = (envelope.seat, envelope.seq)
        known = self._by_place.get(place)
        if (
            known is not None
            and known.signed == envelope.signed
            and known.signature == envelope.signature
        ):
            return []  # byte-identical to an envelope verified before: relayed twice, replayed
        self.verify(envelope, culprit)
        if known is not None:
            if known.signed == envelope.signed:
                return []  # the same content under another valid signature of its author
            if envelope.signed in self._proven.get(place, ()):
                return []  # a second copy already proven: relays carry the proof to everyone
            self._proven.setdefault(place, set()).add(envelope.signed)
            fault = Fault(
                envelope.seat,
                "equivocation",
                f"two different envelopes signed for sequence number {envelope.seq}",
                (known, envelope),
            )
            self._record(fault)
            # The signatures prove it was the seat; whoever delivered the second copy is not
            # to blame.
            key = self.roster.keys[envelope.seat]
            raise EquivocationError(
                f"seat {envelope.seat} [{fingerprint(key)}]",
                f"equivocated: {fault.detail} (second copy delivered by {culprit})",
            )
        if envelope.seq < self._next_seq[envelope.seat]:
            return []  # an old place whose envelope was rejected; nothing to apply
        if envelope.seq - self._next_seq[envelope.seat] > MAX_AHEAD:
            raise EnvelopeError(culprit, f"{envelope} is too far ahead of the log to buffer")
        if len(self._buffer) >= self.max_buffered:
            raise EnvelopeError(culprit, f"buffer full ({self.max_buffered}); {envelope} dropped")
        self._buffer[place] = envelope
        self._by_place[place] = envelope
        self._max_lamport = max(self._max_lamport, envelope.lamport)
        return self.advance()

    def advance(self) -> list[Envelope]:
        """Apply every buffered envelope the ordering now allows (call it after the game's
        state changed in a way that changes `ordering`)."""
        applied: list[Envelope] = []
        while (envelope := self._next_applicable()) is not None:
            if self._apply_one(envelope):
                applied.append(envelope)
        return applied

    def replay(self, entries: Sequence[Envelope]) -> None:
        """Receive a log's applied entries in order (a restart, an audit). A log cut in a
        simultaneous phase applied its last entries on envelopes held back and never recorded:
        they apply here in the order they stand, each the smallest held (`apply_held`)."""
        for envelope in entries:
            self.receive(envelope, "transcript")
        while len(self.entries) < len(entries):
            done = len(self.entries)
            if not self.advance() and not self.apply_held(entries[done]):
                return

    def apply_held(self, envelope: Envelope) -> bool:
        """Apply a held envelope of a simultaneous phase now, without waiting for it to be
        stable, if it is the smallest of the phase's held envelopes by (lamport, seat); returns
        whether it was applied. For an auditor at the end of a log cut mid-phase: the seat that
        wrote it applied it on envelopes (held, never applied) its transcript does not keep."""
        turn = self.ordering(self)
        if not isinstance(turn, Simultaneous):
            return False
        first, _blockers = self._phase_state(turn.seats)
        if first is not envelope:
            return False
        return self._apply_one(envelope)

    # -- output ----------------------------------------------------------------------------

    def author(self, identity: Identity, seat: int, kind: str, body: Any) -> Envelope:
        """Sign this seat's next envelope on top of the current head. It is not applied until
        it is `receive`d (so persist it, then receive it, then send it)."""
        if self.roster.keys[seat] != identity.key:
            raise ValueError(f"seat {seat} does not belong to {identity}")
        seq = self._next_seq[seat]
        while (seat, seq) in self._by_place:
            seq += 1
        return sign_envelope(
            identity,
            table=self.roster.table,
            seat=seat,
            seq=seq,
            lamport=self._max_lamport + 1,
            prev=self.head,
            kind=kind,
            body=body,
        )

    def envelopes_after(self, have: Sequence[int] | Mapping[int, int]) -> list[Envelope]:
        """Applied (in log order), then buffered envelopes that a peer reporting `have` lacks."""

        def wanted(envelope: Envelope) -> bool:
            try:
                return envelope.seq >= have[envelope.seat]
            except (IndexError, KeyError):
                return True

        return [e for e in self.entries if wanted(e)] + [e for e in self.buffered if wanted(e)]

    # -- internals -------------------------------------------------------------------------

    def _next_applicable(self) -> Envelope | None:
        turn = self.ordering(self)
        if turn is None:
            return None
        if isinstance(turn, Simultaneous):
            return self._stable_minimum(turn.seats)
        if turn not in self._next_seq:
            return None
        return self._buffer.get((turn, self._next_seq[turn]))

    def _stable_minimum(self, seats: Iterable[int]) -> Envelope | None:
        first, blockers = self._phase_state(seats)
        return first if first is not None and not blockers else None

    def _phase_state(self, seats: Iterable[int]) -> tuple[Envelope | None, frozenset[int]]:
        """The phase's smallest candidate and the seats that may still send something that
        sorts before it."""
        phase = [seat for seat in seats if seat in self._next_seq]
        candidates = [
            env
            for seat in phase
            if (env := self._buffer.get((seat, self._next_seq[seat]))) is not None
        ]
        if not candidates:
            return None, frozenset()
        first = min(candidates, key=lambda e: (e.lamport, e.seat))
        blockers = set()
        for seat in phase:
            if seat == first.seat or (seat, self._next_seq[seat]) in self._buffer:
                continue
            last = self._last_applied.get(seat)
            earliest_possible = (last.lamport + 1) if last is not None else 1
            if (earliest_possible, seat) < (first.lamport, first.seat):
                blockers.add(seat)
        return first, frozenset(blockers)

    def waiting_for(self, matters: Callable[[Envelope], bool] | None = None) -> frozenset[int]:
        """Seats whose next envelope the log needs before it can apply anything held.

        In a turn, the seat whose turn it is (if its envelope is not here yet). In a simultaneous
        phase, the seats that could still send something sorting before the smallest held
        envelope: a peer whose own seat is listed and has nothing to say should sign a tick
        (a kind the game ignores) so that the others' envelopes become stable.

        With `matters`, only held envelopes that matter count (a game's heartbeat that carries
        nothing need not become stable soon: it applies with whatever comes after it), and a
        seat is listed when it could still send something sorting before one of them: its
        newest envelope here, applied or held, leaves room before it. Ticks answering only
        envelopes that matter cannot call for ticks in turn, so a quiet table goes quiet."""
        turn = self.ordering(self)
        if isinstance(turn, Simultaneous):
            if matters is not None:
                return self._blockers_of(turn.seats, matters)
            return self._phase_state(turn.seats)[1]
        if turn is None or turn not in self._next_seq:
            return frozenset()
        if (turn, self._next_seq[turn]) in self._buffer:
            return frozenset()
        return frozenset({turn})

    def _blockers_of(
        self, seats: Iterable[int], matters: Callable[[Envelope], bool]
    ) -> frozenset[int]:
        phase = [seat for seat in seats if seat in self._next_seq]
        held = [e for e in self._buffer.values() if e.seat in phase and matters(e)]
        if not held:
            return frozenset()
        newest = {seat: last.lamport for seat, last in self._last_applied.items()}
        for envelope in self._buffer.values():
            newest[envelope.seat] = max(newest.get(envelope.seat, 0), envelope.lamport)
        blockers = set()
        for seat in phase:
            earliest = (newest.get(seat, 0) + 1, seat)
            if any(e.seat != seat and earliest < (e.lamport, e.seat) for e in held):
                blockers.add(seat)
        return frozenset(blockers)

    def _apply_one(self, envelope: Envelope) -> bool:
        del self._buffer[(envelope.seat, envelope.seq)]
        fault = self._order_fault(envelope)
        if fault is None and self._apply is not None:
            try:
                self._apply(envelope)
            except Rejected as exc:
                fault = Fault(envelope.seat, "rejected", str(exc), (envelope,))
        if fault is not None:
            # The place is used up (a second envelope for it is equivocation); the seat's next
            # envelope may follow. Whether the game goes on is for the table to decide.
            self._next_seq[envelope.seat] = envelope.seq + 1
            self._record(fault)
            return False
        self.entries.append(envelope)
        self.head = next_head(self.head, envelope)
        self._heads[self.head] = len(self.entries)
        self._lamport_floor.append(max(self._lamport_floor[-1], envelope.lamport))
        self._next_seq[envelope.seat] = envelope.seq + 1
        self._last_applied[envelope.seat] = envelope
        for listener in self._listeners:
            listener(envelope)
        return True

    def _order_fault(self, envelope: Envelope) -> Fault | None:
        seen = self._heads.get(envelope.prev)
        previous = self._last_applied.get(envelope.seat)
        if seen is None:
            return Fault(
                envelope.seat, "bad-prev", f"{envelope} names an unknown log head", (envelope,)
            )
        if previous is not None and seen < self._heads[previous.prev]:
            return Fault(
                envelope.seat,
                "bad-prev",
                f"{envelope} names an older head than before",
                (envelope,),
            )
        floor = self._lamport_floor[seen]
        if previous is not None:
            floor = max(floor, previous.lamport)
        if envelope.lamport <= floor:
            return Fault(
                envelope.seat,
                "lamport",
                f"{envelope} has Lamport time {envelope.lamport}, not above {floor}",
                (envelope,),
            )
        return None

    def _record(self, fault: Fault) -> None:
        self.faults.append(fault)
        for listener in self._fault_listeners:
            listener(fault)
