"""A seat's restart: what it signed before the crash, so that it never signs a place twice.

A peer started again replays its transcript through a table rebuilt from the same seed, and
the table owes again what it owed then. What the seat had already signed (the fair-deck
messages the replay regenerates) is dropped once per envelope signed; its choices (actions,
step envelopes: the table's `choice_kinds`) come from the player or bot, never from the replay.
The disk may have lost its last records, which the others hold: the seat signs nothing until
every other seat has sent back what it has (a new envelope for a place already used would be
equivocation), and then matches what it owes against all of its own envelopes the log holds.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from fairdeal.p2p.canonical import pack_canonical
from fairdeal.p2p.lobby.roster import SignedRoster
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import Roster, TableLog
from fairdeal.p2p.log.transcript import SecretStore, TranscriptError
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.runtime.randomness import check_new_table, seat_seed, table_secret_name

log = logging.getLogger("fairdeal.table")


class Recovery:
    """What one seat signed before a restart, and whom it still waits for to sign again."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.already_signed: Counter[bytes] = Counter()  # regenerated items still to drop
        self.signed_before: Counter[bytes] = Counter()  # all of them, as the transcript had
        self.waiting: set[int] = set()  # seats yet to send back our own envelopes

    @property
    def recovering(self) -> bool:
        """Whether this seat must sign nothing yet."""
        return bool(self.waiting)

    @property
    def over(self) -> bool:
        """Whether the restart is behind this seat: nobody left to hear back from and nothing
        regenerated left to drop (it never begins again: the pump may forget it)."""
        return not self.waiting and not any(self.already_signed.values())

    def begin(self, signed: Iterable[Envelope], choices: frozenset[str], others: set[int]) -> None:
        """The transcript's own envelopes (`signed`); `others`: the seats to hear back from."""
        self.already_signed = Counter(
            pack_canonical(e.body) for e in signed if e.kind not in choices
        )
        self.signed_before = Counter(self.already_signed)
        self.waiting = set(others)

    def signed_already(self, kind: str, body: Any, choices: frozenset[str]) -> bool:
        """Whether this owed item was signed before the restart (then it is dropped, once)."""
        if kind in choices:
            return False
        packed = pack_canonical(body)
        if not self.already_signed[packed]:
            return False
        self.already_signed[packed] -= 1
        return True

    def restore_own(self, table: TableDriver, log_: TableLog) -> None:
        """The envelopes this seat signed that its log holds but has not applied still count
        (a step envelope of a step under way: its commitment, opened in the next step)."""
        for envelope in log_.buffered:
            if envelope.seat == self.me:
                table.restore_signed(envelope)

    def answered(self, seat: int, table: TableDriver, log_: TableLog) -> bool:
        """A seat answered our `need` in full; True when that was the last one, and this seat
        may sign again: what the replay makes it owe is then matched against every envelope of
        its own the log holds, those taken back from the others included."""
        if not self.waiting:
            return False
        self.waiting.discard(seat)
        if self.waiting:
            return False
        own = [e for e in (*log_.entries, *log_.buffered) if e.seat == self.me]
        choices = table.choice_kinds
        regenerated = Counter(pack_canonical(e.body) for e in own if e.kind not in choices)
        published = self.signed_before - self.already_signed  # matched since the restart
        self.already_signed = regenerated - published
        self.restore_own(table, log_)
        log.info("seat %s took back its own envelopes from the others", self.me)
        return True


def roster_digest(roster: Roster, signed: SignedRoster | None) -> bytes:
    """The digest of the roster every seat signed (of the log's roster, with no lobby)."""
    if signed is not None:
        return signed.roster.digest
    return hashlib.sha256(
        b"fairdeal/log-roster/v1\x00" + roster.table + b"".join(roster.keys)
    ).digest()


def seat_seed_for(
    secrets: SecretStore,
    transcript: Path,
    roster: Roster,
    signed: SignedRoster | None,
    seat: int,
    new_contribution: Callable[[], bytes],
) -> bytes:
    """A seat's seed for the table (p2p/table/runtime/randomness.py): its own contribution, drawn
    for a new table (refused if the table id was played here before) or kept from before a crash,
    bound to the signed roster and the seat. TranscriptError when a transcript has no secrets."""
    name = table_secret_name(roster.table, "seed")
    if transcript.exists():
        contribution = secrets.get(name)
        if contribution is None:
            raise TranscriptError(
                f"{secrets.path} holds no secrets for the table of "
                f"{transcript}: this seat cannot be resumed"
            )
    else:
        check_new_table(secrets, roster.table)
        contribution = new_contribution()
        secrets.put(name, contribution)
    return seat_seed(contribution, roster_digest(roster, signed), seat)
