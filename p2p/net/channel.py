"""An encrypted, authenticated message channel over one TCP connection.

After the handshake (p2p/net/handshake.py) every frame's payload is ChaCha20-Poly1305 ciphertext of
one msgpack message. Each direction has its own key and a 64-bit counter nonce that both sides
advance in step, so a replayed, dropped, reordered or altered frame fails authentication and
closes the channel (`DecryptError`). The channel answers keepalive pings itself, sends one every
`keepalive_interval`, and treats silence beyond `idle_timeout` as a dead peer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from fairdeal.p2p.errors import (
    ConnectionClosed,
    DecryptError,
    HandshakeError,
    P2PError,
    PeerError,
    VersionMismatch,
)
from fairdeal.p2p.identity import Identity, PublicIdentity
from fairdeal.p2p.net.framing import (
    MAX_FRAME_SIZE,
    MAX_HANDSHAKE_FRAME_SIZE,
    FrameReader,
    encode_frame,
    pack_message,
    unpack_message,
    write_frame,
)
from fairdeal.p2p.net.handshake import SUPPORTED_VERSIONS, Initiator, Responder, SessionKeys
from fairdeal.p2p.net.kinds import BYE, ERROR, PING, PONG
from fairdeal.p2p.net.loglimit import LogLimiter

log = logging.getLogger(__name__)

TAG_SIZE = 16
MAX_NONCE = (1 << 64) - 1


@dataclass(frozen=True)
class ChannelConfig:
    """Limits and timers of a channel; tests shorten the timers."""

    max_frame_size: int = MAX_FRAME_SIZE
    handshake_timeout: float = 10.0
    frame_timeout: float = 10.0  # rest of a frame once its first byte arrived
    keepalive_interval: float = 10.0
    idle_timeout: float = 35.0  # no frame at all (not even a ping) for this long: dead
    max_send_backlog: int = (
        64 * MAX_FRAME_SIZE
    )  # unsent bytes queued for a peer before it is dropped
    versions: tuple[int, ...] = SUPPORTED_VERSIONS  # protocol versions offered, tests vary it


DEFAULT_CONFIG = ChannelConfig()


class CipherState:
    """One direction: a key and a counter nonce (4 zero bytes + 8-byte big-endian counter)."""

    def __init__(self, key: bytes) -> None:
        self._aead = ChaCha20Poly1305(key)
        self.counter = 0

    def _nonce(self) -> bytes:
        if self.counter > MAX_NONCE:
            raise ConnectionClosed("nonce space exhausted; reconnect")
        nonce = bytes(4) + self.counter.to_bytes(8, "big")
        self.counter += 1
        return nonce

    def encrypt(self, plaintext: bytes) -> bytes:
        return self._aead.encrypt(self._nonce(), plaintext, None)

    def decrypt(self, ciphertext: bytes, culprit: str) -> bytes:
        try:
            return self._aead.decrypt(self._nonce(), ciphertext, None)
        except InvalidTag:
            raise DecryptError(
                culprit, "frame failed authentication (tampered, replayed or out of order)"
            ) from None

    def __repr__(self) -> str:
        return f"CipherState(counter={self.counter})"


class SecureChannel:
    """A connected, authenticated peer. Use `send`, `recv` and `close`."""

    def __init__(
        self,
        frames: FrameReader,
        writer: asyncio.StreamWriter,
        keys: SessionKeys,
        address: str,
        initiator: bool,
        config: ChannelConfig,
    ) -> None:
        self.peer: PublicIdentity = keys.peer
        self.version = keys.version
        self.session_id = keys.session_id
        self.peer_instance = keys.peer_instance  # the peer process's instance (3.3 `run`)
        self.address = address
        self.initiator = initiator
        self.config = config
        self.culprit = f"{keys.peer} at {address}"
        self._writer = writer
        self._frames = frames  # the handshake's reader: it may hold bytes read ahead
        frames.culprit = self.culprit
        frames.max_size = config.max_frame_size
        frames.idle_timeout = config.idle_timeout
        frames.frame_timeout = config.frame_timeout
        self._send = CipherState(keys.send_key)
        self._recv = CipherState(keys.recv_key)
        self.close_reason: str | None = None
        self._closed_event = asyncio.Event()
        self._keepalive = asyncio.get_running_loop().create_task(self._keepalive_loop())

    def __repr__(self) -> str:
        return f"SecureChannel(peer={self.peer!s}, address={self.address!r})"

    @property
    def closed(self) -> bool:
        return self.close_reason is not None

    async def wait_closed(self) -> None:
        await self._closed_event.wait()

    def send(self, message: Mapping[str, Any]) -> None:
        """Encrypt and queue one message (synchronous, so nonces follow write order)."""
        self.send_payload(pack_message(message))

    def send_payload(self, plaintext: bytes) -> None:
        self.send_payloads([plaintext])

    def send_payloads(self, plaintexts: list[bytes]) -> None:
        """Encrypt and queue several messages in order, written at once (one system call)."""
        if self.close_reason is not None:
            raise ConnectionClosed(self.close_reason)
        if self._writer.transport.get_write_buffer_size() > self.config.max_send_backlog:
            # The peer stopped reading: drop it rather than buffer without bound.
            self._mark_closed(f"{self.culprit} is not reading (send backlog over the limit)")
            raise ConnectionClosed(self.close_reason or "closed")
        for plaintext in plaintexts:  # before any nonce is used
            self.check_size(plaintext)
        cap = self.config.max_frame_size
        self._writer.write(b"".join(encode_frame(self._send.encrypt(p), cap) for p in plaintexts))

    def check_size(self, plaintext: bytes) -> None:
        """ValueError if the message does not fit in one frame."""
        if len(plaintext) + TAG_SIZE > self.config.max_frame_size:
            raise ValueError(
                f"frame of {len(plaintext) + TAG_SIZE} bytes exceeds the cap of "
                f"{self.config.max_frame_size}"
            )

    async def drain(self) -> None:
        try:
            await self._writer.drain()
        except (ConnectionError, RuntimeError) as exc:
            self._mark_closed(f"write failed: {exc}")
            raise ConnectionClosed(self.close_reason or "closed") from None

    async def recv(self) -> dict[str, Any]:
        """The next application message. Raises ConnectionClosed at a close, PeerError on bad
        input (after closing the channel with an error message to the peer)."""
        while True:
            if self.close_reason is not None:
                raise ConnectionClosed(self.close_reason)
            try:
                frame = await self._frames.read()
                message = unpack_message(self._recv.decrypt(frame, self.culprit), self.culprit)
            except EOFError:
                self._mark_closed("peer closed the connection")
                continue
            except (ConnectionError, OSError) as exc:
                self._mark_closed(f"connection lost: {exc}")
                continue
            except PeerError as exc:
                self._fail(exc)
                raise
            kind = message["t"]
            if kind == PING:
                self._send_quietly({"t": PONG})
            elif kind == PONG:
                pass
            elif kind == BYE:
                self._mark_closed(f"peer closed: {printable(message.get('reason'), 200)}")
            elif kind == ERROR:
                code, text = printable(message.get("code"), 40), printable(message.get("message"))
                self._mark_closed(f"peer reported {code}: {text}")
            else:
                return message

    async def close(self, reason: str = "closing") -> None:
        """Say goodbye and close; idempotent. A peer that does not take the last bytes within
        `handshake_timeout` has its connection aborted."""
        if self.close_reason is None:
            self._send_quietly({"t": BYE, "reason": reason})
            self._mark_closed(reason)
        try:
            async with asyncio.timeout(self.config.handshake_timeout):
                await self._writer.wait_closed()
        except TimeoutError:
            self._writer.transport.abort()
        except (ConnectionError, OSError):
            pass

    def _fail(self, error: PeerError) -> None:
        self._send_quietly({"t": ERROR, "code": error.code, "message": error.detail})
        self._mark_closed(str(error))

    def _send_quietly(self, message: Mapping[str, Any]) -> None:
        with contextlib.suppress(P2PError, ConnectionError, OSError, RuntimeError):
            self.send(message)

    def _mark_closed(self, reason: str) -> None:
        if self.close_reason is not None:
            return
        self.close_reason = reason
        self._keepalive.cancel()
        with contextlib.suppress(Exception):
            self._writer.close()
        self._closed_event.set()

    async def _keepalive_loop(self) -> None:
        while self.close_reason is None:
            await asyncio.sleep(self.config.keepalive_interval)  # a timer, not synchronisation
            self._send_quietly({"t": PING})


def printable(value: object, limit: int = 200) -> str:
    """A peer-supplied text made safe to log or show: one line, no control characters."""
    text = value if isinstance(value, str) else repr(value)
    return "".join(ch if ch.isprintable() else "?" for ch in text[:limit])


def _address(writer: asyncio.StreamWriter) -> str:
    peername = writer.get_extra_info("peername")
    if isinstance(peername, tuple) and len(peername) >= 2:
        return f"{peername[0]}:{peername[1]}"
    return str(peername)


async def _handshake_read(reader: FrameReader, timeout_culprit: str) -> bytes:
    try:
        return await reader.read()
    except EOFError:
        raise HandshakeError(
            timeout_culprit, "peer closed the connection during the handshake"
        ) from None


async def open_channel(
    host: str,
    port: int,
    identity: Identity,
    *,
    expected_peer: bytes | None = None,
    config: ChannelConfig = DEFAULT_CONFIG,
    instance: bytes | None = None,
) -> SecureChannel:
    """Dial host:port and run the handshake as initiator. Raises HandshakeError,
    VersionMismatch, FrameTimeout or OSError."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port), config.handshake_timeout
    )
    address = _address(writer)
    async with _handshake_deadline(writer, address, config.handshake_timeout):
        return await _initiate(reader, writer, identity, address, expected_peer, config, instance)


