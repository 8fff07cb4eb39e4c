"""N sessions in one process, wired like the table: a reference driver for tests and benchmarks.

Public messages are appended to one log and delivered to every seat (the author included) in log
order; private ones (`to` present) go to the addressee only. A `DeckFault` raised by a seat's
`handle` propagates to the caller with the culprit named.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from .events import DeckEvent
from .session import DeckSession, Output

Tamper = Callable[[int, dict[str, Any]], dict[str, Any]]


class LoopbackTable:
    def __init__(self, sessions: list[DeckSession], tamper: Tamper | None = None):
        self.sessions = sessions
        self.events: list[list[DeckEvent]] = [[] for _ in sessions]
        self.log: list[tuple[int, dict[str, Any]]] = []
        self.tamper = tamper
        self._queue: deque[tuple[int, dict[str, Any]]] = deque()

    def command(self, call: Callable[[DeckSession], Output]) -> None:
        """Run the same command on every seat, then deliver messages until quiet."""
        for session in self.sessions:
            seat = session.seat
            assert seat is not None, "a loopback table seats every session"
            self._take(seat, call(session))
        self.run()

    def post(self, seat: int, outputs: Iterable[Output]) -> None:
        for output in outputs:
            self._take(seat, output)

    def run(self) -> None:
        while self._queue:
            sender, message = self._queue.popleft()
            if self.tamper is not None:
                message = self.tamper(sender, message)
            if "to" in message:
                targets = [self.sessions[message["to"]]]
            else:
                self.log.append((sender, message))
                targets = self.sessions
            for session in targets:
                self._take(session.seat, session.handle(sender, message))

    def _take(self, seat: int, output: Output) -> None:
        self.events[seat] += output.events
        self._queue.extend((seat, m) for m in output.messages)
