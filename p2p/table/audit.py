"""Offline audit of a Larry transcript: is this exactly a game played by the rules?

`audit_transcript(path)` checks, in this order, and stops at the first fault:

1. the file: a version-1 header with the roster (table id, one Ed25519 key per seat) and, for a
   table started in a lobby, the signed roster (protocol.md 5.5: every seat's signature must
   verify, naming the seat whose does not, and it must seat the header's keys at the header's
   table), then framed records; every applied envelope decodes and carries its seat's signature
   (an altered envelope fails here, naming the seat that signed the original);
2. each seat's envelopes carry sequence numbers 0, 1, 2, … in log order (a dropped or moved
   envelope breaks this, naming its seat);
3. a full replay, opening with seat 0's `roster` envelope recording that signed roster exactly
   (when there is one) and joins whose options are the ones signed: the table log (hash chain
   through `prev`) with the table driver as ordering and rules (The Lie's Phase 1: its steps,
   commitments and openings, ties, placements, protocol.md 10.11), an observer
   fair-deck session verifying every key, shuffle and share proof and opening every revealed
   card, and the engine checking every action. Every envelope must be applied exactly where it
   stands (else it is out of order, naming its seat); a fault the driver finds (an illegal
   action, a failed proof, a face-up claim the face contradicts) names the seat and the
   evidence.

The observer holds no seat and no secret, so cards never revealed stay secret. `audit_many`
also checks that several transcripts of one table agree (one log a prefix of the other).

The same pass serves the replay and the watchers, so that there is one replay of a log:
`Follow` lets `fairdeal replay` (p2p.table.replay) ride on it, with a call after each batch of
applied envelopes and, to show the owner's own hand, the seat's fair deck rebuilt from its seed;
`LiveAudit` feeds it a log that grows, one envelope at a time (a watcher, p2p.table.watch).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from fairdeal.engine.codec import DecodeError
from fairdeal.engine.games import get_game
from fairdeal.p2p.deck import DeckSession
from fairdeal.p2p.errors import EnvelopeError, MalformedFrame, PeerError
from fairdeal.p2p.identity import fingerprint
from fairdeal.p2p.lobby.messages import parse_signed_roster_record
from fairdeal.p2p.lobby.roster import ROSTER_KIND, RosterError, SignedRoster
from fairdeal.p2p.log.envelope import Envelope, decode_envelope
from fairdeal.p2p.log.records import Record, RecordError, RecordReader, open_records
from fairdeal.p2p.log.tablelog import Roster, TableLog
from fairdeal.p2p.log.transcript import (
    TRANSCRIPT_VERSION,
    TranscriptError,
    TranscriptVersionError,
    parse_header,
)
from fairdeal.p2p.table.api import DoubtVerification
from fairdeal.p2p.table.driver import TableDriver, roster_difference
from fairdeal.p2p.table.games import table_class
from fairdeal.p2p.table.left_file import Departure, departures, read_left
from fairdeal.p2p.table.presenter import presenter_for
from fairdeal.p2p.table.withheld import WITHHELD_KIND, withheld_reveal


@dataclass(frozen=True)
class AuditFault:
    """The first fault found: the seat at fault (None: the file itself), what, the evidence."""

    seat: int | None
    what: str
    evidence: str
    entry: int | None = None  # index of the applied envelope, when one is at fault
    offset: int | None = None  # byte offset of the record at fault in the file, when known
    # False when `seat` only signed the record that fails (altered after signing, or forged):
    # nothing proves that seat cheated, so the text must not read as if it did.
    blames: bool = True

    @property
    def verdict(self) -> str:
        """The word before the fault: FAULT when a seat is proven at fault, DOES NOT VERIFY when
        only the file is (protocol.md 10.7)."""
        return "FAULT" if self.blames else "DOES NOT VERIFY"

    def __str__(self) -> str:
        where = f" at entry {self.entry}" if self.entry is not None else ""
        at = f" at byte {self.offset}" if self.offset is not None else ""
        if not self.blames:
            signer = f"seat {self.seat}" if self.seat is not None else "an unknown seat"
            return (
                f"the record{where}{at} signed by {signer} does not verify (altered after "
                f"signing, or forged): {self.what} ({self.evidence})"
            )
        who = f"seat {self.seat}" if self.seat is not None else "the file"
        return f"{who}{where}{at}: {self.what} ({self.evidence})"


@dataclass
class AuditReport:
    path: str
    seat: int | None = None  # whose transcript this is
    seats: int = 0
    entries: int = 0
    fault: AuditFault | None = None
    over: bool = False
    winners: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    hands: int = 0  # Larry's hands, The Lie's rounds (`round_name`)
    doubts: int = 0
    round_name: str = "hand"
    counters: dict[str, int] = field(
        default_factory=dict
    )  # the game's own (The Lie: steps, ties, void claims)
    roster: list[str] = field(default_factory=list)  # seat -> key fingerprint, all joined
    signed_roster: bool = False  # the header holds the lobby's roster, signed by every seat
    started: bool = False  # seat 0's join is in the log: the game's terms are known
    ignored_bytes: int = 0  # a torn last record (a crash's tail) left out of the audit
    withheld: str | None = None  # the table was ended over a withheld coin reveal (10.6)
    table: bytes = b""  # the table id of the header's roster
    departures: list[Departure] = field(default_factory=list)  # signed `left` messages kept
    ids: list[bytes] = field(default_factory=list, repr=False)

    @property
    def verified(self) -> bool:
        return self.fault is None

    @property
    def incomplete(self) -> bool:
        """The log stops mid-game (no fault): a peer that crashed or is still playing."""
        return not self.over and self.fault is None

    def result_text(self) -> str:
        return self._result_text() + self._torn_text()

    def _torn_text(self) -> str:
        if not self.ignored_bytes:
            return ""
        return (
            f"; the last {self.ignored_bytes} byte(s) are a torn record (a crash's tail, or "
            "bytes added to the file) and were ignored"
        )

    def _result_text(self) -> str:
        if not self.over and self.withheld is not None:
            return f"table ended after {self.entries} entries: {self.withheld}"
        if not self.over and self.departures:
            return self._ended_text()
        if not self.over:
            where = "mid-game" if self.started else "before the game began (no join of seat 0)"
            return f"incomplete: the log stops {where} after {self.entries} entries"
        winners = ", ".join(f"seat {w}" for w in self.winners)
        seats = ", ".join(f"{seat}={key}" for seat, key in enumerate(self.roster))
        tally = (
            ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in self.counters.items())
            if self.counters
            else f"{self.doubts} doubt(s)"
        )
        return (
            f"{self.hands} {self.round_name}(s); winner(s): {winners}; scores "
            f"{list(self.scores)}; {tally}; roster {seats}"
            + ("" if self.signed_roster else " (no signed roster: not started in a lobby)")
        )

    def _ended_text(self) -> str:
        """An unfinished table that seats left: who left, who ended it, after which entry."""
        said = []
        for gone in self.departures:
            how = "ended the table" if gone.ended else "left"
            after = (
                f"after {gone.entries} entries"
                if gone.entries is not None
                else "at a point past this transcript"
            )
            said.append(f"seat {gone.seat} {how} {after} ({gone.reason!r})")
        first = "ended" if any(g.ended for g in self.departures) else "left"
        return (
            f"{first}, not finished: " + "; ".join(said) + f"; the log holds {self.entries} entries"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "verified": self.verified,
            "seat": self.seat,
            "seats": self.seats,
            "entries": self.entries,
            "over": self.over,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "hands": self.hands,
            "doubts": self.doubts,
            "counters": dict(self.counters),
            "roster": self.roster,
            "signed_roster": self.signed_roster,
            "incomplete": self.incomplete,
            "ignored_bytes": self.ignored_bytes,
            "withheld": self.withheld,
            "departures": [
                {"seat": g.seat, "reason": g.reason, "entries": g.entries, "ended": g.ended}
                for g in self.departures
            ],
            "fault": None
            if self.fault is None
            else {
                "seat": self.fault.seat,
                "what": self.fault.what,
                "evidence": self.fault.evidence,
                "entry": self.fault.entry,
                "offset": self.fault.offset,
                "blames": self.fault.blames,
            },
        }


class _Stop(Exception):
    def __init__(self, fault: AuditFault) -> None:
        super().__init__(str(fault))
        self.fault = fault


@dataclass(frozen=True)
class Follow:
    """How a replay (p2p.table.replay) rides on the audit's own pass: the fair-deck session the
    table is followed with (None: an observer's; a seat's, rebuilt from its seed, also opens
    that seat's own cards) and a call after each batch of envelopes the log applied, before the
    table's events are consumed."""

    deck: Callable[[bytes, int], DeckSession] | None = None
    forwards: tuple[Any, ...] = ()  # give-aways the seat received and kept (its secrets file)
    on_applied: Callable[[TableDriver, list[Envelope]], None] | None = None


def audit_transcript(path: Path, follow: Follow | None = None) -> AuditReport:
    """Audit one transcript; the file is only read (protocol.md 10.7). `follow`: a replay's
    hooks (the audit is the same pass)."""
    report = AuditReport(str(path))
    try:
        _Audit(path, report, follow or Follow()).run()
    except _Stop as stop:
        report.fault = stop.fault
    return report


class LiveAudit:
    """The audit of a log that grows, one envelope at a time in log order (a watcher, p2p.table
    .watch): each is checked as a file's records are (its table, its seat's signature, each
    seat's numbering) and replayed as `fairdeal audit` replays a transcript. The first fault is
    kept in `report.fault`; nothing is taken in after it."""

    def __init__(
        self,
        roster: Roster,
        report: AuditReport,
        extra: dict[str, Any],
        on_applied: Callable[[TableDriver, list[Envelope]], None] | None = None,
    ) -> None:
        self.roster = roster
        self.report = report
        self.next_seq: dict[int, int] = {}
        report.seats = len(roster.keys)
        report.roster = [fingerprint(key) for key in roster.keys]
        self.replay: _Replay | None = None
        try:
            signed = _signed_roster({"extra": extra}, roster)
        except _Stop as stop:
            report.fault = stop.fault
            return
        report.signed_roster = signed is not None
        self.replay = _Replay(roster, report, signed, Follow(on_applied=on_applied))

    @property
    def game_name(self) -> str:
        table = self.replay.table if self.replay is not None else None
        return table.game_name if table is not None else ""

    def feed(self, envelope: Envelope, index: int) -> None:
        replay, report = self.replay, self.report
        if replay is None or report.fault is not None:
            return
        keys = self.roster.keys
        try:
            if envelope.table != self.roster.table or envelope.seat >= len(keys):
                raise _Stop(AuditFault(envelope.seat, "envelope of another table", str(envelope)))
            if not envelope.verify(keys[envelope.seat]):
                raise _Stop(
                    AuditFault(
                        envelope.seat,
                        "bad signature: the envelope was altered",
                        f"{envelope} is not signed by seat {envelope.seat}'s key",
                        index,
                    )
                )
            expected = self.next_seq.get(envelope.seat, 0)
            if envelope.seq != expected:
                raise _Stop(
                    AuditFault(
                        envelope.seat,
                        f"seat {envelope.seat}'s envelope #{expected} is not the next one",
                        f"found {envelope} instead",
                        index,
                    )
                )
            self.next_seq[envelope.seat] = expected + 1
            replay.feed(envelope, index, 0)
        except _Stop as stop:
            report.fault = AuditFault(stop.fault.seat, stop.fault.what, stop.fault.evidence, index)


def audit_many(paths: list[Path]) -> tuple[list[AuditReport], AuditFault | None]:
    """Audit each transcript, then check that they are of one table and agree."""
    reports = [audit_transcript(path) for path in paths]
    disagreement = None
    good = [r for r in reports if r.verified]
    for other in good[1:]:
        first = good[0]
        if other.table != first.table or other.roster != first.roster:
            disagreement = AuditFault(
                None,
                "transcripts of different tables",
                f"{first.path} is of table {first.table.hex()}, {other.path} of table "
                f"{other.table.hex()}"
                + (" (other seats)" if other.roster != first.roster else "")
                + ": only transcripts of one table can be compared",
            )
            break
        shorter, longer = sorted((first.ids, other.ids), key=len)
        if longer[: len(shorter)] != shorter:
            at = next(i for i, (a, b) in enumerate(zip(shorter, longer, strict=False)) if a != b)
            disagreement = AuditFault(
                None,
                "transcripts disagree",
                f"{first.path} and {other.path} differ at entry {at}",
                at,
            )
            break
    return reports, disagreement


# -- reading ---------------------------------------------------------------------------------


class _Audit:
    """One pass over the file, one record in memory at a time: each record is checked and its
    envelope replayed as it is read, so the first fault is found in file order."""

    def __init__(self, path: Path, report: AuditReport, follow: Follow) -> None:
        self.path = path
        self.report = report
        self.follow = follow
        self.replay: _Replay | None = None
        self.next_seq: dict[int, int] = {}
        self.own: dict[int, bytes] = {}  # seq -> id of this seat's envelopes seen so far
        self.count = 0  # applied records read

    def run(self) -> None:
        """Two streaming passes: the file, its signatures and each seat's numbering first
        (steps 1-2), then the replay (step 3)."""
        self._pass(replaying=False)
        self._pass(replaying=True)
        assert self.replay is not None
        self.replay.finish()
        _check_evidence(self.replay, self.path)
        self.report.withheld = _withheld(self.replay, self.path)
        # who left or ended the table, from the signed `left` messages kept beside it (10.12)
        report = self.report
        messages = read_left(self.path, self.replay.roster)
        report.departures = departures(messages, report.table, report.ids)

    def _pass(self, replaying: bool) -> None:
        try:
            file, size = open_records(self.path)
        except RecordError as error:
            raise _Stop(_file_fault(error)) from None
        except OSError as exc:
            raise _Stop(AuditFault(None, "cannot read the transcript", str(exc))) from None
        with file:
            reader = RecordReader(file, self.path, size)
            try:
                self._records(reader, replaying)
            except RecordError as error:
                raise _Stop(_file_fault(error)) from None
        self.report.ignored_bytes = reader.torn

    def _records(self, reader: RecordReader, replaying: bool) -> None:
        self.next_seq, self.own, self.count = {}, {}, 0
        records = iter(reader)
        first = next(records, None)
        try:
            roster, seat, _extra = parse_header(first, self.path)
        except TranscriptVersionError as error:  # refused before any proof runs (issue 12)
            raise _Stop(
                AuditFault(None, "another protocol version", str(error), offset=0)
            ) from None
        except TranscriptError as error:
            what = (
                "not a transcript"
                if first is None
                else f"not a version {TRANSCRIPT_VERSION} fairdeal transcript"
            )
            raise _Stop(AuditFault(None, what, str(error), offset=0)) from None
        assert first is not None
        report = self.report
        report.seat, report.seats, report.table = seat, len(roster.keys), roster.table
        report.roster = [fingerprint(key) for key in roster.keys]
        signed_roster = _signed_roster(first.fields, roster)
        report.signed_roster = signed_roster is not None
        self.replay = _Replay(roster, report, signed_roster, self.follow)
        for record in records:
            if record.kind == "header":
                raise _Stop(
                    AuditFault(
                        None, "a second header record", "only the first is one", None, record.offset
                    )
                )
            if record.kind == "applied":
                index, self.count = self.count, self.count + 1
                envelope = _envelope(record, roster, self.path, index, check=not replaying)
                if replaying:
                    self.replay.feed(envelope, index, record.offset)
                    continue
                self._sequence(envelope, index, record.offset)
                self._own(envelope, seat, record.offset)
            elif record.kind == "signed" and not replaying:
                envelope = _envelope(record, roster, self.path, None)
                if envelope.seat != seat:
                    raise _Stop(
                        AuditFault(
                            None,
                            "a signed record of another seat",
                            f"seat {envelope.seat}'s envelope in seat {seat}'s transcript "
                            "(the header's seat was changed?)",
                            None,
                            record.offset,
                        )
                    )
                self._own(envelope, seat, record.offset)
            # a record kind from a later version is skipped (protocol.md 8)

    def _sequence(self, envelope: Envelope, index: int, offset: int) -> None:
        """Each seat's envelopes are numbered 0, 1, 2 … in log order."""
        expected = self.next_seq.get(envelope.seat, 0)
        if envelope.seq != expected:
            what = (
                f"seat {envelope.seat}'s envelope #{expected} is missing (dropped)"
                if envelope.seq > expected
                else f"seat {envelope.seat}'s envelope #{envelope.seq} is out of order"
            )
            raise _Stop(AuditFault(envelope.seat, what, f"found {envelope} instead", index, offset))
        self.next_seq[envelope.seat] = expected + 1

    def _own(self, envelope: Envelope, seat: int, offset: int) -> None:
        """This seat's `signed` and `applied` copies of one place must be the same envelope."""
        if envelope.seat != seat:
            return
        known = self.own.setdefault(envelope.seq, envelope.id)
        if known != envelope.id:
            raise _Stop(
                AuditFault(
                    seat,
                    "equivocation",
                    f"two different envelopes signed by seat {seat} for sequence number "
                    f"{envelope.seq}: {known.hex()[:16]} and {envelope.id.hex()[:16]}",
                    None,
                    offset,
                )
            )


def _file_fault(error: RecordError) -> AuditFault:
    return AuditFault(None, "damaged file", error.detail, None, error.offset)


def _envelope(
    record: Record, roster: Roster, path: Path, index: int | None, check: bool = True
) -> Envelope:
    """The record's envelope, its signature checked (unless `check` is False: the first pass
    did), naming the seat that signed the original."""
    signed, signature = record.fields.get("d"), record.fields.get("s")
    if not isinstance(signed, bytes) or not isinstance(signature, bytes):
        raise _Stop(
            AuditFault(None, "damaged record", "an envelope without bytes", index, record.offset)
        )
    try:
        envelope = decode_envelope(signed, signature, str(path))
    except (EnvelopeError, MalformedFrame) as exc:
        seat_hint = _seat_hint(signed)
        raise _Stop(
            AuditFault(seat_hint, "envelope altered", str(exc), index, record.offset, False)
        ) from None
    if envelope.table != roster.table or envelope.seat >= len(roster.keys):
        raise _Stop(
            AuditFault(
                envelope.seat, "envelope of another table", str(envelope), index, record.offset
            )
        )
    if check and not envelope.verify(roster.keys[envelope.seat]):
        raise _Stop(
            AuditFault(
                envelope.seat,
                "bad signature",
                f"{envelope} is not signed by seat {envelope.seat}'s key",
                index,
                record.offset,
                False,
            )
        )
    return envelope


def _signed_roster(header: dict[str, Any], roster: Roster) -> SignedRoster | None:
    """The lobby's signed roster from the header, every signature verified, of this table."""
    extra = header.get("extra")
    record = extra.get("signed_roster") if isinstance(extra, dict) else None
    if record is None:
        return None
    try:
        signed = parse_signed_roster_record(record, "the transcript's signed roster")
    except RosterError as error:
        raise _Stop(AuditFault(error.seat, "bad roster signature", str(error))) from None
    except PeerError as error:
        raise _Stop(AuditFault(None, "damaged signed roster", str(error))) from None
    if signed.roster.table_id != roster.table or signed.roster.keys != roster.keys:
        raise _Stop(
            AuditFault(
                None,
                "the signed roster is not this transcript's table",
                "its table id or seat keys differ from the header's",
            )
        )
    return signed


def _seat_hint(signed: bytes) -> int | None:
    try:
        fields = msgpack.unpackb(signed, raw=False)
        seat = fields[2]
    except Exception:
        return None
    return seat if isinstance(seat, int) else None


# -- checking --------------------------------------------------------------------------------


class _Replay:
    """The full replay, fed one applied envelope at a time. The envelopes before seat 0's join
    wait until it comes: the join carries the terms the table is built with."""

    def __init__(
        self,
        roster: Roster,
        report: AuditReport,
        signed: SignedRoster | None,
        follow: Follow | None = None,
    ) -> None:
        self.roster = roster
        self.follow = follow or Follow()
        self.report = report
        self.signed = signed
        self.at = 0 if signed is None else 1  # seat 0's join follows its roster envelope
        self.waiting: list[tuple[Envelope, int, int]] = []  # (envelope, index, offset)
        # Received by the log but not applied yet, in transcript order (every envelope applies
        # where it stands: the log is in turn order everywhere, protocol.md 4.5)
        self.unapplied: list[tuple[Envelope, int, int]] = []
        self.table: TableDriver | None = None
        # The envelope whose application made the table find its fault: in a simultaneous
        # phase it applies after later ones arrive, and the fault is reported where it stands.
        self.faulted_by: Envelope | None = None
        self.log: TableLog | None = None

    def feed(self, envelope: Envelope, index: int, offset: int) -> None:
        if self.log is not None:
            self._apply(envelope, index, offset)
            return
        if index == 0 and self.signed is not None:
            _check_roster_envelope(envelope, self.signed, offset)
        self.waiting.append((envelope, index, offset))
        if len(self.waiting) > self.at:
            self._begin(*self.waiting[self.at])
            waiting, self.waiting = self.waiting, []
            for item in waiting:
                self._apply(*item)

    def _begin(self, join: Envelope, index: int, offset: int) -> None:
        """Seat 0's join names the game (its table driver) and carries the terms."""
        body = join.body
        name = body.get("game") if isinstance(body, dict) else None
        try:
            driver = table_class(name) if isinstance(name, str) else None
        except ValueError:
            driver = None
        if join.seat != 0 or driver is None or join.kind != driver.join_kind:
            raise _Stop(
                AuditFault(
                    join.seat, "the log does not open with seat 0's join", str(join), index, offset
                )
            )
        assert isinstance(body, dict)
        game = get_game(driver.game_name)
        try:
            options = game.from_data(body.get("options"), game.options_type)
        except DecodeError as exc:
            raise _Stop(AuditFault(0, "unreadable game terms", str(exc), index, offset)) from None
        # A join holds exactly game, seats and options (protocol.md section 8): seat 0's join is
        # the terms every other join must equal, so nothing unread may ride along in it.
        seats = len(self.roster.keys)
        unknown = sorted(map(str, body.keys() - {"game", "seats", "options"}))
        if unknown or body.get("seats") != seats or isinstance(body.get("seats"), bool):
            said = f"unknown key(s) {', '.join(unknown)}" if unknown else ""
            said = said or f"seats is {body.get('seats')!r} at a table of {seats}"
            raise _Stop(AuditFault(0, "joined with other game terms", said, index, offset))
        try:
            driver.check_terms(options)  # every term is signed or the rulebook's (10.2)
        except ValueError as exc:
            raise _Stop(
                AuditFault(0, "joined with other game terms", str(exc), index, offset)
            ) from None
        lobby_options = driver.lobby_options
        # the game's own rule for the join's terms (Larry, protocol.md 10.1: the coin picks the
        # first seat, so every join says seat 0)
        wrong = presenter_for(driver.game_name).join_terms_fault(options)
        if wrong is not None:
            raise _Stop(AuditFault(0, "joined with other game terms", wrong, index, offset))
        signed = self.signed
        if signed is not None and lobby_options(options) != signed.roster.options_dict:
            raise _Stop(
                AuditFault(
                    0,
                    "the game terms are not the options every seat signed",
                    f"join {lobby_options(options)} against roster {signed.roster.options_dict}",
                    index,
                    offset,
                )
            )
        make_deck = self.follow.deck
        deck = (
            DeckSession.observer(self.roster.table, seats)
            if make_deck is None
            else make_deck(self.roster.table, seats)
        )
        try:
            table = driver(self.roster.table, seats, options, deck, signed, keys=self.roster.keys)
        except ValueError as exc:
            raise _Stop(AuditFault(0, "impossible game terms", str(exc), index, offset)) from None
        table.terms = join.body  # seat 0's join; every other join must equal it
        if deck.observing:
            table.observe()
        else:  # a seat's replay: what it would publish is in the log already
            table.start()
            for kept in self.follow.forwards:
                table.restore_forward(kept)
        self.table = table

        def apply(envelope: Envelope) -> None:
            table.apply(envelope)
            if table.fault is not None and self.faulted_by is None:
                self.faulted_by = envelope

        self.log = TableLog(self.roster, lambda _log: table.expected_seat(), apply)
        self.report.started = True

    def _apply(self, envelope: Envelope, index: int, offset: int) -> None:
        table, log = self.table, self.log
        assert table is not None and log is not None
        expected = table.expected()
        applied = log.receive(envelope, "transcript")
        self._stop_at_log_fault(index, offset)
        unapplied = self.unapplied
        unapplied.append((envelope, index, offset))
        # the first place where the log's order and the transcript's part (None: they agree)
        parted = next(
            (k for k, e in enumerate(applied) if k >= len(unapplied) or unapplied[k][0] is not e),
            None,
        )
        if parted is not None or not applied:
            at = len(unapplied) - 1 if parted is None else min(parted, len(unapplied) - 1)
            stands, at_index, at_offset = unapplied[at]
            raise _Stop(
                AuditFault(
                    stands.seat,
                    "envelope out of order",
                    f"{stands} stands where the rules expect {expected}",
                    at_index,
                    at_offset,
                )
            )
        self._took(applied, index, offset)

    def _stop_at_log_fault(self, index: int, offset: int) -> None:
        """The log refused what it was given (equivocation, a bad chain): its first fault."""
        assert self.log is not None
        if self.log.faults:
            fault = self.log.faults[0]
            raise _Stop(AuditFault(fault.seat, fault.kind, fault.detail, index, offset))

    def _took(self, applied: list[Envelope], index: int, offset: int) -> None:
        """`applied`, the first of the transcript's unapplied envelopes, are in the log: count
        them, stop at a fault the table found, tally, and drop what the observer would send."""
        table, report = self.table, self.report
        assert table is not None
        # where the envelope at fault stands in the file (not where it became stable)
        stands = {id(e): (i, o) for e, i, o in self.unapplied[: len(applied)]}
        del self.unapplied[: len(applied)]
        report.entries += len(applied)
        report.ids += [e.id for e in applied]
        if table.fault is not None:
            fault = table.fault
            if self.faulted_by is not None:
                index, offset = stands.get(id(self.faulted_by), (index, offset))
            raise _Stop(AuditFault(fault.seat, fault.what, fault.evidence, index, offset))
        if self.follow.on_applied is not None:
            self.follow.on_applied(table, applied)
        _tally(table, report)
        table.outbox.clear()  # an observer publishes nothing

    def finish(self) -> None:
        report = self.report
        if self.table is None:
            report.entries = len(self.waiting)
            return
        if self.unapplied:
            stands, index, offset = self.unapplied[0]
            raise _Stop(
                AuditFault(
                    stands.seat,
                    "envelope out of order",
                    f"{stands} never became due",
                    index,
                    offset,
                )
            )
        state = self.table.state
        if state is not None:
            report.over = state.over
            report.winners = state.winners
            report.scores = state.scores
            report.hands = presenter_for(self.table.game_name).rounds(state)
            report.round_name = self.table.round_name
            report.counters = self.table.counters()


def _check_roster_envelope(first: Envelope, signed: SignedRoster, offset: int) -> None:
    """The log opens with seat 0's record of exactly the signed roster (protocol.md 5.5)."""
    if first.seat != 0 or first.kind != ROSTER_KIND:
        raise _Stop(
            AuditFault(
                first.seat, "the log does not open with seat 0's roster", str(first), 0, offset
            )
        )
    try:
        signed.check_body(first.body, "seat 0")
    except RosterError as error:
        evidence = f"{first}: {roster_difference(signed, first.body)}"
        raise _Stop(AuditFault(0, error.detail, evidence, 0, offset)) from None


def _withheld(replay: _Replay, path: Path) -> str | None:
    """A table ended over a withheld coin reveal (protocol.md 10.6): the log stops where that
    seat's reveal is due, and the `.faults` record holds its signed commitment from the log."""
    from fairdeal.p2p.table.peer import evidence_path

    table, log = replay.table, replay.log
    if table is None or log is None:
        return None
    stuck = withheld_reveal(table, log, 0.0)
    sidecar = evidence_path(path)
    if stuck is None or not sidecar.exists():
        return None
    file, size = open_records(sidecar)  # already read whole by _check_evidence: no surprise
    with file:
        for record in RecordReader(file, sidecar, size, keyed=False):
            items = record.fields.get("evidence")
            kind = record.fields.get("kind")
            if kind != WITHHELD_KIND or not isinstance(items, list) or len(items) != 1:
                continue
            try:
                envelope = decode_envelope(bytes(items[0][0]), bytes(items[0][1]), str(sidecar))
            except (EnvelopeError, MalformedFrame, TypeError, IndexError, ValueError):
                continue
            key = replay.roster.keys[stuck.seat]
            if envelope.signed == stuck.commitment.signed and envelope.verify(key):
                return f"seat {stuck.seat} {stuck.what} (its signed commitment: {sidecar.name})"
    return None


def _tally(table: TableDriver, report: AuditReport) -> None:
    events, table.events = table.events, []
    report.doubts += sum(1 for e in events if isinstance(e, DoubtVerification))


def _check_evidence(replay: _Replay, path: Path) -> None:
    """Faults a peer recorded beside its transcript (p2p.table.peer.evidence_path): re-check
    their signed evidence against the replayed log. Two envelopes for one place prove
    equivocation on their own; one envelope must give its fault when it comes up after the
    log's last entry (a chain fault never enters the log; a table fault's envelope is the
    log's last). A recorded fault the transcript cannot give back means the transcript was cut
    or damaged: the file fails."""
    from fairdeal.p2p.table.peer import evidence_path

    sidecar = evidence_path(path)
    if not sidecar.exists():
        return
    try:
        file, size = open_records(sidecar)
    except RecordError as error:
        raise _Stop(_file_fault(error)) from None
    except OSError as exc:
        raise _Stop(AuditFault(None, f"cannot read {sidecar.name}", str(exc))) from None
    with file:
        try:
            for record in RecordReader(file, sidecar, size, keyed=False):
                _check_fault_record(replay, record, sidecar)
        except RecordError as error:
            raise _Stop(_file_fault(error)) from None


def _check_fault_record(replay: _Replay, record: Record, sidecar: Path) -> None:
    if record.fields.get("kind") == WITHHELD_KIND:
        return  # its commitment is in the log by design: `_withheld` reads it (10.6)
    roster = replay.roster
    envelopes: list[Envelope] = []
    for item in record.fields.get("evidence") or []:
        try:
            envelope = decode_envelope(bytes(item[0]), bytes(item[1]), str(sidecar))
        except (EnvelopeError, MalformedFrame, TypeError, IndexError, ValueError):
            return  # unverifiable evidence proves nothing
        if envelope.table != roster.table or envelope.seat >= len(roster.keys):
            return
        if not envelope.verify(roster.keys[envelope.seat]):
            return
        envelopes.append(envelope)
    if not envelopes:
        return
    places = {(e.seat, e.seq) for e in envelopes}
    distinct = len({e.signed for e in envelopes}) == len(envelopes)
    if len(envelopes) >= 2 and len(places) == 1 and distinct:
        seat = envelopes[0].seat
        raise _Stop(
            AuditFault(
                seat,
                "equivocation",
                f"two different envelopes signed by seat {seat} for sequence number "
                f"{envelopes[0].seq}: {envelopes[0].id.hex()[:16]} and "
                f"{envelopes[1].id.hex()[:16]}",
            )
        )
    if len(envelopes) != 1:
        return
    evidence = envelopes[0]
    cut = AuditFault(
        None,
        f"the transcript ends before a fault that {sidecar.name} records",
        f"{evidence} ({record.fields.get('detail')!r}) is not where the log stops: "
        "the transcript was cut or damaged",
    )
    table, log = replay.table, replay.log
    if table is None or log is None or evidence.id in replay.report.ids:
        raise _Stop(cut)  # its envelope is in the log and gave no fault there
    log.receive(evidence, sidecar.name)
    if log.faults:
        fault = log.faults[0]
        raise _Stop(AuditFault(fault.seat, fault.kind, f"{fault.detail} (from {sidecar.name})"))
    if table.fault is not None:
        found = table.fault
        raise _Stop(AuditFault(found.seat, found.what, f"{found.evidence} (from {sidecar.name})"))
    raise _Stop(cut)


def digest(report: AuditReport) -> str:
    """A short digest of the log a report verified (equal for transcripts that agree)."""
    return hashlib.sha256(b"".join(report.ids)).hexdigest()[:16]
