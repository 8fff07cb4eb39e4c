"""Who left the table (protocol.md 10.12), as one networked seat keeps track of it.

A seat that leaves for good signs a `left` message. Every seat that takes one keeps it beside
its transcript as evidence, shows it once, and passes it on to the seats that may lack it; a
relayed copy of one already taken is old. A seat that connects again took its seat back.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import PublicIdentity
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.table.core.api import SeatLeft, SeatReturned, TableEvent
from fairdeal.p2p.table.core.leaving import LeftMessage, parse_left
from fairdeal.p2p.table.runtime import left_file

log = logging.getLogger("fairdeal.table")


class Departures:
    """The seats that left one table, seen from seat `me`."""

    def __init__(
        self,
        me: int,
        roster: Roster,
        mesh: Mesh,
        transcript: Path,
        emit: Callable[[TableEvent], None],
        closed: Callable[[], bool],
    ) -> None:
        self.me = me
        self.roster = roster
        self.mesh = mesh
        self.transcript = transcript
        self._emit = emit
        self._closed = closed
        self.left: dict[int, str] = {}  # seats that left the table, with their reason
        # per seat, its latest `left`s taken (a relayed copy of one is old) and the heads of
        # those kept in the file: both bounded (left_file.MAX_KEPT_PER_SEAT)
        self._seen: dict[int, deque[bytes]] = {}
        self._kept: dict[int, set[bytes]] = {}

    def on_left(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        """A seat's signed `left` (from it, or relayed): keep it as evidence, show it once, pass
        it on to the seats that may not have it. A bad one is refused, naming who sent it."""
        try:
            left = parse_left(message, self.roster, f"{peer.name} ({peer.fingerprint})")
        except PeerError as error:
            log.warning("refused a left message: %s", error)
            return
        if left.seat == self.me or left.seat in self.left or self._closed():
            return
        if left.signed in self._seen.get(left.seat, ()):  # a relayed copy of an old one
            return
        self._note(left)
        self.left[left.seat] = left.reason
        self._emit(SeatLeft(left.seat, left.reason))
        self.send(left, exclude={peer.key, self.roster.keys[left.seat]})

    def send(self, left: LeftMessage, exclude: set[bytes] | frozenset[bytes] = frozenset()) -> int:
        """Send `left` to every connected seat but `exclude`; returns how many got it. A
        watcher gets `watching` and `env` alone (protocol.md 4.8): a seat that leaves closes
        its watchers' channels, and another seat's `left` is no entry of the log it watches."""
        watchers = {key for key in self.mesh.peers if self.roster.seat_of(key) is None}
        return self.mesh.broadcast(left.to_wire(), exclude={*exclude, *watchers})

    def connected(self, seat: int | None) -> None:
        """A seat (re)connected: one that left closed its connections, so it took its seat back."""
        if seat is not None and self.left.pop(seat, None) is not None:
            log.info("seat %s is back at the table", seat)
            self._emit(SeatReturned(seat))

    def restore(self) -> None:
        """After a restart: the seats that had left (kept beside the transcript) are still gone
        until they connect again; our own `left`, if any, is the one we are coming back from."""
        for message in left_file.read_left(self.transcript, self.roster):
            self._note(message, in_file=True)
            connected = self.roster.keys[message.seat] in self.mesh.peers  # it is back already
            if message.seat != self.me and not connected:
                self.left[message.seat] = message.reason
                self._emit(SeatLeft(message.seat, message.reason))
        left_file.clear_ended(self.transcript)

    def _note(self, left: LeftMessage, in_file: bool = False) -> None:
        """Remember `left` as taken, and keep it in the file (unless it is there: `in_file`)
        when the seat has no `left` kept at that head and has not used its share of the file."""
        seen = self._seen.setdefault(left.seat, deque(maxlen=left_file.MAX_KEPT_PER_SEAT))
        seen.append(left.signed)
        heads = self._kept.setdefault(left.seat, set())
        if in_file:
            heads.add(left.head)
            return
        if left.head in heads or len(heads) >= left_file.MAX_KEPT_PER_SEAT:
            log.info("seat %s left again; its %d kept `left`s suffice", left.seat, len(heads))
            return
        heads.add(left.head)
        left_file.append_left(self.transcript, left)
