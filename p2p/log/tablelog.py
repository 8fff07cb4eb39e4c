"""The table log, sans-IO: verified envelopes in one order that every honest peer agrees on.

Envelopes may arrive in any order, from the author or relayed by anyone. The log

* verifies each against the roster (table id, seat, signature) and refuses bad input with an
  `EnvelopeError` naming who delivered it, changing nothing;
* suppresses duplicates and detects equivocation (two different envelopes signed for one seat
  and sequence number), keeping both as evidence: the first pair of each seat only, one fault;
* buffers envelopes that arrive early and applies them when the ordering policy reaches them;
  with `limits` (data: the table's figures, p2p/table/core/sizes.py) it refuses an envelope
  larger than its kind ever is, and one that would take its seat's envelopes held ahead past
  the seat's budget.

The order is the game's to decide, and the log is told it when it is made: either the game's
`Rules` (an object saying `expected_seat()` and taking each envelope in `apply`, as a table
driver does), or a plain `Ordering` (a function of the log, or data such as `SeatOrder`). Before
each application the log asks it for

* a seat number: the next envelope (by that seat's sequence) of that seat comes next;
* None: nothing may be applied now.

Every phase of every game is in turn order (The Lie's Phase 1 too: it runs in steps, each
seat's step envelope in seat order, protocol.md 10.11), so the log needs no clock and an
envelope's fields hold nothing that could stop an honest seat from signing.

Checks that need the order (the author's `prev` must be a head of this log no older than its
previous one, the game's own `apply` may reject) make a `Fault`: the envelope is dropped and the
evidence kept. Every honest peer finds the same faults.
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from fairdeal.p2p.errors import EnvelopeError
from fairdeal.p2p.identity import Identity, fingerprint
from fairdeal.p2p.log.envelope import Envelope, sign_envelope
from fairdeal.p2p.net import kinds

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


# The game's rule for what comes next, asked before every application.
Ordering = Callable[["TableLog"], "int | None"]


@dataclass(frozen=True)
class EnvelopeLimits:
    """What one envelope may weigh and how many bytes of one seat's envelopes a peer holds ahead
    of their place (protocol.md 4.4 step 4), as data: the table computes the figures once
    (p2p/table/core/sizes.py) and the log checks every envelope against them without calling out.

    `sizes`: kind -> the largest signed bytes d of that kind (a fair-deck envelope is capped by
    its message's own kind, `body["kind"]`); `default`: a kind not named; `held_ahead`: the
    budget of bytes of one seat's envelopes held before their place comes."""

    sizes: Mapping[str, int]
    default: int
    held_ahead: int

    def cap(self, envelope: Envelope) -> int:
        kind = envelope.kind
        if kind == kinds.DECK and isinstance(envelope.body, Mapping):
            kind = str(envelope.body.get("kind"))
        return self.sizes.get(kind, self.default)


@runtime_checkable
class Rules(Protocol):
    """The game's rules as the log is told them: whose envelope comes next, and what applying
    one does (raise `Rejected` to refuse it). A table driver (p2p/table/core/driver.py) is one."""

    def expected_seat(self) -> int | None: ...

    def apply(self, envelope: Envelope) -> None: ...


@dataclass(frozen=True, slots=True)
class RulesOrdering:
    """An `Ordering` read from `Rules`: the log asks the rules, never the one who made it."""

    rules: Rules

    def __call__(self, _log: TableLog) -> int | None:
        return self.rules.expected_seat()


@dataclass(frozen=True)
class Fault:
    """A seat's provable misbehaviour: what, and the signed envelopes that prove it."""

    seat: int
    kind: str  # "equivocation", "bad-prev", "rejected"
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


@dataclass(frozen=True, slots=True)
class SeatOrder:
    """An ordering as data: `seats` in turn, by the log's length (tests, turn-based phases)."""

    seats: tuple[int, ...]

    def __call__(self, log: TableLog) -> int:
        return self.seats[len(log.entries) % len(self.seats)]


def seat_order(seats: Sequence[int]) -> Ordering:
    """An ordering that cycles through `seats` (useful for tests and turn-based phases)."""
    return SeatOrder(tuple(seats))


class TableLog:
    """One table's agreed log. `receive` envelopes, `author` new ones; read `entries`."""

    def __init__(
        self,
        roster: Roster,
        ordering: Ordering | Rules,
        apply: Callable[[Envelope], None] | None = None,
        max_buffered: int = MAX_BUFFERED,
        limits: EnvelopeLimits | None = None,
    ) -> None:
        """`ordering`: the game's `Rules` (which also apply each envelope, unless `apply` is
        given) or an `Ordering` alone (then `apply`, if any, applies them). `limits`: the
        table's, if its sizes are known now (else set `limits` once they are; None: unbounded)."""
        self.roster = roster
        self._apply: Callable[[Envelope], None] | None
        if isinstance(ordering, Rules):
            self.ordering: Ordering = RulesOrdering(ordering)
            self._apply = apply if apply is not None else ordering.apply
        else:
            self.ordering = ordering
            self._apply = apply
        self.max_buffered = max_buffered
        self.limits = limits
        self._held_bytes = dict.fromkeys(roster.seats, 0)  # per seat: bytes in the buffer
        # per seat, in seq order: its applied envelopes' seqs and their places in `entries`
        self._applied_seqs: dict[int, list[int]] = {seat: [] for seat in roster.seats}
        self._positions: dict[int, list[int]] = {seat: [] for seat in roster.seats}
        self.entries: list[Envelope] = []
        self.faults: list[Fault] = []
        self.head = genesis_head(roster.table)
        self._heads: dict[bytes, int] = {self.head: 0}  # head hash -> log length at that head
        self._by_place: dict[tuple[int, int], Envelope] = {}  # applied and buffered
        self._buffer: dict[tuple[int, int], Envelope] = {}
        # seats whose equivocation is proven: the first pair is the proof, kept once; later
        # different envelopes of theirs for a held place are ignored (a seat signing 300
        # envelopes for one place would otherwise make 300 faults at every honest peer)
        self._equivocators: set[int] = set()
        self._next_seq = dict.fromkeys(roster.seats, 0)
        self._last_applied: dict[int, Envelope] = {}
        self._listeners: list[Callable[[Envelope], None]] = []
        self._fault_listeners: list[Callable[[Fault], None]] = []

    # -- observers -------------------------------------------------------------------------

    def on_applied(self, listener: Callable[[Envelope], None]) -> None:
        """Called after each envelope is applied (after the game's apply accepted it)."""
        self._listeners.append(listener)

    def off_applied(self, listener: Callable[[Envelope], None]) -> None:
        """Stop calling `listener` (one that is only needed for a while, such as a seat's
        watchers while it has any). Safe from inside a listener: the list is replaced, so the
        envelope being announced still reaches every listener."""
        self._listeners = [known for known in self._listeners if known != listener]

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

    def applied_at(self, seat: int, seq: int) -> int | None:
        """Where in `entries` the envelope of this place stands (None: not applied)."""
        seqs = self._applied_seqs.get(seat, [])
        k = bisect.bisect_left(seqs, seq)
        return self._positions[seat][k] if k < len(seqs) and seqs[k] == seq else None

    def applied_positions(self, seat: int, first_seq: int) -> list[int]:
        """Where in `entries` `seat`'s applied envelopes from `first_seq` on stand, in order."""
        seqs = self._applied_seqs.get(seat, [])
        return self._positions[seat][bisect.bisect_left(seqs, first_seq) :]

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
        self._check_size(envelope, culprit)
        if known is not None:
            if known.signed == envelope.signed:
                return []  # the same content under another valid signature of its author
            if envelope.seat in self._equivocators:
                return []  # proven once already: relays carried that proof to everyone
            self._equivocators.add(envelope.seat)
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
        self._check_budget(envelope, culprit)
        self._buffer[place] = envelope
        self._by_place[place] = envelope
        self._held_bytes[envelope.seat] += len(envelope.signed)
        return self.advance()

    def held_bytes(self, seat: int) -> int:
        """The bytes of `seat`'s envelopes this peer holds before their place (buffered)."""
        return self._held_bytes[seat]

    def _check_size(self, envelope: Envelope, culprit: str) -> None:
        """No envelope is larger than its kind ever is. An honest peer never passes one on,
        so a relayed copy names the peer that relayed it, as any bad input does."""
        if self.limits is None:
            return
        size, cap = len(envelope.signed), self.limits.cap(envelope)
        if size > cap:
            raise EnvelopeError(
                culprit,
                f"{envelope} is {size} bytes, more than a {envelope.kind!r} envelope can "
                f"carry at this table ({cap}); seat {envelope.seat} signed it",
            )

    def _check_budget(self, envelope: Envelope, culprit: str) -> None:
        """Refuse what would take a seat's envelopes held ahead past its budget. The seat's
        next envelope is at its place, never ahead, so it is always taken. The author is
        named: only it signs its envelopes, and an honest one never has that much ahead; the
        peer that delivered the copy may be honest (it could hold other places of the same
        author, within its own budget)."""
        limits = self.limits
        seat = envelope.seat
        if limits is None or envelope.seq == self._next_seq[seat]:
            return
        held = self._held_bytes[seat]
        if held + len(envelope.signed) > limits.held_ahead:
            key = self.roster.keys[seat]
            raise EnvelopeError(
                f"seat {seat} [{fingerprint(key)}]",
                f"signed more than its budget of {limits.held_ahead} bytes ahead of its place: "
                f"{held} held here, {envelope} ({len(envelope.signed)} bytes, delivered by "
                f"{culprit}) refused",
            )

    def advance(self) -> list[Envelope]:
        """Apply every buffered envelope the ordering now allows (call it after the game's
        state changed in a way that changes `ordering`)."""
        applied: list[Envelope] = []
        while (envelope := self._next_applicable()) is not None:
            if self._apply_one(envelope):
                applied.append(envelope)
        return applied

    def replay(self, entries: Sequence[Envelope]) -> None:
        """Receive a log's applied entries in order (a restart, an audit)."""
        for envelope in entries:
            self.receive(envelope, "transcript")

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
        if turn not in self._next_seq:
            return None
        return self._buffer.get((turn, self._next_seq[turn]))

    def waiting_for(self) -> frozenset[int]:
        """The seat whose turn it is, if its envelope is not here yet."""
        turn = self.ordering(self)
        if turn is None or turn not in self._next_seq:
            return frozenset()
        if (turn, self._next_seq[turn]) in self._buffer:
            return frozenset()
        return frozenset({turn})

    def _apply_one(self, envelope: Envelope) -> bool:
        del self._buffer[(envelope.seat, envelope.seq)]
        self._held_bytes[envelope.seat] -= len(envelope.signed)
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
        self._applied_seqs[envelope.seat].append(envelope.seq)
        self._positions[envelope.seat].append(len(self.entries))
        self.entries.append(envelope)
        self.head = next_head(self.head, envelope)
        self._heads[self.head] = len(self.entries)
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
        return None

    def _record(self, fault: Fault) -> None:
        self.faults.append(fault)
        for listener in self._fault_listeners:
            listener(fault)
