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
   through `prev`, Lamport times) with the table driver as ordering and rules, an observer
   fair-deck session verifying every key, shuffle and share proof and opening every revealed
   card, and the engine checking every action. Every envelope must be applied exactly where it
   stands (else it is out of order, naming its seat); a fault the driver finds (an illegal
   action, a failed proof, a face-up claim the face contradicts) names the seat and the
   evidence.

The observer holds no seat and no secret, so cards never revealed stay secret. `audit_many`
also checks that several transcripts of one table agree (one log a prefix of the other).
"""

from __future__ import annotations

import hashlib
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
from fairdeal.p2p.log.tablelog import Roster, TableLog
from fairdeal.p2p.net.framing import MAX_FRAME_SIZE, PREFIX, PREFIX_SIZE
from fairdeal.p2p.table.driver import Concurrent, TableDriver, roster_difference
from fairdeal.p2p.table.games import table_class

TRANSCRIPT_VERSION = 1


@dataclass(frozen=True)
class AuditFault:
    """The first fault found: the seat at fault (None: the file itself), what, the evidence."""

    seat: int | None
    what: str
    evidence: str
    entry: int | None = None  # index of the applied envelope, when one is at fault

    def __str__(self) -> str:
        who = f"seat {self.seat}" if self.seat is not None else "the file"
        where = f" at entry {self.entry}" if self.entry is not None else ""
        return f"{who}{where}: {self.what} ({self.evidence})"


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
    hands: int = 0
    doubts: int = 0
    roster: list[str] = field(default_factory=list)  # seat -> key fingerprint, all joined
    signed_roster: bool = False  # the header holds the lobby's roster, signed by every seat
    ids: list[bytes] = field(default_factory=list, repr=False)

    @property
    def verified(self) -> bool:
        return self.fault is None

    def result_text(self) -> str:
        if not self.over:
            return f"game not finished after {self.entries} entries"
        winners = ", ".join(f"seat {w}" for w in self.winners)
        seats = ", ".join(f"{seat}={key}" for seat, key in enumerate(self.roster))
        return (
            f"{self.hands} hand(s); winner(s): {winners}; scores {list(self.scores)}; "
            f"{self.doubts} doubt(s); roster {seats}"
            + ("" if self.signed_roster else " (no signed roster: not started in a lobby)")
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
            "roster": self.roster,
            "signed_roster": self.signed_roster,
            "fault": None
            if self.fault is None
            else {
                "seat": self.fault.seat,
                "what": self.fault.what,
                "evidence": self.fault.evidence,
                "entry": self.fault.entry,
            },
        }


class _Stop(Exception):
    def __init__(self, fault: AuditFault) -> None:
        super().__init__(str(fault))
        self.fault = fault


def audit_transcript(path: Path) -> AuditReport:
    report = AuditReport(str(path))
    try:
        roster, report.seat, envelopes, signed = _read(path)
        report.seats = len(roster.keys)
        report.roster = [fingerprint(key) for key in roster.keys]
        report.signed_roster = signed is not None
        _check_sequences(envelopes)
        _replay(roster, envelopes, report, signed)
        _check_evidence(roster, path)
    except _Stop as stop:
        report.fault = stop.fault
    return report


def audit_many(paths: list[Path]) -> tuple[list[AuditReport], AuditFault | None]:
    """Audit each transcript, then check that they are of one table and agree."""
    reports = [audit_transcript(path) for path in paths]
    disagreement = None
    good = [r for r in reports if r.verified]
    for other in good[1:]:
        first = good[0]
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


def _read(path: Path) -> tuple[Roster, int, list[Envelope], SignedRoster | None]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _Stop(AuditFault(None, "cannot read the transcript", str(exc))) from None
    records = list(_records(data))
    if not records:
        raise _Stop(AuditFault(None, "not a transcript", "no header record"))
    header = records[0]
    table, keys, seat = header.get("table"), header.get("roster"), header.get("seat")
    if (
        header.get("k") != "header"
        or header.get("v") != TRANSCRIPT_VERSION
        or not isinstance(table, bytes)
        or not isinstance(keys, list)
        or not all(isinstance(k, bytes) and len(k) == 32 for k in keys)
        or not isinstance(seat, int)
    ):
        raise _Stop(AuditFault(None, "not a version 1 fairdeal transcript", "bad header"))
    roster = Roster(table, tuple(keys))
    signed_roster = _signed_roster(header, roster)
    envelopes: list[Envelope] = []
    for record in records[1:]:
        if record.get("k") != "applied":
            continue
        index = len(envelopes)
        signed, signature = record.get("d"), record.get("s")
        if not isinstance(signed, bytes) or not isinstance(signature, bytes):
            raise _Stop(AuditFault(None, "damaged record", "an envelope without bytes", index))
        try:
            envelope = decode_envelope(signed, signature, str(path))
        except (EnvelopeError, MalformedFrame) as exc:
            seat_hint = _seat_hint(signed)
            raise _Stop(AuditFault(seat_hint, "envelope altered", str(exc), index)) from None
        if envelope.table != roster.table or envelope.seat >= len(roster.keys):
            raise _Stop(
                AuditFault(envelope.seat, "envelope of another table", str(envelope), index)
            )
        if not envelope.verify(roster.keys[envelope.seat]):
            raise _Stop(
                AuditFault(
                    envelope.seat,
                    "bad signature: the envelope was altered",
                    f"{envelope} is not signed by seat {envelope.seat}'s key",
                    index,
                )
            )
        envelopes.append(envelope)
    return roster, seat, envelopes, signed_roster


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


def _records(data: bytes) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    offset = 0
    while offset + PREFIX_SIZE <= len(data):
        (length,) = PREFIX.unpack_from(data, offset)
        end = offset + PREFIX_SIZE + length
        if length > MAX_FRAME_SIZE + 1024 or end > len(data):
            break  # a torn tail, as a crash leaves it
        try:
            record = msgpack.unpackb(data[offset + PREFIX_SIZE : end], raw=False)
        except (ValueError, msgpack.UnpackException) as exc:
            raise _Stop(AuditFault(None, "damaged record", f"byte {offset}: {exc}")) from None
        if not isinstance(record, dict):
            raise _Stop(AuditFault(None, "damaged record", f"byte {offset}: not a map"))
        records.append(record)
        offset = end
    return records


def _seat_hint(signed: bytes) -> int | None:
    try:
        fields = msgpack.unpackb(signed, raw=False)
        seat = fields[2]
    except Exception:
        return None
    return seat if isinstance(seat, int) else None


# -- checking --------------------------------------------------------------------------------


def _check_sequences(envelopes: list[Envelope]) -> None:
    """Each seat's envelopes are numbered 0, 1, 2 … in log order."""
    next_seq: dict[int, int] = {}
    for index, envelope in enumerate(envelopes):
        expected = next_seq.get(envelope.seat, 0)
        if envelope.seq != expected:
            what = (
                f"seat {envelope.seat}'s envelope #{expected} is missing (dropped)"
                if envelope.seq > expected
                else f"seat {envelope.seat}'s envelope #{envelope.seq} is out of order"
            )
            raise _Stop(AuditFault(envelope.seat, what, f"found {envelope} instead", index))
        next_seq[envelope.seat] = expected + 1


