"""Offline audit of a transcript of any game: is this exactly a game played by the rules?

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
`Follow` lets `fairdeal replay` (p2p.table.tools.replay) ride on it, with a call after each batch of
applied envelopes and, to show the owner's own hand, the seat's fair deck rebuilt from its seed;
`LiveAudit` feeds it a log that grows, one envelope at a time (a watcher, p2p.table.tools.watch).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fairdeal.p2p.identity import fingerprint
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.tools.audit_file import FileAudit, signed_roster_of
from fairdeal.p2p.table.tools.audit_replay import Follow, LogReplay
from fairdeal.p2p.table.tools.audit_report import AuditFault, AuditReport, AuditStop

__all__ = [
    "AuditFault",
    "AuditReport",
    "Follow",
    "LiveAudit",
    "audit_many",
    "audit_transcript",
    "digest",
]


def audit_transcript(path: Path, follow: Follow | None = None) -> AuditReport:
    """Audit one transcript; the file is only read (protocol.md 10.7). `follow`: a replay's
    hooks (the audit is the same pass)."""
    report = AuditReport(str(path))
    try:
        FileAudit(path, report, follow or Follow()).run()
    except AuditStop as stop:
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
        self.replay: LogReplay | None = None
        try:
            signed = signed_roster_of({"extra": extra}, roster)
        except AuditStop as stop:
            report.fault = stop.fault
            return
        report.take_signed_roster(signed)
        self.replay = LogReplay(roster, report, signed, Follow(on_applied=on_applied))

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
                raise AuditStop(
                    AuditFault(envelope.seat, "envelope of another table", str(envelope))
                )
            if not envelope.verify(keys[envelope.seat]):
                raise AuditStop(
                    AuditFault(
                        envelope.seat,
                        "bad signature: the envelope was altered",
                        f"{envelope} is not signed by seat {envelope.seat}'s key",
                        index,
                    )
                )
            expected = self.next_seq.get(envelope.seat, 0)
            if envelope.seq != expected:
                raise AuditStop(
                    AuditFault(
                        envelope.seat,
                        f"seat {envelope.seat}'s envelope #{expected} is not the next one",
                        f"found {envelope} instead",
                        index,
                    )
                )
            self.next_seq[envelope.seat] = expected + 1
            replay.feed(envelope, index, 0)
        except AuditStop as stop:
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


def digest(report: AuditReport) -> str:
    """A short digest of the log a report verified (equal for transcripts that agree)."""
    return hashlib.sha256(b"".join(report.ids)).hexdigest()[:16]
