"""A finished (or stopped) table, step by step, as the owner of its transcript saw it.

`load_replay(path, data)` audits the transcript and, in the same pass (`audit.Follow`: one replay
of the log, the audit's own), records a `Frame` each time the log applies something a player
sees: a new state, a card opened with its proof, a doubt, a fault. Each frame keeps the table
events of that moment (what the seat's session emitted then) and the seat's view.

Whose eyes: when `data` (the owner's data directory) holds the seat's secrets for the table, the
table is followed with the seat's own fair-deck session rebuilt from its seed (as a resumed seat
is, p2p.table.runtime.randomness), so the view holds that seat's own hand and nothing else the
protocol did not open to it. Without them it is followed by an observer: public cards only, the
owner's hand as backs. A file that does not audit gives no frames, only the audit's fault.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fairdeal.p2p.deck import DeckSession
from fairdeal.p2p.errors import P2PError
from fairdeal.p2p.identity import distinct_names
from fairdeal.p2p.lobby.messages import parse_signed_roster_record
from fairdeal.p2p.lobby.roster import SignedRoster
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.records import RecordError, RecordReader, open_records
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.log.transcript import SecretStore, TranscriptError, parse_header
from fairdeal.p2p.table.core.api import (
    CardsVerified,
    FaultDetected,
    StateChanged,
    TableEvent,
    Verification,
)
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.presenter import Mark, presenter_for
from fairdeal.p2p.table.runtime.randomness import SeededRandom, seat_seed, table_secret_name
from fairdeal.p2p.table.runtime.recovery import roster_digest
from fairdeal.p2p.table.tools.audit import AuditFault, AuditReport, Follow, audit_transcript

# A frame ends where the log applied something a player sees.
_SHOWN = (StateChanged, CardsVerified, Verification, FaultDetected)


@dataclass(frozen=True)
class Frame:
    """One point of the game: the events that led to it, the view the owner had then."""

    entry: int  # entries of the log applied up to here
    events: tuple[TableEvent, ...]
    view: Any  # the game's view (LarryView, LieView) for the owner's seat; None before a state
    authors: tuple[int, ...]  # seats whose envelopes this step applied
    round: int  # hands (Larry) or rounds (The Lie) begun so far
    trick: int  # tricks begun so far (The Lie), 0 for Larry


@dataclass
class Replay:
    path: Path
    report: AuditReport
    game: str = ""
    seat: int = 0  # the transcript's owner
    names: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    keys: tuple[bytes, ...] = ()  # the header's, seat by seat
    signed: SignedRoster | None = None  # the lobby's roster every seat signed (its game, terms)
    own_eyes: bool = False  # followed with the seat's own secrets (else: an observer's)
    live: bool = False  # a watcher's: the log still grows (p2p.table.tools.watch)
    frames: list[Frame] = field(default_factory=list)

    @property
    def fault(self) -> AuditFault | None:
        return self.report.fault

    def marks(self, fine: bool) -> list[int]:
        """Frame indices where a hand/round (and, `fine`, a trick) begins: PgUp/PgDn stops."""
        stops = [0]
        for index in range(1, len(self.frames)):
            before, now = self.frames[index - 1], self.frames[index]
            if now.round != before.round or (fine and now.trick != before.trick):
                stops.append(index)
        return stops


class CannotReplay(P2PError):
    """The file cannot be opened for a replay at all (not a transcript)."""


def data_directory(transcript: Path, given: Path | None) -> Path:
    """Where a transcript's owner keeps its secrets: `given`, else the data directory holding
    tables/TRANSCRIPT, else the transcript's own directory."""
    if given is not None:
        return given
    if transcript.parent.name == "tables":
        return transcript.parent.parent
    return transcript.parent


def load_replay(path: Path, data: Path | None = None) -> Replay:
    """Audit `path` and record its frames. A fault leaves `frames` empty and `fault` set."""
    header = _header(path)
    roster, seat, extra = header
    signed = _signed(extra)
    names, codes = seat_names_of(signed, len(roster.keys), seat)
    replay = Replay(
        path,
        AuditReport(str(path)),
        seat=seat,
        names=names,
        codes=codes,
        keys=roster.keys,
        signed=signed,
    )
    deck, forwards = _own_deck(data, roster, seat, signed)
    recorder = FrameRecorder(replay)
    if deck is not None:  # the audit's pass through the seat's own eyes
        replay.report = audit_transcript(path, Follow(deck, forwards, recorder.took))
        replay.own_eyes = replay.report.verified
        # a fault here is the file's, or the secrets do not fit this log: the observer says
    if not replay.own_eyes:  # the audit's own pass, as an observer: public cards only
        replay.frames.clear()
        recorder.reset()
        replay.report = audit_transcript(path, Follow(on_applied=recorder.took))
    if replay.report.verified:
        recorder.finish()
    else:
        replay.frames.clear()
    return replay


