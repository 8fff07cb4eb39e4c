"""What an audit found: the first fault (`AuditFault`, whose wording protocol.md 10.7 gives)
and the report of a transcript (`AuditReport`: its seats, entries, result and figures)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fairdeal.p2p.log.records import RecordError
from fairdeal.p2p.table.left_file import Departure


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


class AuditStop(Exception):
    def __init__(self, fault: AuditFault) -> None:
        super().__init__(str(fault))
        self.fault = fault


def file_fault(error: RecordError) -> AuditFault:
    return AuditFault(None, "damaged file", error.detail, None, error.offset)
