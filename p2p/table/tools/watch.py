"""Watchers, watcher side: a peer with no seat follows a table live, checking every signature and
proof itself.

A seated peer serves it (p2p/table/runtime/watchers.py, protocol.md 4.8). `WatchClient` feeds what
arrives, in order, to the audit's own replay (`audit.LiveAudit` over `audit_replay.LogReplay`), so
it checks exactly what `fairdeal audit` checks and its frames are those of `fairdeal replay`
(p2p.table.tools.replay): the watcher's screen is the replay's, following the end. The checking is
done one envelope at a time in a task that lets the event loop run between them: a channel's reader
hands over every frame it has buffered without yielding, so a watcher catching up (the log so far,
a shuffle proof per seat) would otherwise hold its loop for seconds, and its other channels'
handshakes and keepalives would time out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from fairdeal.p2p.errors import P2PError, PeerError
from fairdeal.p2p.identity import Identity, PublicIdentity
from fairdeal.p2p.lobby.messages import parse_signed_roster_record
from fairdeal.p2p.log.envelope import Envelope, parse_envelope
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.net import kinds
from fairdeal.p2p.net.framing import field
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.net.unreachable import unreachable_reason
from fairdeal.p2p.table.runtime.watchers import REFUSED, WATCH, WATCHING
from fairdeal.p2p.table.tools.audit import AuditReport, LiveAudit
from fairdeal.p2p.table.tools.replay import FrameRecorder, Replay, seat_names_of

log = logging.getLogger(__name__)


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
        self._recorder: FrameRecorder | None = None
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
        names, codes = seat_names_of(signed, len(keys), seat)
        replay = Replay(
            path=_Where(f"{peer.name} at the table"),  # type: ignore[arg-type]
            report=AuditReport(culprit),
            seat=seat,
            names=names,
            codes=codes,
            live=True,
        )
        self._recorder = FrameRecorder(replay)
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
