"""Reading the framed records of a transcript (or its `.faults` file) strictly, one at a time.

A file of records is `u32be(L) || msgpack map` repeated (protocol.md 4.7). It is read as a
stream, one record in memory at a time, and a file larger than `MAX_TRANSCRIPT_SIZE` is refused
before anything is read. Damage is told apart from a crash's tail:

- the only thing a crash can leave is a *torn last record*: fewer than 4 prefix bytes, or a
  prefix no larger than the cap followed by the start of a msgpack map that ends with the file
  (no complete value in it). Those bytes are ignored and counted (`RecordReader.torn`);
- anything else — a prefix above the cap, a body that is not exactly one msgpack map with a
  string `k`, or a prefix reaching past the end of the file over bytes that are not such a
  start (an enlarged prefix swallowing later records, random bytes appended) — is a
  `RecordError` naming the byte offset of the record.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from fairdeal.p2p.errors import P2PError
from fairdeal.p2p.net.framing import MAX_FRAME_SIZE, PREFIX, PREFIX_SIZE

MAX_RECORD_SIZE = MAX_FRAME_SIZE + 1024  # an envelope of a full frame, with its record's keys
# A whole game of 8 seats and 3 hands is about 0.7 MB; 20 times that is not a transcript,
# and reading it would only cost memory and time.
MAX_TRANSCRIPT_SIZE = 16 * 1024 * 1024

_MAP_HEADERS = frozenset(range(0x80, 0x90)) | {0xDE, 0xDF}  # fixmap, map 16, map 32


class RecordError(P2PError):
    """A file of records is damaged; `offset` is where the bad record starts."""

    def __init__(self, path: Path | str, offset: int, detail: str) -> None:
        super().__init__(f"{path}: record at byte {offset} {detail}")
        self.path = str(path)
        self.offset = offset
        self.detail = detail


class FileTooLarge(RecordError):
    """A file over MAX_TRANSCRIPT_SIZE: refused before any of it is read."""

    def __init__(self, path: Path | str, size: int) -> None:
        detail = f"the file is {size} bytes, over the {MAX_TRANSCRIPT_SIZE}-byte cap"
        P2PError.__init__(self, f"{path}: {detail} (not a transcript)")
        self.path, self.offset, self.detail = str(path), 0, detail


@dataclass(frozen=True)
class Record:
    offset: int  # where its length prefix starts
    end: int  # just past it
    fields: dict[str, Any]

    @property
    def kind(self) -> str | None:
        kind = self.fields.get("k")
        return kind if isinstance(kind, str) else None


class RecordReader:
    """Iterate the complete records of `file` (of `size` bytes). After the iteration, `torn`
    is the number of bytes of a torn last record that were ignored (0: none) and `good_length`
    the length of the file without them."""

    def __init__(self, file: BinaryIO, path: Path | str, size: int, keyed: bool = True) -> None:
        """`keyed`: every record is a map with a text `k` (a transcript's; a `.faults` file's
        records are plain maps)."""
        self._file = file
        self._keyed = keyed
        self.path = path
        self.size = size
        self.torn = 0
        self.good_length = 0

    def __iter__(self) -> Iterator[Record]:
        offset = 0
        while offset < self.size:
            record = self._next(offset)
            if record is None:
                self.torn = self.size - offset
                return
            yield record
            offset = self.good_length = record.end

    def _next(self, offset: int) -> Record | None:
        remaining = self.size - offset
        prefix = self._file.read(min(PREFIX_SIZE, remaining))
        if len(prefix) < PREFIX_SIZE:
            return None  # the crash hit while the prefix was being written
        (length,) = PREFIX.unpack(prefix)
        if length > MAX_RECORD_SIZE:
            raise RecordError(
                self.path,
                offset,
                f"has an impossible length prefix {length} (cap {MAX_RECORD_SIZE})",
            )
        body = self._file.read(min(length, remaining - PREFIX_SIZE))
        if len(body) < length:
            if _is_torn_map(body):
                return None
            raise RecordError(
                self.path,
                offset,
                f"claims {length} bytes but only {len(body)} follow, and they are not the start "
                "of a record cut by a crash (a damaged length prefix, or bytes added)",
            )
        try:
            fields = msgpack.unpackb(body, raw=False, strict_map_key=True)
        except (ValueError, msgpack.UnpackException) as exc:
            raise RecordError(self.path, offset, f"is not one msgpack value ({exc})") from None
        if not isinstance(fields, dict):
            raise RecordError(self.path, offset, "is not a record (a map)")
        if self._keyed and not isinstance(fields.get("k"), str):
            raise RecordError(self.path, offset, "is not a record (a map with a text k)")
        return Record(offset, offset + PREFIX_SIZE + length, fields)


def _is_torn_map(body: bytes) -> bool:
    """True if `body` is what a crash leaves of a record: the start of a msgpack map, with no
    complete value in it."""
    if not body:
        return True
    if body[0] not in _MAP_HEADERS:
        return False
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=MAX_RECORD_SIZE)
    unpacker.feed(body)
    try:
        unpacker.unpack()
    except msgpack.OutOfData:
        return True
    except (ValueError, msgpack.UnpackException):
        return False
    return False  # a whole map: the prefix claims more than the record it frames


def open_records(path: Path) -> tuple[BinaryIO, int]:
    """Open a file of records for reading and check its size against the cap (OSError if it
    cannot be read, RecordError at offset 0 if it is too large)."""
    file = open(path, "rb")  # noqa: SIM115 - the caller closes it
    size = os.fstat(file.fileno()).st_size
    if size > MAX_TRANSCRIPT_SIZE:
        file.close()
        raise FileTooLarge(path, size)
    return file, size
