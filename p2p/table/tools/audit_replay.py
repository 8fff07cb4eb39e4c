"""The audit's replay of a table's log (step 3 of p2p/table/tools/audit.py): seat 0's roster and
join checked against the signed terms, then every applied envelope through the table log, the
game's table driver and an observer's (or the owner's) fair-deck session, each where it stands."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fairdeal.engine.codec import DecodeError
from fairdeal.engine.games import get_game
from fairdeal.p2p.deck import DeckSession
from fairdeal.p2p.lobby.roster import ROSTER_KIND, RosterError, SignedRoster
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import EnvelopeLimits, Roster, TableLog
from fairdeal.p2p.table.core.api import Verification
from fairdeal.p2p.table.core.driver import TableDriver, roster_difference
from fairdeal.p2p.table.core.games import table_class
from fairdeal.p2p.table.core.presenter import presenter_for
from fairdeal.p2p.table.core.sizes import UNSIZED
from fairdeal.p2p.table.tools.audit_report import AuditFault, AuditReport, AuditStop


@dataclass(frozen=True)
class Follow:
    """How a replay (p2p.table.tools.replay) rides on the audit's own pass: the fair-deck session
    the table is followed with (None: an observer's; a seat's, rebuilt from its seed, also opens
    that seat's own cards) and a call after each batch of envelopes the log applied, before the
    table's events are consumed."""

    deck: Callable[[bytes, int], DeckSession] | None = None
    forwards: tuple[Any, ...] = ()  # give-aways the seat received and kept (its secrets file)
    on_applied: Callable[[TableDriver, list[Envelope]], None] | None = None


class LogReplay:
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
        self.limits: EnvelopeLimits = UNSIZED  # the table's, once the game is known

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
            raise AuditStop(
                AuditFault(
                    join.seat, "the log does not open with seat 0's join", str(join), index, offset
                )
            )
        assert isinstance(body, dict)
        game = get_game(driver.game_name)
        try:
            options = game.from_data(body.get("options"), game.options_type)
        except DecodeError as exc:
            raise AuditStop(
                AuditFault(0, "unreadable game terms", str(exc), index, offset)
            ) from None
        # A join holds exactly game, seats and options (protocol.md section 8): seat 0's join is
        # the terms every other join must equal, so nothing unread may ride along in it.
        seats = len(self.roster.keys)
        unknown = sorted(map(str, body.keys() - {"game", "seats", "options"}))
        if unknown or body.get("seats") != seats or isinstance(body.get("seats"), bool):
            said = f"unknown key(s) {', '.join(unknown)}" if unknown else ""
            said = said or f"seats is {body.get('seats')!r} at a table of {seats}"
            raise AuditStop(AuditFault(0, "joined with other game terms", said, index, offset))
        try:
            driver.check_terms(options)  # every term is signed or the rulebook's (10.2)
        except ValueError as exc:
            raise AuditStop(
                AuditFault(0, "joined with other game terms", str(exc), index, offset)
            ) from None
        lobby_options = driver.lobby_options
        # the game's own rule for the join's terms (Larry, protocol.md 10.1: the coin picks the
        # first seat, so every join says seat 0)
        wrong = presenter_for(driver.game_name).join_terms_fault(options)
        if wrong is not None:
            raise AuditStop(AuditFault(0, "joined with other game terms", wrong, index, offset))
        signed = self.signed
        if signed is not None and lobby_options(options) != signed.roster.options_dict:
            raise AuditStop(
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
            raise AuditStop(
                AuditFault(0, "impossible game terms", str(exc), index, offset)
            ) from None
        # The table's own terms, every field written (protocol.md 7.1): seat 0's join is checked
        # against them as at a playing peer, so a join that leaves out a default field is seat
        # 0's fault here too, not the first honest join's after it.
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
        self.limits = table.envelope_limits()
        self.report.started = True

    def _apply(self, envelope: Envelope, index: int, offset: int) -> None:
        table, log = self.table, self.log
        assert table is not None and log is not None
        expected = table.expected()
        size, cap = len(envelope.signed), self.limits.cap(envelope)
        if size > cap:  # a peer refuses it (protocol.md 4.4 step 4): it never enters a log
            raise AuditStop(
                AuditFault(
                    envelope.seat,
                    "envelope too large",
                    f"{envelope} is {size} bytes, more than its kind can carry ({cap})",
                    index,
                    offset,
                )
            )
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
            raise AuditStop(
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
            raise AuditStop(AuditFault(fault.seat, fault.kind, fault.detail, index, offset))

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
            raise AuditStop(AuditFault(fault.seat, fault.what, fault.evidence, index, offset))
        if self.follow.on_applied is not None:
            self.follow.on_applied(table, applied)
        tally(table, report)
        table.outbox.clear()  # an observer publishes nothing

    def finish(self) -> None:
        report = self.report
        if self.table is None:
            report.entries = len(self.waiting)
            return
        if self.unapplied:
            stands, index, offset = self.unapplied[0]
            raise AuditStop(
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
            presenter = presenter_for(self.table.game_name)
            report.hands = presenter.rounds(state)
            report.round_name = presenter.round_name
            report.counters = self.table.counters()


def _check_roster_envelope(first: Envelope, signed: SignedRoster, offset: int) -> None:
    """The log opens with seat 0's record of exactly the signed roster (protocol.md 5.5)."""
    if first.seat != 0 or first.kind != ROSTER_KIND:
        raise AuditStop(
            AuditFault(
                first.seat, "the log does not open with seat 0's roster", str(first), 0, offset
            )
        )
    try:
        signed.check_body(first.body, "seat 0")
    except RosterError as error:
        evidence = f"{first}: {roster_difference(signed, first.body)}"
        raise AuditStop(AuditFault(0, error.detail, evidence, 0, offset)) from None


def tally(table: TableDriver, report: AuditReport) -> None:
    events, table.events = table.events, []
    report.doubts += sum(1 for e in events if isinstance(e, Verification))
