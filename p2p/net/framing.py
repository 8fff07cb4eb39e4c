"""Frames on the wire: a 4-byte big-endian length prefix followed by that many bytes.

Two layers live here:

* `FrameDecoder`, a sans-IO decoder (feed bytes, get frames) that rejects an oversized frame as
  soon as its prefix is seen, so memory stays bounded by the cap;
* `FrameReader` / `write_frame`, the asyncio side, with two timeouts: `idle_timeout` for the gap
  between frames and `frame_timeout` for the rest of a frame once its first byte arrived (a peer
  that sends half a frame and stalls is cut off after `frame_timeout`).

`pack_message` / `unpack_message` turn one msgpack map with a string field "t" into bytes and back,
with limits that make a hostile payload fail fast with `MalformedFrame`.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Mapping
from typing import Any

import msgpack

from fairdeal.p2p.errors import FrameTimeout, FrameTooLarge, MalformedFrame

PREFIX = struct.Struct(">I")
PREFIX_SIZE = PREFIX.size
MAX_FRAME_SIZE = 1 << 20  # 1 MiB after the handshake: room for a shuffle proof
MAX_HANDSHAKE_FRAME_SIZE = 4096  # before authentication a peer gets very little
MAX_NESTING = 32


def encode_frame(payload: bytes, max_size: int = MAX_FRAME_SIZE) -> bytes:
    if len(payload) > max_size:
        raise ValueError(f"frame of {len(payload)} bytes exceeds the cap of {max_size}")
    return PREFIX.pack(len(payload)) + payload


class FrameDecoder:
    """Sans-IO: `feed(data)` returns the complete frames; an oversized prefix raises at once.

    `append` + `next_frame` take one frame at a time, so that the cap can change between two
    frames (it grows when the handshake is over)."""

    def __init__(self, culprit: str, max_size: int = MAX_FRAME_SIZE) -> None:
        self.culprit = culprit
        self.max_size = max_size
        self._buffer = bytearray()

    @property
    def pending(self) -> int:
        """Bytes buffered and not yet returned as frames."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[bytes]:
        self.append(data)
        frames: list[bytes] = []
        while (frame := self.next_frame()) is not None:
            frames.append(frame)
        return frames

    def append(self, data: bytes) -> None:
        self._buffer += data

    def next_frame(self) -> bytes | None:
        """The next complete frame, or None if more bytes are needed."""
        if len(self._buffer) < PREFIX_SIZE:
            return None
        (length,) = PREFIX.unpack_from(self._buffer)
        if length > self.max_size:
            self._buffer.clear()
            raise FrameTooLarge(
                self.culprit, f"frame of {length} bytes exceeds the cap of {self.max_size}"
            )
        end = PREFIX_SIZE + length
        if len(self._buffer) < end:
            return None
        frame = bytes(self._buffer[PREFIX_SIZE:end])
        del self._buffer[:end]  # CPython drops a bytearray's head in O(1)
        return frame


READ_CHUNK = 1 << 16


class FrameReader:
    """Reads whole frames from an asyncio stream, enforcing the cap and both timeouts.

    Bytes are read in chunks and cut into frames by a `FrameDecoder`, so a burst of small frames
    costs one read. Memory stays bounded: a chunk is read only when no whole frame is buffered,
    and a frame's prefix is checked against the cap before its body is awaited. The same reader
    serves the handshake and then the channel (the cap and culprit are updated in between), so
    no byte read ahead is lost."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        culprit: str,
        max_size: int = MAX_FRAME_SIZE,
        idle_timeout: float | None = None,
        frame_timeout: float = 10.0,
    ) -> None:
        self._reader = reader
        self._decoder = FrameDecoder(culprit, max_size)
        self.idle_timeout = idle_timeout
        self.frame_timeout = frame_timeout
        self._frame_deadline: float | None = None

    @property
    def culprit(self) -> str:
        return self._decoder.culprit

    @culprit.setter
    def culprit(self, value: str) -> None:
        self._decoder.culprit = value

    @property
    def max_size(self) -> int:
        return self._decoder.max_size

    @max_size.setter
    def max_size(self, value: int) -> None:
        self._decoder.max_size = value

    async def read(self) -> bytes:
        """The next frame's payload. Raises EOFError at a clean end of stream between frames."""
        loop = asyncio.get_running_loop()
        while (frame := self._decoder.next_frame()) is None:
            partial = self._decoder.pending > 0
            if partial:
                if self._frame_deadline is None:
                    self._frame_deadline = loop.time() + self.frame_timeout
                deadline: float | None = self._frame_deadline
            else:
                deadline = None if self.idle_timeout is None else loop.time() + self.idle_timeout
            try:
                async with asyncio.timeout_at(deadline):
                    data = await self._reader.read(READ_CHUNK)
            except TimeoutError:
                if partial:
                    raise FrameTimeout(
                        self.culprit,
                        f"sent part of a frame and stalled for {self.frame_timeout:g} s",
                    ) from None
                raise FrameTimeout(
                    self.culprit, f"silent for more than {self.idle_timeout:g} s"
                ) from None
            if not data:
                if partial:
                    raise MalformedFrame(self.culprit, "connection closed in the middle of a frame")
                raise EOFError("end of stream")
            self._decoder.append(data)
        self._frame_deadline = None
        return frame


def write_frame(
    writer: asyncio.StreamWriter, payload: bytes, max_size: int = MAX_FRAME_SIZE
) -> None:
    writer.write(encode_frame(payload, max_size))


def pack_message(message: Mapping[str, Any]) -> bytes:
    """msgpack bytes of a message map (str keys, bytes as bin, no floats needed)."""
    packed: bytes = msgpack.packb(message, use_bin_type=True)
    return packed


def unpack_message(payload: bytes, culprit: str) -> dict[str, Any]:
    """Decode one message: a msgpack map with a string "t". Anything else is MalformedFrame."""
    try:
        message = msgpack.unpackb(
            payload,
            raw=False,
            strict_map_key=True,
            use_list=True,
            ext_hook=_reject_ext,
        )
    except msgpack.ExtraData:
        raise MalformedFrame(culprit, "trailing bytes after the message") from None
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as exc:
        raise MalformedFrame(culprit, f"not a msgpack message ({type(exc).__name__})") from None
    if not isinstance(message, dict):
        raise MalformedFrame(culprit, f"message is a {type(message).__name__}, not a map")
    if not isinstance(message.get("t"), str):
        raise MalformedFrame(culprit, 'message has no string type field "t"')
    return message


def _reject_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"msgpack extension type {code} is not used by this protocol")


def field(
    message: Mapping[str, Any], name: str, kind: type | tuple[type, ...], culprit: str
) -> Any:
    """`message[name]` checked to be of `kind` (bool is not accepted as int)."""
    value = message.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
        expected = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise MalformedFrame(
            culprit, f"message {message.get('t')!r}: field {name!r} must be {expected}"
        )
    return value


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)
