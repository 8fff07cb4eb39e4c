"""Reading a transcript for the audit (steps 1 and 2 of p2p/table/tools/audit.py): its header, the
signature of every record and each seat's numbering, one record in memory at a time, then the
replay (p2p/table/tools/audit_replay.py) fed in file order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack

from fairdeal.p2p.errors import EnvelopeError, MalformedFrame, PeerError
from fairdeal.p2p.identity import fingerprint
from fairdeal.p2p.lobby.messages import parse_signed_roster_record
from fairdeal.p2p.lobby.roster import RosterError, SignedRoster
from fairdeal.p2p.log.envelope import Envelope, decode_envelope
from fairdeal.p2p.log.records import Record, RecordError, RecordReader, open_records
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.log.transcript import (
    TRANSCRIPT_VERSION,
    TranscriptError,
    TranscriptVersionError,
    parse_header,
)
from fairdeal.p2p.table.runtime.left_file import departures, read_left
from fairdeal.p2p.table.tools.audit_evidence import check_evidence, withheld
from fairdeal.p2p.table.tools.audit_replay import Follow, LogReplay
from fairdeal.p2p.table.tools.audit_report import (
    NOT_A_TRANSCRIPT,
    AuditFault,
    AuditReport,
    AuditStop,
    file_fault,
)


class FileAudit:
    """One pass over the file, one record in memory at a time: each record is checked and its
    envelope replayed as it is read, so the first fault is found in file order."""

    def __init__(self, path: Path, report: AuditReport, follow: Follow) -> None:
        self.path = path
        self.report = report
        self.follow = follow
        self.replay: LogReplay | None = None
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
        check_evidence(self.replay, self.path)
        self.report.withheld = withheld(self.replay, self.path)
        # who left or ended the table, from the signed `left` messages kept beside it (10.12)
        report = self.report
        messages = read_left(self.path, self.replay.roster)
        report.departures = departures(messages, report.table, report.ids)

    def _pass(self, replaying: bool) -> None:
        try:
            file, size = open_records(self.path)
        except RecordError as error:
            raise AuditStop(file_fault(error)) from None
        except OSError as exc:
            raise AuditStop(AuditFault(None, "cannot read the transcript", str(exc))) from None
        with file:
            reader = RecordReader(file, self.path, size)
            try:
                self._records(reader, replaying)
            except RecordError as error:
                raise AuditStop(file_fault(error)) from None
        self.report.ignored_bytes = reader.torn

    def _records(self, reader: RecordReader, replaying: bool) -> None:
        self.next_seq, self.own, self.count = {}, {}, 0
        records = iter(reader)
        first = next(records, None)
        try:
            roster, seat, _extra = parse_header(first, self.path)
        except TranscriptVersionError as error:  # refused before any proof runs
            raise AuditStop(
                AuditFault(None, "another protocol version", str(error), offset=0)
            ) from None
        except TranscriptError as error:
            what = (
                NOT_A_TRANSCRIPT
                if first is None or first.kind != "header"
                else f"not a version {TRANSCRIPT_VERSION} fairdeal transcript"
            )
            raise AuditStop(AuditFault(None, what, str(error), offset=0)) from None
        assert first is not None
        report = self.report
        report.seat, report.seats, report.table = seat, len(roster.keys), roster.table
        report.roster = [fingerprint(key) for key in roster.keys]
        signed_roster = signed_roster_of(first.fields, roster)
        report.take_signed_roster(signed_roster)
        self.replay = LogReplay(roster, report, signed_roster, self.follow)
        for record in records:
            if record.kind == "header":
                raise AuditStop(
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
                    raise AuditStop(
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
            raise AuditStop(
                AuditFault(envelope.seat, what, f"found {envelope} instead", index, offset)
            )
        self.next_seq[envelope.seat] = expected + 1

    def _own(self, envelope: Envelope, seat: int, offset: int) -> None:
        """This seat's `signed` and `applied` copies of one place must be the same envelope."""
        if envelope.seat != seat:
            return
        known = self.own.setdefault(envelope.seq, envelope.id)
        if known != envelope.id:
            raise AuditStop(
                AuditFault(
                    seat,
                    "equivocation",
                    f"two different envelopes signed by seat {seat} for sequence number "
                    f"{envelope.seq}: {known.hex()[:16]} and {envelope.id.hex()[:16]}",
                    None,
                    offset,
                )
            )


def _envelope(
    record: Record, roster: Roster, path: Path, index: int | None, check: bool = True
) -> Envelope:
    """The record's envelope, its signature checked (unless `check` is False: the first pass
    did), naming the seat that signed the original."""
    signed, signature = record.fields.get("d"), record.fields.get("s")
    if not isinstance(signed, bytes) or not isinstance(signature, bytes):
        raise AuditStop(
            AuditFault(None, "damaged record", "an envelope without bytes", index, record.offset)
        )
    try:
        envelope = decode_envelope(signed, signature, str(path))
    except (EnvelopeError, MalformedFrame) as exc:
        seat_hint = _seat_hint(signed)
        raise AuditStop(
            AuditFault(seat_hint, "envelope altered", str(exc), index, record.offset, False)
        ) from None
    if envelope.table != roster.table or envelope.seat >= len(roster.keys):
        raise AuditStop(
            AuditFault(
                envelope.seat, "envelope of another table", str(envelope), index, record.offset
            )
        )
    if check and not envelope.verify(roster.keys[envelope.seat]):
        raise AuditStop(
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


def signed_roster_of(header: dict[str, Any], roster: Roster) -> SignedRoster | None:
    """The lobby's signed roster from the header, every signature verified, of this table."""
    extra = header.get("extra")
    record = extra.get("signed_roster") if isinstance(extra, dict) else None
    if record is None:
        return None
    try:
        signed = parse_signed_roster_record(record, "the transcript's signed roster")
    except RosterError as error:
        raise AuditStop(AuditFault(error.seat, "bad roster signature", str(error))) from None
    except PeerError as error:
        raise AuditStop(AuditFault(None, "damaged signed roster", str(error))) from None
    if signed.roster.table_id != roster.table or signed.roster.keys != roster.keys:
        raise AuditStop(
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
