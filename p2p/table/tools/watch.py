"""Watchers: a peer with no seat follows a table live, checking every signature and proof itself.

Seat side, `WatchService` (protocol.md 4.8): a peer that is not in the roster connects to a
seated peer's mesh and sends `{"t": "watch"}`; the seated peer answers with the table's header
(`watching`: table id, the roster's keys, its own seat, the lobby's signed roster) and then every
envelope of its log in log order, as `env` messages (the relay's wire form): the ones applied so
far at once, each later one as its log applies it. That is all a watcher ever gets: envelopes
are public, and private messages (a give-away's forward, protocol.md 10.8) go to one seat by key,
never to a watcher. A watcher signs nothing; what else it sends is ignored here (the log's own
checks refuse an envelope it forged, and `need` is answered for seats only). At most
`MAX_WATCHERS` per table: each seated peer serves its share, `seat_share(seats, seat)` (the 8
dealt out over the seats like cards, seat 0 first, so the shares add up to exactly 8), and sends
the next `watch-refused` with the reason and drops it. No
seat has to trust another's count, and a seat that serves more than its share gains nothing a
watcher could not get from any seat's transcript. A watcher that stops reading is dropped by its
channel (its send backlog), so none slows the table.

Watcher side, `WatchClient`: feeds what arrives, in order, to the audit's own replay
(`audit.LiveAudit` over `audit_replay.LogReplay`), so it checks exactly what `fairdeal audit`
checks and its frames are those of `fairdeal replay` (p2p.table.tools.replay): the watcher's screen
is the replay's, following the end. The checking is done one envelope at a time in a task that lets
the event loop run between them: a channel's reader hands over every frame it has buffered without
yielding, so a watcher catching up (the log so far, a shuffle proof per seat) would otherwise
hold its loop for seconds, and its other channels' handshakes and keepalives would time out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from fairdeal.p2p.errors import P2PError, PeerError
from fairdeal.p2p.identity import Identity, PublicIdentity, fingerprint_code
from fairdeal.p2p.lobby.messages import parse_signed_roster_record
from fairdeal.p2p.log.envelope import Envelope, parse_envelope
from fairdeal.p2p.log.tablelog import Roster, TableLog
from fairdeal.p2p.net import kinds
from fairdeal.p2p.net.framing import field
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.net.unreachable import unreachable_reason
from fairdeal.p2p.table.tools.audit import AuditReport, LiveAudit
from fairdeal.p2p.table.tools.replay import Replay, _names, _Recorder

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


class WatchRefused(P2PError):
    """The seated peer refused this watcher (its reason), or the table is not a table."""


def why_not(error: BaseException, host: str, port: int) -> str:
    """One line for a watch that could not start: the seat's refusal, or why nobody answered
    (what to check, when nothing did: p2p/net/unreachable.py)."""
    if isinstance(error, WatchRefused):
        return f"{host}:{port}: {error}"
    return unreachable_reason(error, host, port)


class WatchClient:
    """Follows one table through one seated peer; `replay` grows as the log does."""

    def __init__(self, identity: Identity) -> None:
        self.identity = identity
        self.mesh = Mesh(identity)
        self.replay: Replay | None = None
        self.live: LiveAudit | None = None
        self.refused: str | None = None
        self.seat_key: bytes | None = None
        self.index = 0
        self._recorder: _Recorder | None = None
        self._update: list[Callable[[], None]] = []
        self._ready = asyncio.Event()
        self._changed = asyncio.Event()
        self._arrived: deque[Envelope] = deque()  # parsed, not yet checked
        self._checking: asyncio.Task[None] | None = None
        # Going on through another seat when the watched one goes away (protocol.md 4.8).
        self.roster: Roster | None = None
        self.addresses: list[tuple[str, int] | None] = []  # where each seat listens (header)
        self._header_from: bytes | None = None  # the seat whose `watching` header was taken
        self._served = 0  # envelopes the current seat has sent since its header
        self._signatures: list[bytes] = []  # of every envelope taken, in log order
        self.stopped: str | None = None  # the seats' logs differ: watching stops
        self.unfinished = False  # the watched seat went away and no other seat could be reached
        self._notices: list[Callable[[str], None]] = []
        self.mesh.on(WATCHING, self._on_watching)
        self.mesh.on(REFUSED, self._on_refused)
        self.mesh.on(kinds.ENV, self._on_env)
        self.mesh.on_peer_down(lambda _peer: self._wake())

    def on_update(self, callback: Callable[[], None]) -> None:
        """Called after each envelope taken in (a new frame may be there)."""
        self._update.append(callback)

    def on_notice(self, callback: Callable[[str], None]) -> None:
        """Called with a sentence when the watched seat goes away and watching goes on (or
        cannot) through another seat."""
        self._notices.append(callback)

    async def connect(self, host: str, port: int, timeout: float = 10.0) -> Replay:
        """Connect, ask to watch, wait for the header; raises WatchRefused with the reason."""
        await self.mesh.start("127.0.0.1", 0)
        await self._ask(host, port, None, timeout)
        assert self.replay is not None
        return self.replay

    async def _ask(self, host: str, port: int, key: bytes | None, timeout: float) -> None:
        """Dial the seat at host:port (pinned to `key` when known) and ask to watch until its
        header is taken; WatchRefused (its reason) or OSError/TimeoutError otherwise."""
        peer = await self.mesh.connect(host, port, expected_peer=key)
        self.seat_key, self.refused = peer.key, None
        async with asyncio.timeout(timeout):
            while self._header_from != peer.key and self.refused is None:
                # again each second: a seat that has just started may not serve watchers yet
                self.mesh.send(peer.key, {"t": WATCH})
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(1.0):
                        await self._wait()
                if peer.key not in self.mesh.peers and self._header_from != peer.key:
                    raise WatchRefused(self.refused or f"{host}:{port} closed the connection")
        if self.refused is not None:
            raise WatchRefused(self.refused)

    @property
    def over(self) -> bool:
        """The game ended, a fault stopped the watching, or the seat went away."""
        if self.replay is None:
            return self.refused is not None
        if self.replay.fault is not None:
            return True
        return self.ended or self.stopped is not None or self._seat_gone()

    @property
    def ended(self) -> bool:
        """The game is over in the log checked so far."""
        frames = self.replay.frames if self.replay is not None else []
        view = frames[-1].view if frames else None
        return view is not None and view.state.over

    def _seat_gone(self) -> bool:
        return self.seat_key not in self.mesh.peers and not self._arrived  # all checked

    async def follow(self, timeout: float | None = None, retry_s: float = 5.0) -> Replay:
        """Until the game is over (or watching stops); returns the replay so far. When the
        watched seat goes away mid-game, watching goes on through another seat of the table
        (`unfinished` when none can be reached); `retry_s` bounds each attempt."""
        async with asyncio.timeout(timeout):
            while True:
                while not self.over:
                    await self._wait()
                replay = self.replay
                assert replay is not None
                if self.ended or self.stopped is not None or replay.fault is not None:
                    return replay
                if not await self._watch_elsewhere(retry_s):
                    return replay

    async def _watch_elsewhere(self, retry_s: float) -> bool:
        """The watched seat went away mid-game: ask the other seats in turn, from the one
        after it, at the addresses the header gave; False when none serves us."""
        assert self.roster is not None and self.replay is not None
        keys = self.roster.keys
        lost = keys.index(self.seat_key) if self.seat_key in keys else 0
        entries = len(self._signatures)
        self._notice(
            f"seat {lost} ({self.replay.names[lost]}) went away after {entries} entries; "
            "the game is unfinished"
        )
        for step in range(1, len(keys)):
            seat = (lost + step) % len(keys)
            address = self.addresses[seat] if seat < len(self.addresses) else None
            if address is None:
                continue
            try:
                await self._ask(address[0], address[1], keys[seat], retry_s)
            except (WatchRefused, P2PError, OSError, TimeoutError) as error:
                log.info("cannot watch through seat %s at %s:%s: %s", seat, *address, error)
                continue
            self._notice(f"watching through seat {seat} ({self.replay.names[seat]}) now")
            return True
        self.unfinished = True
        self._notice("no other seat of the table can be reached: the game is unfinished")
        return False

    def _notice(self, text: str) -> None:
        log.info("%s", text)
        for callback in self._notices:
            callback(text)

    async def close(self) -> None:
        if self._checking is not None:
            self._checking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checking
        await self.mesh.close()

    async def _wait(self) -> None:
        await self._changed.wait()
        self._changed = asyncio.Event()

    def _wake(self) -> None:
        self._changed.set()

    def _on_refused(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        reason = message.get("reason")
        self.refused = str(reason)[:200] if isinstance(reason, str) else "refused"
        self._wake()

    def _on_watching(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        if peer.key != self.seat_key or self._header_from == peer.key:
            return
        if self.replay is not None:  # another seat of the same table, after one went away
            if (message.get("table"), message.get("roster")) == (
                self.roster.table if self.roster is not None else None,
                list(self.roster.keys) if self.roster is not None else None,
            ):
                self._header_from, self._served = peer.key, 0  # it sends its log from 0
                self._wake()
            return
        culprit = str(peer)
        table = field(message, "table", bytes, culprit)
        keys = field(message, "roster", list, culprit)
        seat = field(message, "seat", int, culprit)
        sent = message.get("extra")
        extra: dict[str, Any] = sent if isinstance(sent, dict) else {}
        if not all(isinstance(k, bytes) and len(k) == 32 for k in keys) or not (
            0 <= seat < len(keys)
        ):
            raise PeerError(culprit, '"watching": a roster of 32-byte keys and a seat of it')
        if keys[seat] != peer.key:
            raise PeerError(culprit, '"watching": the peer is not the seat it says it is')
        roster = Roster(table, tuple(keys))
        signed = None
        if extra.get("signed_roster") is not None:
            try:
                signed = parse_signed_roster_record(extra["signed_roster"], culprit)
            except P2PError as error:
                raise PeerError(culprit, f'"watching": bad signed roster: {error}') from None
        names, codes = _names(signed, len(keys), seat)
        replay = Replay(
            path=_Where(f"{peer.name} at the table"),  # type: ignore[arg-type]
            report=AuditReport(culprit),
            seat=seat,
            names=names,
            codes=codes,
            live=True,
        )
        self._recorder = _Recorder(replay)
        self.live = LiveAudit(roster, replay.report, extra, self._recorder.took)
        self.roster, self.addresses = roster, _addresses(extra.get("addresses"), len(keys))
        self.replay, self._header_from = replay, peer.key
        self._wake()

    def _on_env(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        live, replay = self.live, self.replay
        if peer.key != self.seat_key or live is None or replay is None or replay.fault:
            return
        if self._header_from != peer.key or self.stopped is not None:
            return
        envelope = parse_envelope(message, str(peer))
        place, self._served = self._served, self._served + 1
        if place < len(self._signatures):  # a seat taken over from resends the log from 0
            if envelope.signature != self._signatures[place]:
                assert self.roster is not None
                self.stopped = (
                    f"seat {self.roster.seat_of(peer.key)}'s log differs at entry {place} from "
                    "the one checked so far"
                )
                self._wake()
            return
        self._signatures.append(envelope.signature)
        self._arrived.append(envelope)
        if self._checking is None or self._checking.done():
            self._checking = asyncio.get_running_loop().create_task(self._check_arrived())

    async def _check_arrived(self) -> None:
        """Check what has arrived, in order, giving the loop a turn after each envelope."""
        live, replay = self.live, self.replay
        assert live is not None and replay is not None
        while self._arrived and replay.fault is None:
            try:
                live.feed(self._arrived.popleft(), self.index)
            except Exception:  # a bug of ours, not the seat's fault: as the mesh does, log it
                log.exception("checking envelope #%d failed", self.index)
            self.index += 1
            if replay.report.fault is not None:
                replay.frames.clear()  # a fault shows alone, as for a file that does not audit
                self._arrived.clear()
            else:
                replay.game = live.game_name or replay.game
            for callback in self._update:
                callback()
            self._wake()
            await asyncio.sleep(0)  # a turn for the channels (handshakes, keepalives) and screen


def _addresses(recorded: Any, seats: int) -> list[tuple[str, int] | None]:
    """The header's seat addresses (protocol.md 4.7, 4.8); anything malformed is unknown."""
    if not isinstance(recorded, list) or len(recorded) != seats:
        return [None] * seats
    return [
        (item[0], item[1])
        if isinstance(item, list)
        and len(item) == 2
        and isinstance(item[0], str)
        and isinstance(item[1], int)
        and not isinstance(item[1], bool)
        and 0 < item[1] < 65536
        else None
        for item in recorded
    ]


class _Where:
    """What a live replay shows where a file's name would be."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return self.name
