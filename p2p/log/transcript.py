"""Persistence: the transcript of a table and the peer's own secrets.

The transcript is an append-only file of records, each framed like the wire (4-byte big-endian
length, then one msgpack map):

    {"k": "header", "v": 1, "table": bytes, "roster": [key, ...], "seat": int}   first record
    {"k": "signed", "d": bytes, "s": bytes}    an envelope this peer signed, before sending it
    {"k": "applied", "d": bytes, "s": bytes}   an envelope applied to the log, in log order

`sync()` fsyncs; the log syncs after each batch of applied envelopes and before an own envelope
is sent, so a crash loses nothing applied and never makes a peer sign a place twice. A torn last
record (crash mid-write) is cut off on load; damage anywhere else is an error naming the file.
The transcript plus the roster's public keys is everything an auditor needs.

Secrets (per-game keys, nonces, shares) go to a separate `SecretStore` file, mode 0600, rewritten
atomically on every change.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from fairdeal.p2p.errors import EnvelopeError, MalformedFrame, P2PError
from fairdeal.p2p.identity import write_private_file
from fairdeal.p2p.log.envelope import Envelope, decode_envelope
from fairdeal.p2p.log.tablelog import Ordering, Roster, TableLog
from fairdeal.p2p.net.framing import MAX_FRAME_SIZE, PREFIX, PREFIX_SIZE, encode_frame, pack_message

TRANSCRIPT_VERSION = 1


class TranscriptError(P2PError):
    """The transcript or secrets file is damaged or belongs to another table."""


@dataclass(frozen=True)
class TranscriptContents:
    roster: Roster
    seat: int
    applied: list[Envelope]
    signed: list[Envelope]  # everything this peer signed (some may also be applied)
    extra: dict[str, Any] = field(default_factory=dict)  # e.g. the lobby's signed roster


class Transcript:
    """Append-only record of one table as seen by one peer."""

    def __init__(self, path: Path, file: BinaryIO) -> None:
        self.path = path
        self._file = file

    @classmethod
    def create(
        cls, path: Path, roster: Roster, seat: int, extra: dict[str, Any] | None = None
    ) -> Transcript:
        """A new transcript (the file must not exist). `extra` is kept in the header for
        auditors, e.g. the roster and options every seat signed in the lobby."""
        path.parent.mkdir(parents=True, exist_ok=True)
        file = open(path, "xb")  # noqa: SIM115 - owned by the Transcript, closed by close()
        transcript = cls(path, file)
        transcript._write(
            {
                "k": "header",
                "v": TRANSCRIPT_VERSION,
                "table": roster.table,
                "roster": list(roster.keys),
                "seat": seat,
                "extra": extra or {},
            }
        )
        transcript.sync()
        return transcript

    @classmethod
    def reopen(cls, path: Path) -> tuple[Transcript, TranscriptContents]:
        """Load an existing transcript (cutting a torn tail) and open it for appending."""
        contents, good_length = _read(path)
        file = open(path, "r+b")  # noqa: SIM115 - closed by close()
        file.truncate(good_length)
        file.seek(good_length)
        return cls(path, file), contents

    def append_signed(self, envelope: Envelope) -> None:
        """Record an own envelope and sync: call before sending it."""
        self._write({"k": "signed", "d": envelope.signed, "s": envelope.signature})
        self.sync()

    def append_applied(self, envelope: Envelope) -> None:
        """Record an applied envelope; call `sync()` after the batch."""
        self._write({"k": "applied", "d": envelope.signed, "s": envelope.signature})

    def sync(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if not self._file.closed:
            self.sync()
            self._file.close()

    def _write(self, record: dict[str, Any]) -> None:
        self._file.write(encode_frame(pack_message(record), MAX_FRAME_SIZE + 1024))


def load_transcript(path: Path) -> TranscriptContents:
    """Read a transcript without opening it for writing (e.g. for an audit)."""
    return _read(path)[0]


def replay(
    contents: TranscriptContents,
    ordering: Ordering,
    apply: Callable[[Envelope], None] | None = None,
) -> TableLog:
    """Rebuild the log from a transcript through the game's rules (an audit, or a restart).
    Raises TranscriptError if the rules do not apply every recorded envelope in order."""
    log = TableLog(contents.roster, ordering, apply)
    for envelope in contents.applied:
        log.receive(envelope, "transcript")
    if [e.signed for e in log.entries] != [e.signed for e in contents.applied]:
        raise TranscriptError(
            f"replay applied {len(log.entries)} of the {len(contents.applied)} recorded "
            f"envelopes ({len(log.faults)} faults): the transcript does not follow the rules"
        )
    return log


def _records(data: bytes, path: Path) -> Iterator[tuple[dict[str, Any], int]]:
    """(record, offset just past it) for each complete record; stops at a torn tail."""
    offset = 0
    while offset + PREFIX_SIZE <= len(data):
        (length,) = PREFIX.unpack_from(data, offset)
        end = offset + PREFIX_SIZE + length
        if length > MAX_FRAME_SIZE + 1024:
            raise TranscriptError(f"{path}: record at byte {offset} is impossibly long")
        if end > len(data):
            return  # torn tail
        try:
            record = msgpack.unpackb(data[offset + PREFIX_SIZE : end], raw=False)
        except (ValueError, msgpack.UnpackException) as exc:
            raise TranscriptError(f"{path}: record at byte {offset} is damaged ({exc})") from None
        if not isinstance(record, dict) or not isinstance(record.get("k"), str):
            raise TranscriptError(f"{path}: record at byte {offset} is not a record")
        yield record, end
        offset = end


def _read(path: Path) -> tuple[TranscriptContents, int]:
    data = path.read_bytes()
    records = _records(data, path)
    try:
        header, good_length = next(records)
    except StopIteration:
        raise TranscriptError(f"{path}: no header (empty or torn file)") from None
    table, keys, seat = header.get("table"), header.get("roster"), header.get("seat")
    if (
        header.get("k") != "header"
        or header.get("v") != TRANSCRIPT_VERSION
        or not isinstance(table, bytes)
        or not isinstance(keys, list)
        or not all(isinstance(key, bytes) and len(key) == 32 for key in keys)
        or not isinstance(seat, int)
    ):
        raise TranscriptError(f"{path}: not a version {TRANSCRIPT_VERSION} fairdeal transcript")
    roster = Roster(table, tuple(keys))
    extra = header.get("extra", {})
    if not isinstance(extra, dict):
        raise TranscriptError(f"{path}: header field extra is not a map")
    applied: list[Envelope] = []
    signed: list[Envelope] = []
    for record, end in records:
        kind = record["k"]
        if kind not in ("applied", "signed"):
            good_length = end  # a record kind from a later version: skip it
            continue
        signed_bytes, signature = record.get("d"), record.get("s")
        if not isinstance(signed_bytes, bytes) or not isinstance(signature, bytes):
            raise TranscriptError(f"{path}: envelope record without bytes d and s")
        try:
            envelope = decode_envelope(signed_bytes, signature, str(path))
        except (EnvelopeError, MalformedFrame) as exc:
            raise TranscriptError(f"{path}: bad envelope record: {exc}") from None
        if (
            envelope.table != roster.table
            or envelope.seat >= len(roster.keys)
            or not envelope.verify(roster.keys[envelope.seat])
        ):
            raise TranscriptError(
                f"{path}: record at byte {good_length} is not signed by seat {envelope.seat} "
                "of this table (damaged or forged)"
            )
        (applied if kind == "applied" else signed).append(envelope)
        good_length = end
    return TranscriptContents(roster, seat, applied, signed, extra), good_length


class SecretStore:
    """A small map of named secrets in a 0600 file, replaced atomically on each change.
    Values never appear in a repr or a log line."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._values: dict[str, Any] = {}
        if path.exists():
            if path.stat().st_mode & 0o077:
                raise TranscriptError(f"{path} is readable by other users; run `chmod 600 {path}`")
            try:
                values = msgpack.unpackb(path.read_bytes(), raw=False)
            except (ValueError, msgpack.UnpackException) as exc:
                raise TranscriptError(f"{path}: secrets file is damaged ({exc})") from None
            if not isinstance(values, dict):
                raise TranscriptError(f"{path}: secrets file is damaged (not a map)")
            self._values = values

    def __repr__(self) -> str:
        return f"SecretStore({str(self.path)!r}, {len(self._values)} entries)"

    def get(self, name: str, default: Any = None) -> Any:
        return self._values.get(name, default)

    def __contains__(self, name: str) -> bool:
        return name in self._values

    def names(self) -> list[str]:
        return list(self._values)

    def put(self, name: str, value: Any) -> None:
        self._values[name] = value
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_private_file(self.path, msgpack.packb(self._values, use_bin_type=True))
