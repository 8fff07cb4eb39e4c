"""Whether a networked seat still plays, and the future whoever waits on it awaits.

A seat closes when it leaves or closes its table, or when the disk refuses a write: then it
stops where its files end (nothing after a failed write is sent or kept) and says how to take the
seat back. When its game is over its transcript is marked done (rerunning the command starts a
new table) and the waiters go on.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from fairdeal.p2p.log.transcript import TranscriptWriteError, mark_done
from fairdeal.p2p.table.core.api import EventHistory, Notice

log = logging.getLogger("fairdeal.table")


class SeatLife:
    """One seat's closed flag, disk failure and `done` future; what it says goes to `history`."""

    def __init__(self, history: EventHistory, done: asyncio.Future[None]) -> None:
        self.history = history
        self.done = done  # set when the game is over, or to the disk's error
        self.closed = False  # publish nothing more, let no bot move
        self.disk_failure: TranscriptWriteError | None = None  # the disk refused a write

    def fail(self, error: TranscriptWriteError) -> None:
        """The disk refused a write: stop here and say so (once)."""
        if self.disk_failure is not None:
            return
        self.disk_failure = error
        log.error("%s", error)
        self.history.append(Notice(f"✗ {error}"))
        self.closed = True
        if not self.done.done():
            self.done.set_exception(error)
            self.done.exception()  # retrieved here: finished() raises it to whoever waits

    def finish(self, transcript: Path) -> None:
        """The game is over here: mark `transcript` done and let whoever waits go on."""
        if not self.done.done():
            mark_done(transcript)
            self.done.set_result(None)
