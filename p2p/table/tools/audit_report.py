"""What an audit found: the first fault (`AuditFault`, whose wording protocol.md 10.7 gives)
and the report of a transcript (`AuditReport`: its seats, entries, result and figures)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fairdeal.p2p.lobby.roster import SignedRoster
from fairdeal.p2p.log.records import RecordError
from fairdeal.p2p.table.runtime.left_file import Departure

# What a file is called that never was a transcript: no header record at its start (4.7).
NOT_A_TRANSCRIPT = "not a fairdeal transcript"


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
        only the file is (protocol.md 10.7); a file that is no transcript is said to be none."""
        if self.what == NOT_A_TRANSCRIPT and self.seat is None:
            return NOT_A_TRANSCRIPT
        return "FAULT" if self.blames else "DOES NOT VERIFY"

    def __str__(self) -> str:
        if self.what == NOT_A_TRANSCRIPT and self.seat is None:
            return self.evidence
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
    # From the signed roster (empty without one): seat -> the name its player chose, and the key
    # code that players compare aloud (p2p/identity.py, fingerprint_code).
    names: list[str] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    started: bool = False  # seat 0's join is in the log: the game's terms are known
    ignored_bytes: int = 0  # a torn last record (a crash's tail) left out of the audit
    withheld: str | None = None  # the table was ended over a withheld coin reveal (10.6)
    table: bytes = b""  # the table id of the header's roster
    departures: list[Departure] = field(default_factory=list)  # signed `left` messages kept
    ids: list[bytes] = field(default_factory=list, repr=False)

    def take_signed_roster(self, signed: SignedRoster | None) -> None:
        """The lobby's signed roster, verified (None: the table did not start in a lobby)."""
        self.signed_roster = signed is not None
        if signed is not None:
            self.names = [seat.name for seat in signed.roster.seats]
            self.codes = [seat.code for seat in signed.roster.seats]

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
        winners = ", ".join(self.player(w) for w in self.winners)
        scores = ", ".join(f"{self.name(s)} {v:+d}" for s, v in enumerate(self.scores))
        tally = (
            ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in self.counters.items())
            if self.counters
            else f"{self.doubts} doubt(s)"
        )
        return (
            f"{self.hands} {self.round_name}(s); winner(s): {winners}; scores {scores}; "
            f"{tally}; {self._players_text()}"
        )

    def name(self, seat: int) -> str:
        """A seat by its player's name ("Ada"), or "seat 1" with no signed roster."""
        return self.names[seat] if seat < len(self.names) else f"seat {seat}"

    def player(self, seat: int) -> str:
        """A seat as its players know it: "Ada (seat 1)", or "seat 1" with no signed roster."""
        return f"{self.names[seat]} (seat {seat})" if seat < len(self.names) else f"seat {seat}"

    def _players_text(self) -> str:
        """Who sat where, each with the key code its player compares aloud; without a signed
        roster only the header's keys are known (as hex fingerprints)."""
        if len(self.codes) == len(self.roster) and self.signed_roster:
            seats = ", ".join(
                f"seat {seat} {self.name(seat)} (key code {code})"
                for seat, code in enumerate(self.codes)
            )
            return f"players: {seats}"
        keys = ", ".join(f"{seat}={key}" for seat, key in enumerate(self.roster))
        return f"roster {keys} (no signed roster: not started in a lobby)"

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
            "names": list(self.names),
            "codes": list(self.codes),
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
    """A file whose very first record is broken was never a transcript: no transcript starts
    otherwise than with its header record (protocol.md 4.7). Damage later is damage."""
    if error.offset == 0:
        return AuditFault(None, NOT_A_TRANSCRIPT, f"its first record {error.detail}", None, 0)
    return AuditFault(None, "damaged file", f"the record {error.detail}", None, error.offset)
