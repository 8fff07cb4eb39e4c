"""Watchers, seat side (protocol.md 4.8): a seated peer serves its share of the table's watchers.

A peer that is not in the roster connects to a seated peer's mesh and sends `{"t": "watch"}`; the
seated peer answers with the table's header (`watching`: table id, the roster's keys, its own seat,
the lobby's signed roster) and then every envelope of its log in log order, as `env` messages (the
relay's wire form): the ones applied so far at once, each later one as its log applies it. That is
all a watcher ever gets: envelopes are public, and private messages (a give-away's forward,
protocol.md 10.8) go to one seat by key, never to a watcher. A watcher signs nothing; what else it
sends is ignored here (the log's own checks refuse an envelope it forged, and `need` is answered
for seats only). At most `MAX_WATCHERS` per table: each seated peer serves its share,
`seat_share(seats, seat)` (the 8 dealt out over the seats like cards, seat 0 first, so the shares
add up to exactly 8), and sends the next `watch-refused` with the reason and drops it. No seat has
to trust another's count, and a seat that serves more than its share gains nothing a watcher could
not get from any seat's transcript. A watcher that stops reading is dropped by its channel (its
send backlog), so none slows the table.

The watcher's side, which checks what it is sent, is a tool: p2p/table/tools/watch.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import PublicIdentity, fingerprint_code
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import TableLog
from fairdeal.p2p.net import kinds
from fairdeal.p2p.net.framing import field
from fairdeal.p2p.net.mesh import Mesh

log = logging.getLogger(__name__)

MAX_WATCHERS = 8  # per table, shared out among its seats (`seat_share`)
WATCH, WATCHING, REFUSED = kinds.WATCH, kinds.WATCHING, kinds.WATCH_REFUSED
SERVES = kinds.WATCHERS  # a seat tells the other seats whom it serves, for their players to see
MAX_NAME = 64  # of a watcher's name as a seat passes it on


def seat_share(seats: int, seat: int) -> int:
    """How many watchers seat `seat` of `seats` serves: the table's `MAX_WATCHERS` dealt out one
    at a time from seat 0, so that the shares add up to exactly `MAX_WATCHERS` (protocol.md 4.8)."""
    if seats < 1:
        raise ValueError(f"a table has at least one seat, not {seats}")
    if not 0 <= seat < seats:
        raise ValueError(f"no seat {seat} at a table of {seats}")
    return MAX_WATCHERS // seats + (1 if seat < MAX_WATCHERS % seats else 0)


class WatchService:
    """A seated peer's watchers: who they are, and the log sent to each in order."""

    def __init__(
        self,
        mesh: Mesh,
        table_log: TableLog,
        seat: int,
        header_extra: dict[str, Any],
        limit: int | None = None,
    ) -> None:
        """`limit`: the watchers this seat serves (its `seat_share` of the table's unless set)."""
        self.mesh = mesh
        self.log = table_log
        self.seat = seat
        self.extra = header_extra
        self.limit = seat_share(len(table_log.roster.keys), seat) if limit is None else limit
        self.watchers: dict[bytes, PublicIdentity] = {}
        self.elsewhere: dict[int, tuple[tuple[str, str], ...]] = {}  # the other seats' (`SERVES`)
        self.refused = 0
        self._changed: list[Callable[[], None]] = []
        mesh.on(WATCH, self._on_watch)
        mesh.on(SERVES, self._on_serves)
        mesh.on_peer_up(self._on_peer_up)
        mesh.on_peer_down(self._on_peer_down)
        self._following = False  # the log's applied envelopes: only while someone watches

    def on_change(self, callback: Callable[[], None]) -> None:
        """Called when a watcher comes or goes, here or at another seat (the seats panel)."""
        self._changed.append(callback)

    def everyone(self) -> tuple[tuple[str, str], ...]:
        """Name and key code of every watcher of the table: this seat's, then the others' in
        seat order, as each seat says (a seat could name watchers it has not; it gains nothing)."""
        own = tuple((w.name, w.code) for w in self.watchers.values())
        return own + tuple(w for seat in sorted(self.elsewhere) for w in self.elsewhere[seat])

    def _tell_seats(self, only: bytes | None = None) -> None:
        roster = self.log.roster
        message = {
            "t": SERVES,
            "table": roster.table,
            "watchers": [[w.key, w.name[:MAX_NAME]] for w in self.watchers.values()],
        }
        for key in roster.keys if only is None else (only,):
            if key != roster.keys[self.seat]:
                self.mesh.send(key, message)

    def _on_peer_up(self, peer: PublicIdentity) -> None:
        if self.watchers and self.log.roster.seat_of(peer.key) is not None:
            self._tell_seats(peer.key)  # a seat that (re)connects hears whom this one serves

    def _on_serves(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        roster = self.log.roster
        seat = roster.seat_of(peer.key)
        if seat is None or seat == self.seat:
            return  # only a seat says whom it serves; a watcher's word is ignored
        culprit = str(peer)
        listed = field(message, "watchers", list, culprit)
        if field(message, "table", bytes, culprit) != roster.table:
            raise PeerError(culprit, f'"{SERVES}": another table')
        if len(listed) > seat_share(len(roster.keys), seat) or not all(
            isinstance(w, list)
            and len(w) == 2
            and isinstance(w[0], bytes)
            and len(w[0]) == 32
            and isinstance(w[1], str)
            and len(w[1]) <= MAX_NAME
            for w in listed
        ):
            raise PeerError(
                culprit,
                f'"{SERVES}": at most a seat\'s share of [32-byte key, name of at most '
                f"{MAX_NAME} characters] pairs",
            )
        self.elsewhere[seat] = tuple((name, fingerprint_code(key)) for key, name in listed)
        if not self.elsewhere[seat]:
            del self.elsewhere[seat]
        self._notify(tell=False)

    def _on_watch(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        roster = self.log.roster
        if roster.seat_of(peer.key) is not None or peer.key in self.watchers:
            return  # a seat has the log already; a second request changes nothing
        if len(self.watchers) >= self.limit:
            self.refused += 1
            seats = len(roster.keys)
            reason = (
                f"this seat already serves {self.limit} watchers, its share of the table's "
                f"{MAX_WATCHERS} across {seats} seats; another seat may have room, or try later"
            )
            self.mesh.send(peer.key, {"t": REFUSED, "reason": reason})
            channel = self.mesh.channel(peer.key)
            if channel is not None:
                with contextlib.suppress(RuntimeError):
                    asyncio.get_running_loop().create_task(channel.close("watchers full"))
            return
        self.watchers[peer.key] = peer
        header = {
            "t": WATCHING,
            "table": roster.table,
            "roster": list(roster.keys),
            "seat": self.seat,
            "extra": self.extra,
        }
        self.mesh.send(peer.key, header)
        for envelope in self.log.entries:
            self.mesh.send(peer.key, envelope.to_wire())
        self._notify()

    def _applied(self, envelope: Envelope) -> None:
        if not self.watchers:
            return
        wire = envelope.to_wire()
        for key in list(self.watchers):
            if not self.mesh.send(key, wire):  # gone (or dropped for not reading)
                self.watchers.pop(key, None)
                self._notify()

    def _on_peer_down(self, peer: PublicIdentity) -> None:
        if self.watchers.pop(peer.key, None) is not None:
            self._notify()
        seat = self.log.roster.seat_of(peer.key)
        if seat is not None and self.elsewhere.pop(seat, None) is not None:
            self._notify(tell=False)  # told again when it is back

    def _notify(self, tell: bool = True) -> None:
        """`tell`: this seat's own watchers changed, which the other seats hear of."""
        if self._following != bool(self.watchers):  # the first came or the last went
            self._following = bool(self.watchers)
            follow = self.log.on_applied if self._following else self.log.off_applied
            follow(self._applied)
        if tell:
            self._tell_seats()
        for callback in self._changed:
            callback()