@contextlib.asynccontextmanager
async def _handshake_deadline(
    writer: asyncio.StreamWriter, address: str, seconds: float
) -> AsyncIterator[None]:
    """A handshake within `seconds`, either side: whatever fails closes the connection, and
    running out of time is a HandshakeError naming the address."""
    try:
        async with asyncio.timeout(seconds):
            yield
    except TimeoutError:
        writer.close()
        raise HandshakeError(address, "handshake timed out") from None
    except BaseException:
        writer.close()
        raise


async def _initiate(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    identity: Identity,
    address: str,
    expected_peer: bytes | None,
    config: ChannelConfig,
    instance: bytes | None = None,
) -> SecureChannel:
    frames = FrameReader(reader, address, MAX_HANDSHAKE_FRAME_SIZE, None, config.frame_timeout)
    initiator = Initiator(identity, address, expected_peer, config.versions, instance=instance)
    write_frame(writer, initiator.hello(), MAX_HANDSHAKE_FRAME_SIZE)
    message3 = initiator.auth(await _handshake_read(frames, address))
    write_frame(writer, message3, MAX_HANDSHAKE_FRAME_SIZE)
    await writer.drain()
    assert initiator.keys is not None
    return SecureChannel(frames, writer, initiator.keys, address, True, config)


async def accept_channel(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    identity: Identity,
    *,
    expected_peer: bytes | None = None,
    config: ChannelConfig = DEFAULT_CONFIG,
    instance: bytes | None = None,
) -> SecureChannel:
    """Run the handshake as responder on an accepted connection."""
    address = _address(writer)
    frames = FrameReader(reader, address, MAX_HANDSHAKE_FRAME_SIZE, None, config.frame_timeout)
    responder = Responder(identity, address, expected_peer, config.versions, instance=instance)
    async with _handshake_deadline(writer, address, config.handshake_timeout):
        hello = await _handshake_read(frames, address)
        try:
            message2 = responder.hello_ack(hello)
        except VersionMismatch:
            write_frame(writer, responder.version_error(), MAX_HANDSHAKE_FRAME_SIZE)
            with contextlib.suppress(ConnectionError):
                await writer.drain()
            raise
        write_frame(writer, message2, MAX_HANDSHAKE_FRAME_SIZE)
        await writer.drain()
        keys = responder.finish(await _handshake_read(frames, address))
    return SecureChannel(frames, writer, keys, address, False, config)


