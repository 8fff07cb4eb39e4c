"""What answering a peer's `need` costs (protocol.md 4.6): what it lacks, once, at a rate.

A `need` says, per seat, the first `seq` the asker lacks. Taken at its word, a 42-byte `need`
with `have = 0` would make this peer send its whole log, as often as it is asked. So:

* **once per channel**: an envelope sent in an answer on a peer's channel is not sent again on
  that channel (the channel is reliable and keeps order: the asker has it, or will before
  anything sent after it), but for the one at each seat's `have`, the next the asker lacks: it
  may have refused it past its budget (protocol.md 4.4 step 4) and takes it now that it is
  due, so that one goes a second time, once. A new channel (a restart, a redial) starts
  afresh;
* **at a rate**: every byte answered to one peer, over all its channels, is taken from a token
  bucket of `NEED_BURST` bytes refilled at `NEED_RATE` bytes a second. An honest asker lacks at
  most one log, which the burst covers at once (a log is never larger than a transcript may be,
  4.7.1); a peer that asks again and again, on channel after channel, gets the rest of its
  answer later, at the rate, and `need-done` only when it is complete.

The answer is built from the log's per-seat positions, so it costs what it sends, not the log's
length.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import TableLog

NEED_BURST = 16 * 1024 * 1024  # bytes answered at once: a whole log (the transcript cap)
NEED_RATE = 64 * 1024  # bytes a second after the burst, per asking peer
NEED_DONE = 64  # what a `need-done` costs, counted so that an empty answer is not free


def wire_size(envelope: Envelope) -> int:
    """The bytes an `env` message of this envelope takes (its fields and their headers)."""
    return len(envelope.signed) + len(envelope.signature) + 16


class Bucket:
    """Tokens (bytes) refilled at `rate` a second up to `burst`."""

    def __init__(self, burst: int, rate: float, clock: Callable[[], float]) -> None:
        self.burst, self.rate, self._clock = burst, rate, clock
        self.tokens = float(burst)
        self._stamp = clock()

    def _refill(self) -> None:
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def take(self, amount: int) -> bool:
        self._refill()
        if self.tokens < amount:
            return False
        self.tokens -= amount
        return True

    def wait(self, amount: int) -> float:
        """Seconds until `amount` tokens are there."""
        self._refill()
        return max(0.0, (min(amount, self.burst) - self.tokens) / self.rate)


@dataclass
class PeerAnswers:
    """What one peer was sent in answers on its current channel."""

    below: dict[int, int] = field(default_factory=dict)  # seat -> every applied seq below sent
    places: set[tuple[int, int]] = field(default_factory=set)  # buffered places sent
    again: set[tuple[int, int]] = field(default_factory=set)  # places sent a second time
    have: list[int] | None = None  # an answer not finished yet: the `have` it answers


@dataclass
class Answer:
    envelopes: list[Envelope]
    done: bool  # complete: `need-done` follows
    wait: float  # if not done: seconds before the rest may go


class NeedAnswers:
    """Answers to the `need`s of each peer, bounded as the module says."""

    def __init__(
        self,
        log: TableLog,
        clock: Callable[[], float] = time.monotonic,
        burst: int = NEED_BURST,
        rate: float = NEED_RATE,
    ) -> None:
        self.log = log
        self._clock, self._burst, self._rate = clock, burst, rate
        self._peers: dict[bytes, PeerAnswers] = {}
        self._buckets: dict[bytes, Bucket] = {}
        self.sent_bytes: dict[bytes, int] = {}  # per peer, every answer so far (benches, tests)

    def channel_up(self, peer: bytes) -> None:
        """A new channel to `peer`: it may have lost everything (a restart); its bucket stays."""
        self._peers[peer] = PeerAnswers()

    def pending(self, peer: bytes) -> bool:
        record = self._peers.get(peer)
        return record is not None and record.have is not None

    def answer(self, peer: bytes, have: Sequence[int] | None = None) -> Answer:
        """What to send `peer` now for its `need` (`have`; None: go on with the one pending)."""
        record = self._peers.setdefault(peer, PeerAnswers())
        bucket = self._buckets.setdefault(peer, Bucket(self._burst, self._rate, self._clock))
        if have is not None:
            record.have = list(have)
        wanted = record.have
        if wanted is None:
            return Answer([], True, 0.0)
        sent: list[Envelope] = []
        for envelope in self._lacking(record, wanted):
            cost = wire_size(envelope)
            if not bucket.take(cost):
                return Answer(sent, False, bucket.wait(cost))
            self.sent_bytes[peer] = self.sent_bytes.get(peer, 0) + cost
            sent.append(envelope)
            place = (envelope.seat, envelope.seq)
            if self.log.applied_at(*place) is None:
                record.places.add(place)
            else:
                below = record.below.get(envelope.seat, 0)
                record.below[envelope.seat] = max(below, envelope.seq + 1)
        if not bucket.take(NEED_DONE):
            return Answer(sent, False, bucket.wait(NEED_DONE))
        self.sent_bytes[peer] = self.sent_bytes.get(peer, 0) + NEED_DONE
        record.have = None
        return Answer(sent, True, 0.0)

    def _position(self, envelope: Envelope) -> int:
        """Where an envelope stands in the log (a buffered one: after every applied one)."""
        position = self.log.applied_at(envelope.seat, envelope.seq)
        return len(self.log.entries) if position is None else position

    def _lacking(self, record: PeerAnswers, have: list[int]) -> Iterator[Envelope]:
        """Applied envelopes in log order, then buffered ones by (seat, seq): those at or past
        the asker's `have` (a seat it does not name: all) not sent on this channel yet."""
        log = self.log
        again = [  # the next one it lacks of each seat, though sent: it may have refused it
            envelope
            for seat in log.roster.seats
            if seat < len(have)
            and (seat, have[seat]) not in record.again
            and (have[seat] < record.below.get(seat, 0) or (seat, have[seat]) in record.places)
            and (envelope := log.held(seat, have[seat])) is not None
        ]
        for envelope in sorted(again, key=self._position):
            record.again.add((envelope.seat, envelope.seq))
            yield envelope
        first = {
            seat: max(have[seat] if seat < len(have) else 0, record.below.get(seat, 0))
            for seat in log.roster.seats
        }
        runs = [log.applied_positions(seat, first[seat]) for seat in log.roster.seats]
        for position in heapq.merge(*runs):
            envelope = log.entries[position]
            if (envelope.seat, envelope.seq) not in record.places:
                yield envelope
        for envelope in log.buffered:
            place = (envelope.seat, envelope.seq)
            if envelope.seq >= first[envelope.seat] and place not in record.places:
                yield envelope
