"""What a networked seat tells its player: the table's events as they come, and what they leave.

Each event the table produced goes to the seat's history (what a screen, a bot runner or the
headless log reads) once the timings have noted it, where the seat is timed
(p2p/table/runtime/timings.py). A game's
verification (such as a doubt's) is logged in full, in the game's words; a fault the table found in
an applied envelope is logged and kept in the `.faults` file with that envelope, so that a
transcript cut before it cannot audit as a clean game (protocol.md 10.4).
"""

from __future__ import annotations

import logging
import time

from fairdeal.p2p.log.tablelog import TableLog
from fairdeal.p2p.table.core.api import EventHistory, FaultDetected, TableEvent, Verification
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.runtime.evidence import EvidenceFile
from fairdeal.p2p.table.runtime.timings import TimingWatch

log = logging.getLogger("fairdeal.table")


class Reporter:
    """One seat's reporting of its table's events to `history`."""

    def __init__(
        self, history: EventHistory, timing: TimingWatch | None, evidence: EvidenceFile
    ) -> None:
        self.history = history
        self.timing = timing
        self.evidence = evidence

    def emit(self, event: TableEvent) -> None:
        self.history.append(event)

    def drain(self, table: TableDriver, table_log: TableLog | None) -> None:
        """Report the events `table` has produced since the last drain. `table_log`: the log
        they were applied from (None while a restart replays the transcript, whose faults were
        kept before the crash)."""
        events, table.events = table.events, []
        timing = self.timing  # None: nobody reads this seat's timings
        now = time.monotonic()
        simultaneous = timing is not None and table.simultaneous()
        for event in events:
            if timing is not None:
                timing.observe(event, simultaneous, now)
            if isinstance(event, Verification):  # a game's proof at the table, in its own words
                log.info("%s", event.log_text())
            elif isinstance(event, FaultDetected):
                log.warning(
                    "seat %s broke the protocol: %s (%s)", event.seat, event.what, event.evidence
                )
                self._keep_table_fault(event, table_log)
            self.emit(event)

    def _keep_table_fault(self, fault: FaultDetected, table_log: TableLog | None) -> None:
        """Keep the envelope a table fault was found in (the log's last) in the `.faults` file."""
        if self.evidence.kept or table_log is None or not table_log.entries:
            return
        self.evidence.keep(
            fault.seat, "table", f"{fault.what} ({fault.evidence})", [table_log.entries[-1]]
        )