class ChannelServer:
    """A listening socket that hands each authenticated channel to `on_channel`."""

    def __init__(
        self,
        identity: Identity,
        on_channel: Callable[[SecureChannel], Awaitable[None]],
        config: ChannelConfig = DEFAULT_CONFIG,
        on_error: Callable[[P2PError], None] | None = None,
        instance: bytes | None = None,
    ) -> None:
        self._identity = identity
        self._instance = instance
        self._on_channel = on_channel
        self._config = config
        self._on_error = on_error
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._failures = LogLimiter(log)  # anyone can connect: a flood is not a log flood

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> tuple[str, int]:
        self._server = await asyncio.start_server(self._accept, host, port)
        sockname = self._server.sockets[0].getsockname()
        return sockname[0], sockname[1]

    @property
    def address(self) -> tuple[str, int]:
        assert self._server is not None, "server not started"
        sockname = self._server.sockets[0].getsockname()
        return sockname[0], sockname[1]

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            channel = await accept_channel(
                reader, writer, self._identity, config=self._config, instance=self._instance
            )
        except (P2PError, OSError, asyncio.IncompleteReadError) as exc:
            self._failures.warning("handshake from %s failed: %s", _address(writer), exc)
            if self._on_error is not None and isinstance(exc, P2PError):
                self._on_error(exc)
            return
        await self._on_channel(channel)

    def stop_listening(self) -> None:
        if self._server is not None:
            self._server.close()

    async def close(self) -> None:
        """Stop listening and wait for the server to finish (close the channels first)."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
