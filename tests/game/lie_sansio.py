"""N sans-IO tables of The Lie wired through in-memory table logs, with controlled delivery.

No sockets, the full fair deck. Every envelope a seat signs goes into its own log at once and
into an in-flight list for every other seat; `deliver` (a test's choice, or a seeded shuffle)
says which in-flight envelopes arrive next and in which order, so a test can make claims race
and pick who sees what first. Seats sign their `lie.step` envelopes as a networked peer does:
with something to say, or at once when they hold another seat's envelope of a new step.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fairdeal.engine.lie import Claim, LieOptions, Place, Side
from fairdeal.engine.lie.bots import make_bot
from fairdeal.p2p.canonical import pack_canonical
from fairdeal.p2p.deck import DeckSession
from fairdeal.p2p.errors import EnvelopeError
from fairdeal.p2p.games.lie.table import LieTable
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import Roster, TableLog
from fairdeal.p2p.table.core.driver import Private, Publish
from fairdeal.p2p.table.runtime.randomness import SeededRandom

Tamper = Callable[[int, Publish | Private], Publish | Private | None]
# (seat, table) -> the claim to make now, or None to make none this step
ClaimPolicy = Callable[[int, LieTable], Claim | None]


@dataclass(frozen=True)
class InFlight:
    to: int
    envelope: Envelope


def quick_options(**changes: Any) -> LieOptions:
    """Small hands and one round by default: the crypto is the same, the tests stay fast."""
    values: dict[str, Any] = {"rounds": 1, "hand_size": 2}
    values.update(changes)
    return LieOptions(**values)


def greedy_claims(rng: random.Random, spread: int = 3) -> ClaimPolicy:
    """Claim one of the first `spread` claimable slots: seats often reach for the same card."""

    def policy(seat: int, table: LieTable) -> Claim | None:
        slots = table.claimable()[:spread]
        return Claim(rng.choice(slots)) if slots else None

    return policy


class LieSansIO:
    def __init__(
        self,
        seats: int,
        options: LieOptions,
        seed: int = 0,
        table_class: Callable[..., LieTable] | None = None,
        classes: dict[int, Callable[..., LieTable]] | None = None,
    ) -> None:
        self.ids = [
            Identity.generate(f"s{s}", lambda n, s=s: bytes([s + 1]) * n) for s in range(seats)
        ]
        table_id = bytes([seed % 256]) * 16
        self.roster = Roster(table_id, tuple(i.key for i in self.ids))
        classes = classes or {}
        self.tables: list[LieTable] = []
        for s in range(seats):
            make = classes.get(s, table_class or LieTable)
            random_bytes = SeededRandom(bytes([seed % 256, s]) * 16)
            deck = DeckSession(table_id, s, seats, random_bytes=random_bytes)
            self.tables.append(make(table_id, seats, options, deck))
        self.logs = [
            TableLog(self.roster, lambda _log, t=t: t.expected_seat(), t.apply) for t in self.tables
        ]
        for table, log in zip(self.tables, self.logs, strict=True):
            log.on_fault(table.log_fault)
        self.in_flight: list[InFlight] = []
        self.last_prev: list[bytes | None] = [None] * seats
        self.signed: list[list[Envelope]] = [[] for _ in range(seats)]
        self.rejected: list[tuple[int, EnvelopeError]] = []
        self.rng = random.Random(seed)
        self.seed = seed
        self.bots = [make_bot("heuristic", random.Random(seed * 31 + s)) for s in range(seats)]
        for table in self.tables:
            table.start()

    # -- one seat's output -----------------------------------------------------------------

    def sign(self, seat: int, kind: str, body: Any) -> Envelope:
        envelope = self.logs[seat].author(self.ids[seat], seat, kind, body)
        self.last_prev[seat] = envelope.prev
        self.signed[seat].append(envelope)
        return envelope

    def broadcast(self, seat: int, envelope: Envelope) -> None:
        self.receive(seat, envelope)
        self.in_flight += [InFlight(to, envelope) for to in range(len(self.tables)) if to != seat]

    def receive(self, to: int, envelope: Envelope) -> None:
        try:
            self.logs[to].receive(envelope, culprit=f"seat {envelope.seat}")
        except EnvelopeError as error:
            self.rejected.append((to, error))

    def flush(self, seat: int, tamper: Tamper | None = None) -> bool:
        """Sign and send what `seat` owes; True if anything was sent."""
        table, moved = self.tables[seat], False
        while table.outbox:
            item: Publish | Private | None = table.outbox.pop(0)
            if tamper is not None:
                item = tamper(seat, item)  # type: ignore[arg-type]
            if item is None:
                continue
            moved = True
            if isinstance(item, Private):
                self.tables[item.to].receive_private(seat, item.body)
                continue
            self.broadcast(seat, self.sign(seat, item.kind, item.body))
        return moved

    def act(self, seat: int, claims: ClaimPolicy) -> None:
        """Let `seat` claim (Phase 1) or play its go (Phase 2), as its bot or policy says."""
        table, log = self.tables[seat], self.logs[seat]
        if table.over or table.outbox:
            return
        if table.claiming():
            if table.can_place():
                table.publish_action(Place(Side(self.rng.choice(["left", "right"]))))
            if table.can_claim():
                claim = claims(seat, table)
                if claim is not None:
                    table.publish_action(claim)
        elif table.my_turn() and not log.holds(seat, log.next_seq(seat)):
            table.publish_action(self.bots[seat].choose(table.view()))

    def pace(self, seat: int) -> None:
        table, log = self.tables[seat], self.logs[seat]
        if table.over or table.outbox or not table.claiming():
            return
        table.pace(log.buffered)

    def crash_and_rejoin(self, seat: int) -> None:
        """`seat`'s process dies and restarts, as `fairdeal resume` does it: a fresh table and
        log from the same seed, its own log's entries and its own signed envelopes fed back,
        what the others hold sent to it (their answer to its "need"), and what the replay makes
        it owe again dropped where it was signed before."""
        old_table, old_log = self.tables[seat], self.logs[seat]
        random_bytes = SeededRandom(bytes([self.seed % 256, seat]) * 16)
        deck = DeckSession(old_table.table_id, seat, old_table.seats, random_bytes=random_bytes)
        table = type(old_table)(old_table.table_id, old_table.seats, old_table.options, deck)
        log = TableLog(self.roster, lambda _log, t=table: t.expected_seat(), table.apply)
        log.on_fault(table.log_fault)
        self.tables[seat], self.logs[seat] = table, log
        table.start()
        log.replay(old_log.entries)  # as from its transcript (p2p.log.transcript.replay)
        for envelope in self.signed[seat]:
            self.receive(seat, envelope)
        for envelope in log.buffered:
            if envelope.seat == seat:
                table.restore_signed(envelope)
        # and the others answer its "need" with all they hold (p2p.log.sync), held ones included
        for other, other_log in enumerate(self.logs):
            if other != seat:
                for envelope in other_log.envelopes_after(log.have):
                    self.receive(seat, envelope)
        signed = Counter(pack_canonical(e.body) for e in self.signed[seat])
        kept = []
        for item in table.outbox:
            packed = pack_canonical(item.body)
            if isinstance(item, Publish) and signed[packed]:
                signed[packed] -= 1  # in the log already
            else:
                kept.append(item)
        table.outbox = kept

    # -- the network -----------------------------------------------------------------------

    def deliver_some(self, fraction: float = 0.5) -> None:
        """Deliver a random part of what is in flight, in a random order."""
        if not self.in_flight:
            return
        self.rng.shuffle(self.in_flight)
        count = max(1, int(len(self.in_flight) * fraction))
        now, self.in_flight = self.in_flight[:count], self.in_flight[count:]
        for item in now:
            self.receive(item.to, item.envelope)

    def deliver_all(self) -> None:
        while self.in_flight:
            item = self.in_flight.pop(0)
            self.receive(item.to, item.envelope)

    def run(
        self,
        claims: ClaimPolicy | None = None,
        tamper: Tamper | None = None,
        fraction: float = 0.5,
        limit: int = 20000,
        until: Callable[[LieSansIO], bool] | None = None,
    ) -> None:
        """Act, tick, send and deliver until nothing moves (or `until` holds)."""
        claims = claims or greedy_claims(self.rng)
        seats = range(len(self.tables))
        for _ in range(limit):
            if until is not None and until(self):
                return
            moved = False
            for seat in seats:
                self.act(seat, claims)
                self.pace(seat)
                moved |= self.flush(seat, tamper)
            if self.in_flight:
                moved = True
                self.deliver_some(fraction)
            if not moved:
                return
        raise AssertionError("the table did not settle")

    # -- what the tests compare -----------------------------------------------------------------

    def heads(self) -> set[bytes]:
        return {log.head for log in self.logs}

    def hands(self, seat: int) -> tuple[tuple[int, ...], ...]:
        state = self.tables[seat].state
        return state.hands if state is not None else ()
