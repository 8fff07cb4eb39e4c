"""A full mesh of secure channels, one per peer identity, with message dispatch by type.

`Mesh` listens on one port and dials peers by host:port. Whichever way a connection was made,
there is at most one live channel per peer key: when two peers dial each other at once, both keep
the channel dialled by the smaller public key and close the other; when one peer dialled twice
(a redial after a drop the other side has not noticed yet), the newer channel replaces the older.
Each Mesh draws a random instance that its handshakes carry: a channel from a new instance of a
peer (the peer restarted) replaces the old instance's channel at once, whoever dialled, since the
old process is gone even if its channel does not look dead yet.

What is sent in one turn of the event loop goes out at its end, one write per peer (a relayed
burst of envelopes costs one system call per peer, not one per frame; order per peer is kept).
Sending can also be held (`hold`): a seat that has written an envelope it signed but not yet
fsynced keeps everything it sends after it until the fsync of the whole turn's records is done
(and drops it if the disk refused it), so one fsync serves every envelope the seat signed in that
turn and nothing overtakes them.

Incoming application messages are dispatched to handlers registered per message type ("t"
field); a handler that raises `PeerError` has the error recorded and reported against that peer,
and the connection stays up (frame-level errors close only that peer's channel; the others are
unaffected).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from fairdeal.p2p.errors import ConnectionClosed, P2PError, PeerError
from fairdeal.p2p.identity import Identity, PublicIdentity, fingerprint
from fairdeal.p2p.net.channel import (
    DEFAULT_CONFIG,
    ChannelConfig,
    ChannelServer,
    SecureChannel,
    open_channel,
)
from fairdeal.p2p.net.framing import pack_message
from fairdeal.p2p.net.loglimit import LogLimiter

log = logging.getLogger(__name__)

MessageHandler = Callable[[PublicIdentity, dict[str, Any]], None]
PeerCallback = Callable[[PublicIdentity], None]
ErrorCallback = Callable[[P2PError], None]
SendGate = Callable[[], bool]


class Mesh:
    """This peer's connections. Register handlers with `on`, then `start` and `connect`."""

    def __init__(
        self,
        identity: Identity,
        config: ChannelConfig = DEFAULT_CONFIG,
        accept_peer: Callable[[PublicIdentity], bool] | None = None,
        instance: bytes | None = None,
    ) -> None:
        self.identity = identity
        self.config = config
        self.accept_peer = accept_peer  # settable, e.g. once the roster is fixed
        # This process's instance, sent in every handshake (protocol.md 3.3 `run`, 3.6).
        self.instance = instance if instance is not None else secrets.token_bytes(16)
        self._server = ChannelServer(
            identity, self._adopt, config, on_error=self._report, instance=self.instance
        )
        self._channels: dict[bytes, SecureChannel] = {}
        self._readers: dict[SecureChannel, asyncio.Task[None]] = {}
        self._handlers: dict[str, MessageHandler] = {}
        self._peer_up: list[PeerCallback] = []
        self._peer_down: list[PeerCallback] = []
        self._error_callbacks: list[ErrorCallback] = []
        self._changed = asyncio.Condition()
        self.errors: collections.deque[P2PError] = collections.deque(maxlen=256)
        self._bad_input = LogLimiter(log)  # hostile peers cannot flood the log
        self.address: tuple[str, int] | None = None
        self._closing = False
        self._maintainers: dict[bytes, asyncio.Task[None]] = {}
        # What this turn of the loop sent, per channel in order: written once per channel at
        # the end of the turn (a write is a system call), if every gate agrees.
        self._queued: dict[SecureChannel, list[bytes]] = {}
        self._gates: list[SendGate] = []
        self._release_scheduled = False

    # -- wiring ----------------------------------------------------------------------------

    def on(self, message_type: str, handler: MessageHandler) -> None:
        """Call `handler(peer, message)` for every message whose "t" is `message_type`."""
        self._handlers[message_type] = handler

    def on_peer_up(self, callback: PeerCallback) -> None:
        """Called when a channel to a peer comes up (again, if a duplicate replaced it)."""
        self._peer_up.append(callback)

    def on_peer_down(self, callback: PeerCallback) -> None:
        self._peer_down.append(callback)

    def on_error(self, callback: ErrorCallback) -> None:
        """Called with every PeerError (bad frame, bad envelope, failed handshake)."""
        self._error_callbacks.append(callback)

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> tuple[str, int]:
        """Listen for peers; returns the bound (host, port)."""
        self.address = await self._server.start(host, port)
        return self.address

    async def connect(
        self, host: str, port: int, expected_peer: bytes | None = None
    ) -> PublicIdentity:
        """Dial a peer (pinning its key when known) and return its identity once connected."""
        if expected_peer is not None and expected_peer in self._channels:
            return self._channels[expected_peer].peer
        channel = await open_channel(
            host,
            port,
            self.identity,
            expected_peer=expected_peer,
            config=self.config,
            instance=self.instance,
        )
        await self._adopt(channel)
        return channel.peer

    def maintain(
        self,
        peer_key: bytes,
        host: str,
        port: int,
        retry_delays: tuple[float, ...] = (0.1, 0.5, 1.0, 2.0, 5.0),
    ) -> None:
        """Keep a channel to this peer: dial it now and again whenever the channel goes down,
        backing off through `retry_delays` (the last one repeats) while it cannot be reached."""
        previous = self._maintainers.pop(peer_key, None)
        if previous is not None:
            previous.cancel()
        task = asyncio.get_running_loop().create_task(
            self._maintain(peer_key, host, port, retry_delays)
        )
        self._maintainers[peer_key] = task

    async def _maintain(
        self, peer_key: bytes, host: str, port: int, retry_delays: tuple[float, ...]
    ) -> None:
        failures = 0
        while not self._closing:
            await self.wait_until(lambda: peer_key not in self._channels)
            if self._closing:
                return
            try:
                await self.connect(host, port, expected_peer=peer_key)
                failures = 0
            except (P2PError, OSError, TimeoutError) as exc:
                delay = retry_delays[min(failures, len(retry_delays) - 1)]
                failures += 1
                log.info(
                    "cannot reach %s at %s:%d (%s); retry in %g s",
                    fingerprint(peer_key),
                    host,
                    port,
                    exc,
                    delay,
                )
                await asyncio.sleep(delay)  # back-off timer between attempts

    async def close(self) -> None:
        """Stop listening, say goodbye on every channel and wait for the readers to end."""
        self.release()  # what was sent before the goodbye goes out before it
        self._closing = True
        maintainers = list(self._maintainers.values())
        for task in maintainers:
            task.cancel()
        await asyncio.gather(*maintainers, return_exceptions=True)
        self._server.stop_listening()
        channels = list(self._readers)
        for channel in channels:
            await channel.close("peer leaving")
        tasks = list(self._readers.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._server.close()

    # -- state -----------------------------------------------------------------------------

    @property
    def peers(self) -> dict[bytes, PublicIdentity]:
        """Connected peers by public key."""
        return {key: channel.peer for key, channel in self._channels.items()}

    def channel(self, peer_key: bytes) -> SecureChannel | None:
        return self._channels.get(peer_key)

    async def wait_for_peers(self, keys: Iterable[bytes], timeout: float | None = None) -> None:
        """Wait until a channel to every key in `keys` is up."""
        wanted = set(keys)
        await self.wait_until(lambda: wanted <= self._channels.keys(), timeout)

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None) -> None:
        """Wait until `predicate()` holds, re-checked whenever a channel comes up or goes."""
        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(predicate)

    # -- sending ---------------------------------------------------------------------------

    def send(self, peer_key: bytes, message: Mapping[str, Any]) -> bool:
        """Send to one peer; False when it is not connected. Goes out at the end of this turn
        of the event loop (or at `release`/`drain`), with what else was sent to the peer."""
        channel = self._channels.get(peer_key)
        if channel is None or channel.closed:
            return False
        self._queue(channel, pack_message(message))
        return True

    def broadcast(self, message: Mapping[str, Any], exclude: Iterable[bytes] = ()) -> int:
        """Send to every connected peer (msgpack-encoded once); returns how many got it."""
        payload = pack_message(message)
        skip = set(exclude)
        sent = 0
        for key, channel in list(self._channels.items()):
            if key not in skip and not channel.closed:
                self._queue(channel, payload)
                sent += 1
        return sent

    def hold(self, gate: SendGate) -> None:
        """Keep everything sent until `gate` returns True, checked when the turn's sends go
        out (`release`): e.g. the fsync of what this seat signed. If it returns False, all
        that was held is dropped."""
        if gate not in self._gates:
            self._gates.append(gate)
        self._schedule_release()

    def release(self) -> None:
        """Send what this turn queued now, one write per peer, if every gate lets it."""
        if not self._queued and not self._gates:
            return
        gates = self._gates
        # Every gate runs (each syncs its own file); sends made while they run are still held.
        passed = all([gate() for gate in gates])
        queued, self._queued, self._gates = self._queued, {}, []
        if not passed:
            count = sum(len(payloads) for payloads in queued.values())
            log.debug("dropped %d held message(s): a gate refused them", count)
            return
        for channel, payloads in queued.items():
            with contextlib.suppress(ConnectionClosed):
                channel.send_payloads(payloads)

    def _queue(self, channel: SecureChannel, payload: bytes) -> None:
        channel.check_size(payload)  # the sender's mistake, raised to the sender
        self._queued.setdefault(channel, []).append(payload)
        self._schedule_release()

    def _schedule_release(self) -> None:
        if not self._release_scheduled:
            self._release_scheduled = True
            asyncio.get_running_loop().call_soon(self._release_at_end_of_turn)

    def _release_at_end_of_turn(self) -> None:
        self._release_scheduled = False
        self.release()

    async def drain(self) -> None:
        self.release()
        for channel in list(self._channels.values()):
            with contextlib.suppress(ConnectionClosed):
                await channel.drain()

    async def drain_within(self, timeout: float) -> bool:
        """`drain`, waiting `timeout` seconds at most: a peer that reads nothing never takes
        the rest, and a seat on its way out must not wait for it for good. Whether it all went."""
        try:
            async with asyncio.timeout(timeout):
                await self.drain()
        except TimeoutError:
            return False
        return True

    # -- internals -------------------------------------------------------------------------

    async def _adopt(self, channel: SecureChannel) -> None:
        key = channel.peer.key
        if self._closing or key == self.identity.key:
            await channel.close("refused: connection to self" if not self._closing else "closing")
            return
        if self.accept_peer is not None and not self.accept_peer(channel.peer):
            await channel.close("refused: not a member of this table")
            self._report(PeerError(channel.culprit, "refused: not a member of this table"))
            return
        existing = self._channels.get(key)
        if existing is not None and not existing.closed:
            # A new instance of the peer (it restarted) replaces the old one's channel. Otherwise
            # keep the channel dialled by the smaller key; if one peer dialled both, the newer
            # (the older is most likely dead and not yet noticed).
            restarted = _restarted(existing, channel)
            if not restarted and self._dialler(existing) < self._dialler(channel):
                await channel.close("duplicate connection")
                return
            self._channels[key] = channel
            self._start_reader(channel)
            await existing.close("peer restarted" if restarted else "duplicate connection")
            # Frames in flight on the old channel may be lost: listeners resynchronise.
            for callback in self._peer_up:
                callback(channel.peer)
            await self._notify()
            return
        self._channels[key] = channel
        self._start_reader(channel)
        for callback in self._peer_up:
            callback(channel.peer)
        await self._notify()

    def _dialler(self, channel: SecureChannel) -> bytes:
        return self.identity.key if channel.initiator else channel.peer.key

    def _start_reader(self, channel: SecureChannel) -> None:
        task = asyncio.get_running_loop().create_task(self._read_loop(channel))
        self._readers[channel] = task

    async def _read_loop(self, channel: SecureChannel) -> None:
        try:
            while True:
                message = await channel.recv()
                handler = self._handlers.get(message["t"])
                if handler is None:
                    log.debug("ignoring message of unknown type %r from %s", message["t"], channel)
                    continue
                try:
                    handler(channel.peer, message)
                except PeerError as exc:
                    self._report(exc)
                except Exception:
                    # A bug of ours, not the peer's fault: keep the channel, keep the trace.
                    log.exception("handler for %r from %s failed", message["t"], channel.peer)
        except ConnectionClosed as exc:
            log.info("channel to %s closed: %s", channel.peer, exc.reason)
        except PeerError as exc:
            self._report(exc)
        finally:
            self._readers.pop(channel, None)
            if self._channels.get(channel.peer.key) is channel:
                del self._channels[channel.peer.key]
                for callback in self._peer_down:
                    callback(channel.peer)
                await self._notify()

    def _report(self, error: P2PError) -> None:
        self._bad_input.warning("bad input: %s", error)
        # The last 256 are kept: without their tracebacks, whose frames hold what the peer
        # sent (up to a frame each: 256 MiB for 256 refused envelopes of 1 MiB).
        error.__traceback__ = error.__context__ = None
        self.errors.append(error)
        for callback in self._error_callbacks:
            callback(error)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()


def _restarted(existing: SecureChannel, new: SecureChannel) -> bool:
    """Whether `new` comes from another run of the peer than `existing` (both must say)."""
    old_run, new_run = existing.peer_instance, new.peer_instance
    return old_run is not None and new_run is not None and old_run != new_run
