"""The faults a peer recorded beside its transcript (p2p.table.runtime.evidence.evidence_path),
re-checked against the replayed log, and the table ended over a withheld coin
reveal (protocol.md 10.6)."""

from __future__ import annotations

from pathlib import Path

from fairdeal.p2p.errors import EnvelopeError, MalformedFrame
from fairdeal.p2p.log.envelope import Envelope, decode_envelope
from fairdeal.p2p.log.records import Record, RecordError, RecordReader, open_records
from fairdeal.p2p.table.core.withheld import WITHHELD_KIND, withheld_reveal
from fairdeal.p2p.table.runtime.evidence import evidence_path
from fairdeal.p2p.table.tools.audit_replay import LogReplay
from fairdeal.p2p.table.tools.audit_report import AuditFault, AuditStop, file_fault


def withheld(replay: LogReplay, path: Path) -> str | None:
    """A table ended over a withheld coin reveal (protocol.md 10.6): the log stops where that
    seat's reveal is due, and the `.faults` record holds its signed commitment from the log."""
    table, log = replay.table, replay.log
    if table is None or log is None:
        return None
    stuck = withheld_reveal(table, log, 0.0)
    sidecar = evidence_path(path)
    if stuck is None or not sidecar.exists():
        return None
    file, size = open_records(sidecar)  # already read whole by check_evidence: no surprise
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


def check_evidence(replay: LogReplay, path: Path) -> None:
    """Faults a peer recorded beside its transcript (p2p/table/runtime/evidence.py): re-check
    their signed evidence against the replayed log. Two envelopes for one place prove
    equivocation on their own; one envelope must give its fault when it comes up after the
    log's last entry (a chain fault never enters the log; a table fault's envelope is the
    log's last). A recorded fault the transcript cannot give back means the transcript was cut
    or damaged: the file fails."""
    sidecar = evidence_path(path)
    if not sidecar.exists():
        return
    try:
        file, size = open_records(sidecar)
    except RecordError as error:
        raise AuditStop(file_fault(error)) from None
    except OSError as exc:
        raise AuditStop(AuditFault(None, f"cannot read {sidecar.name}", str(exc))) from None
    with file:
        try:
            for record in RecordReader(file, sidecar, size, keyed=False):
                _check_fault_record(replay, record, sidecar)
        except RecordError as error:
            raise AuditStop(file_fault(error)) from None


def _check_fault_record(replay: LogReplay, record: Record, sidecar: Path) -> None:
    if record.fields.get("kind") == WITHHELD_KIND:
        return  # its commitment is in the log by design: `withheld` reads it (10.6)
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
        raise AuditStop(
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
        raise AuditStop(cut)  # its envelope is in the log and gave no fault there
    log.receive(evidence, sidecar.name)
    if log.faults:
        fault = log.faults[0]
        raise AuditStop(AuditFault(fault.seat, fault.kind, f"{fault.detail} (from {sidecar.name})"))
    if table.fault is not None:
        found = table.fault
        raise AuditStop(
            AuditFault(found.seat, found.what, f"{found.evidence} (from {sidecar.name})")
        )
    raise AuditStop(cut)
