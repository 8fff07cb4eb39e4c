"""The silence watch of a networked seat: who holds the table up, for how long, owing what.

A seat silent past the limit is shown as holding up the game (`SeatStatus`), and the table
waits (protocol.md 10.6). A seat's silence counts from the later of the last envelope applied
and the moment the table began to wait for it (in a phase in steps a quiet table waits for
nobody until someone acts). When the one seat held up for withholds its reveal of a joint coin,
`withheld` says so (p2p/table/core/withheld.py): the others may then end the table.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from fairdeal.p2p.log.tablelog import TableLog
from fairdeal.p2p.table.core.api import SeatStatus, TableEvent
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.owing import owed_off_the_log
from fairdeal.p2p.table.core.withheld import WithheldReveal, withheld_reveal


def held_up_by(table: TableDriver, log: TableLog, me: int) -> dict[int, tuple[str, ...]]:
    """The other seats the table waits for, with what each owes (`TableDriver.owes`: the seat
    whose turn it is, every seat that owes shares, a give-away's giver; in a phase in steps what
    each owes to the step under way). A seat whose next envelope is already here is not silent:
    the log holds it for others. Only that one counts (protocol.md 10.6): an envelope for a
    later place, which any seat may sign and the relay carries everywhere, hides no staller;
    nor does any envelope hide a giver that owes its private forward."""
    if table.expected_seat() is None:
        return {}
    private = owed_off_the_log(table)
    return {
        seat: what
        for seat, what in table.owes().items()
        if seat != me and (seat in private or not log.holds(seat, log.next_seq(seat)))
    }


class SilenceWatch:
    """Watches one seat's table for silent seats and reports them through `emit`."""

    def __init__(
        self,
        me: int,
        limit: float,
        table: Callable[[], tuple[TableDriver, TableLog] | None],
        connected: Callable[[int], bool],
        emit: Callable[[TableEvent], None],
    ) -> None:
        """`table`: the seat's table and log once both exist (None before, or when stopped);
        `connected`: whether a seat has a channel to this one now."""
        self.me = me
        self.limit = limit
        self._table = table
        self._connected = connected
        self._emit = emit
        self.waiting_since = time.monotonic()
        self.reported: set[int] = set()  # seats last reported as holding up the game
        self.withheld: WithheldReveal | None = None  # a coin reveal held up past the limit
        self._held_since: dict[int, float] = {}

    def applied(self, now: float) -> None:
        """An envelope was applied: whoever the table waits for now, it waits from `now`."""
        self.waiting_since = now

    def check(self, now: float) -> None:
        """Compare every seat the table waits for against the limit; report the changes."""
        found = self._table()
        if found is None:
            return
        table, log = found
        if table.over:
            return
        held = held_up_by(table, log, self.me)
        self._held_since = {seat: self._held_since.get(seat, now) for seat in held}
        waited = {
            seat: now - max(self.waiting_since, since) for seat, since in self._held_since.items()
        }
        seats = {seat for seat, wait in waited.items() if wait >= self.limit}
        for seat in sorted(self.reported - seats):
            self._emit(SeatStatus(seat, True, None))
        self.reported = seats
        if not seats:
            self.withheld = None
            return
        self.withheld = withheld_reveal(table, log, max(waited[seat] for seat in seats))
        for seat in sorted(seats):
            withheld = self.withheld
            what = withheld.what if withheld is not None and withheld.seat == seat else None
            self._emit(SeatStatus(seat, self._connected(seat), waited[seat], what, held[seat]))

    async def run(self) -> None:
        """Check a few times per limit (at least every second), until cancelled."""
        interval = max(0.05, min(1.0, self.limit / 4))
        while True:
            await asyncio.sleep(interval)
            self.check(time.monotonic())