def _options(envelopes: list[Envelope], at: int) -> tuple[type[TableDriver], Any]:
    """The game (its table driver) and terms of seat 0's join, the envelope at `at` (after the
    roster, if any)."""
    first = envelopes[at] if len(envelopes) > at else None
    body = first.body if first is not None else None
    name = body.get("game") if isinstance(body, dict) else None
    try:
        driver = table_class(name) if isinstance(name, str) else None
    except ValueError:
        driver = None
    if first is None or driver is None or first.kind != driver.join_kind:
        raise _Stop(AuditFault(0, "the log does not open with seat 0's join", "no game terms", at))
    game = get_game(driver.game_name)
    try:
        return driver, game.from_data(body.get("options"), game.options_type)
    except DecodeError as exc:
        raise _Stop(AuditFault(0, "unreadable game terms", str(exc), at)) from None


def _check_roster_envelope(envelopes: list[Envelope], signed: SignedRoster) -> None:
    """The log opens with seat 0's record of exactly the signed roster (protocol.md 5.5)."""
    first = envelopes[0] if envelopes else None
    if first is None:
        return
    if first.seat != 0 or first.kind != ROSTER_KIND:
        raise _Stop(
            AuditFault(first.seat, "the log does not open with seat 0's roster", str(first), 0)
        )
    try:
        signed.check_body(first.body, "seat 0")
    except RosterError as error:
        evidence = f"{first}: {roster_difference(signed, first.body)}"
        raise _Stop(AuditFault(0, error.detail, evidence, 0)) from None