def _header(path: Path) -> tuple[Any, int, dict[str, Any]]:
    try:
        file, size = open_records(path)
    except (RecordError, OSError) as error:
        raise CannotReplay(f"{path}: cannot read: {error}") from None
    with file:
        try:
            first = next(iter(RecordReader(file, path, size)), None)
            return parse_header(first, path)
        except (RecordError, TranscriptError) as error:
            raise CannotReplay(str(error)) from None


def _signed(extra: dict[str, Any]) -> SignedRoster | None:
    record = extra.get("signed_roster")
    if record is None:
        return None
    try:
        return parse_signed_roster_record(record, "the transcript's signed roster")
    except P2PError:
        return None  # the audit names the fault


def seat_names_of(
    signed: SignedRoster | None, seats: int, seat: int
) -> tuple[tuple[str, ...], ...]:
    """Each seat's name (told apart where two are alike) and key code, from the signed roster;
    "seat N" and no code without one."""
    if signed is not None and len(signed.roster.seats) == seats:
        people = signed.roster.seats
        names = distinct_names([p.name for p in people], [p.key for p in people])
        return tuple(names), tuple(p.code for p in people)
    return tuple(f"seat {s}" for s in range(seats)), ("",) * seats


def _own_deck(
    data: Path | None,
    roster: Roster,
    seat: int,
    signed: SignedRoster | None,
) -> tuple[Callable[[bytes, int], DeckSession] | None, tuple[Any, ...]]:
    """The seat's deck-session maker from its seed in `data`'s secrets (None: not there)."""
    if data is None or not (data / "secrets").is_file():
        return None, ()
    try:
        store = SecretStore(data / "secrets")
    except (TranscriptError, OSError):
        return None, ()
    table = roster.table
    contribution = store.get(table_secret_name(table, "seed"))
    if not isinstance(contribution, bytes):
        return None, ()
    try:  # bound to the roster as the seat's own restart binds it (runtime/recovery.py)
        seed = seat_seed(contribution, roster_digest(roster, signed), seat)
    except ValueError:
        return None, ()

    def deck(table_id: bytes, seats: int) -> DeckSession:
        return DeckSession(table_id, seat, seats, random_bytes=SeededRandom(seed))

    forwards = store.get(table_secret_name(table, "forwards"), [])
    return deck, tuple(forwards if isinstance(forwards, list) else ())


class FrameRecorder:
    """Cuts the audit's applied envelopes into frames."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.reset()

    def reset(self) -> None:
        self.pending: list[TableEvent] = []
        self.authors: list[int] = []
        self.entry = 0
        self.round = 0
        self.trick = 0
        self.table: TableDriver | None = None

    def took(self, table: TableDriver, applied: list[Envelope]) -> None:
        self.table = table
        self.entry += len(applied)
        self.authors += [e.seat for e in applied]
        events = list(table.events)
        self.pending += events
        mark = presenter_for(table.game_name).mark  # the game says where a hand or trick begins
        for event in events:
            if isinstance(event, StateChanged):
                for engine_event in event.events:
                    begins = mark(engine_event)
                    if begins is Mark.ROUND:
                        self.round += 1
                        self.trick = 0
                    elif begins is Mark.TRICK:
                        self.trick += 1
        if any(_shown(event) for event in events):
            self._cut()

    def finish(self) -> None:
        if self.pending or not self.replay.frames:
            self._cut()
        table = self.table
        if table is not None:
            self.replay.game = table.game_name

    def _cut(self) -> None:
        table = self.table
        view = None if table is None or table.state is None else _view(table, self.replay.seat)
        self.replay.frames.append(
            Frame(
                self.entry,
                tuple(self.pending),
                view,
                tuple(dict.fromkeys(self.authors)),
                self.round,
                self.trick,
            )
        )
        self.pending, self.authors = [], []


def _shown(event: TableEvent) -> bool:
    """A player sees it: a state change with events (a bare one only records a share), a card
    opened, a doubt, a fault."""
    if isinstance(event, StateChanged):
        return bool(event.events)
    return isinstance(event, _SHOWN)


def _view(table: TableDriver, seat: int) -> Any:
    """The owner's view: its own (a seat's replay), else the public cards only."""
    if table.me < table.seats:
        return table.view()
    state = table.state
    known: dict[int, int] = {}
    for slot in state.all_slots():
        try:
            masked = table.masked_slot(slot)
        except KeyError:  # not dealt from the fair deck yet
            continue
        face = table.deck.known_card(masked)
        if face is not None:
            known[slot] = face
    return table.game.view_for(state, known, seat)