def _replay(
    roster: Roster, envelopes: list[Envelope], report: AuditReport, signed: SignedRoster | None
) -> None:
    seats = len(roster.keys)
    at = 0 if signed is None else 1  # seat 0's join follows its roster envelope
    if signed is not None:
        _check_roster_envelope(envelopes, signed)
    driver, options = _options(envelopes, at)
    lobby_options = driver.lobby_options
    if signed is not None and lobby_options(options) != signed.roster.options_dict:
        raise _Stop(
            AuditFault(
                0,
                "the game terms are not the options every seat signed",
                f"join {lobby_options(options)} against roster {signed.roster.options_dict}",
                at,
            )
        )
    deck = DeckSession.observer(roster.table, seats)
    try:
        table = driver(roster.table, seats, options, deck, signed)
    except ValueError as exc:
        raise _Stop(AuditFault(0, "impossible game terms", str(exc), at)) from None
    table.terms = envelopes[at].body  # seat 0's join; every other join must equal it
    table.observe()
    log = TableLog(roster, lambda _log: table.expected_seat(), table.apply)
    done = 0  # envelopes applied, in transcript order
    for index, envelope in enumerate(envelopes):
        expected = table.expected()
        applied = log.receive(envelope, "transcript")
        if log.faults:
            fault = log.faults[0]
            raise _Stop(AuditFault(fault.seat, fault.kind, fault.detail, index))
        # In a simultaneous phase (The Lie's Phase 1) an envelope waits until it is stable,
        # then applies with those after it; anywhere else each applies where it stands.
        waits = not applied and isinstance(expected, Concurrent)
        if applied != envelopes[done : done + len(applied)] or not (applied or waits):
            # the first place where the log's order and the transcript's part
            at = next(
                (done + k for k, e in enumerate(applied) if envelopes[done + k] is not e), index
            )
            stands = envelopes[at]
            raise _Stop(
                AuditFault(
                    stands.seat,
                    "envelope out of order",
                    f"{stands} stands where the rules expect {expected}",
                    at,
                )
            )
        done += len(applied)
        report.entries = done
        report.ids += [e.id for e in applied]
        if table.fault is not None:
            fault = table.fault
            raise _Stop(AuditFault(fault.seat, fault.what, fault.evidence, index))
        _tally(table, report)
        table.outbox.clear()  # an observer publishes nothing
    if done < len(envelopes):
        stands = envelopes[done]
        raise _Stop(
            AuditFault(stands.seat, "envelope out of order", f"{stands} never became due", done)
        )
    state = table.state
    if state is not None:
        report.over = state.over
        report.winners = state.winners
        report.scores = state.scores
        report.hands = getattr(state, "hand_no", getattr(state, "round_no", 0))


def _tally(table: TableDriver, report: AuditReport) -> None:
    events, table.events = table.events, []
    report.doubts += sum(1 for e in events if type(e).__name__ == "DoubtVerification")


def _check_evidence(roster: Roster, path: Path) -> None:
    """Faults a peer saw outside the log (equivocation): re-check their signed evidence."""
    from fairdeal.p2p.table.peer import evidence_path

    sidecar = evidence_path(path)
    if not sidecar.exists():
        return
    for record in _records(sidecar.read_bytes()):
        items = record.get("evidence")
        if not isinstance(items, list) or not items:
            continue
        envelopes: list[Envelope] = []
        for item in items:
            try:
                envelope = decode_envelope(bytes(item[0]), bytes(item[1]), str(sidecar))
            except (EnvelopeError, MalformedFrame, TypeError, IndexError):
                break
            if envelope.table != roster.table or envelope.seat >= len(roster.keys):
                break
            if not envelope.verify(roster.keys[envelope.seat]):
                break
            envelopes.append(envelope)
        else:
            seats = {e.seat for e in envelopes}
            places = {(e.seat, e.seq) for e in envelopes}
            distinct = len({e.signed for e in envelopes}) == len(envelopes)
            if len(envelopes) >= 2 and len(seats) == 1 and len(places) == 1 and distinct:
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


def digest(report: AuditReport) -> str:
    """A short digest of the log a report verified (equal for transcripts that agree)."""
    return hashlib.sha256(b"".join(report.ids)).hexdigest()[:16]
