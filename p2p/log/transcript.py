"""Persistence: the transcript of a table and the peer's own secrets.

The transcript is an append-only file of records, each framed like the wire (4-byte big-endian
length, then one msgpack map):

    {"k": "header", "v": 1, "proto": 5, "table": bytes, "roster": [key, ...], "seat": int}
    {"k": "signed", "d": bytes, "s": bytes}    an envelope this peer signed, before sending it
    {"k": "applied", "d": bytes, "s": bytes}   an envelope applied to the log, in log order

The header comes first; `proto` is the protocol version that made the file (absent: version 1,
refused by `check_protocol_version`). `sync()` fsyncs; the log syncs once per turn of the event
loop, after the batch of applied envelopes and the own envelopes signed in it, and sends none of
those own envelopes before (p2p/log/sync.py), so a crash loses nothing applied and never makes a
peer sign a place twice; a batch of applied records alone is fsynced on a worker thread
(`sync_in_background`), which the next `sync()` waits for. Reopening fsyncs the file first. A
torn last record (crash mid-write) is cut off on reopen and kept aside in
`<file>.torn-at-<offset>`; damage anywhere else (p2p.log.records tells the two apart) is an
error naming the file and the byte offset, and the file is left as it is.
The transcript plus the roster's public keys is everything an auditor needs.

Secrets (per-game keys, nonces, shares) go to a separate `SecretStore` file, private (mode 0600
on POSIX, p2p/platform.py), rewritten atomically on every change.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from fairdeal.p2p import platform
from fairdeal.p2p.errors import EnvelopeError, MalformedFrame, P2PError
from fairdeal.p2p.identity import write_private_file
from fairdeal.p2p.log.envelope import Envelope, decode_envelope
from fairdeal.p2p.log.records import (
    MAX_RECORD_SIZE,
    Record,
    RecordError,
    RecordReader,
    open_records,
)
from fairdeal.p2p.log.tablelog import Ordering, Roster, Rules, TableLog
from fairdeal.p2p.net.framing import encode_frame, pack_message
from fairdeal.p2p.net.handshake import PROTOCOL_VERSION

TRANSCRIPT_VERSION = 1


class TranscriptError(P2PError):
    """The transcript or secrets file is damaged or belongs to another table."""


class TranscriptWriteError(TranscriptError):
    """The disk refused a write (full, read-only, gone). Everything written before stays; the
    seat must stop, and can resume once the disk takes writes again."""

    def __init__(self, path: Path, error: OSError) -> None:
        reason = (
            "no space left on the disk"
            if error.errno == errno.ENOSPC
            else error.strerror or str(error)
        )
        super().__init__(
            f"cannot write {path}: {reason}. Everything written before is kept: free some space "
            "(or make it writable), then run the same command again (or `fairdeal resume` on "
            "the table's transcript) to take the seat back"
        )
        self.errno = error.errno


class TranscriptVersionError(TranscriptError):
    """The transcript was made by another protocol version: refused before any proof runs."""


def check_protocol_version(header: dict[str, Any], path: Path | str) -> None:
    """The one check of a transcript's protocol version, for loading, resume and audit alike.
    Headers written before the field existed (no `proto`) are protocol version 1."""
    made_by = header.get("proto", 1)
    if made_by != PROTOCOL_VERSION:
        shown = made_by if isinstance(made_by, int) else repr(made_by)
        raise TranscriptVersionError(
            f"{path}: made by protocol version {shown}; this fairdeal speaks protocol version "
            f"{PROTOCOL_VERSION} and can neither audit nor resume it"
        )


@dataclass(frozen=True)
class TranscriptContents:
    roster: Roster
    seat: int
    applied: list[Envelope]
    signed: list[Envelope]  # everything this peer signed (some may also be applied)
    extra: dict[str, Any] = field(default_factory=dict)  # e.g. the lobby's signed roster


class Transcript:
    """Append-only record of one table as seen by one peer."""

    def __init__(self, path: Path, file: BinaryIO, header: dict[str, Any] | None = None) -> None:
        """`header`: a new file's first record (`create`); a reopened one has it already."""
        self.path = path
        self._file = file
        self.failure: TranscriptWriteError | None = None  # once a write failed, no more writes
        self._background: ThreadPoolExecutor | None = None  # one worker: fsyncs run in order
        self._pending: Future[None] | None = None  # the last fsync handed to it
        self._background_lock = threading.Lock()
        self._background_running = False  # the worker is fsyncing (it checks `_again` after)
        self._background_again = False  # written since the running fsync began
        self._background_error: OSError | None = None  # set by the worker, read by the loop
        if header is not None:
            self._write(header)

    @classmethod
    def create(
        cls, path: Path, roster: Roster, seat: int, extra: dict[str, Any] | None = None
    ) -> Transcript:
        """A new transcript (the file must not exist). `extra` is kept in the header for
        auditors, e.g. the roster and options every seat signed in the lobby."""
        # The game's log is private, like the identity: a new folder 0700, the file
        # 0600 whatever the umask or the mode of the data directory (POSIX; p2p/platform.py).
        platform.current().private_folder(path.parent)
        file = open_private(path)
        header = {
            "k": "header",
            "v": TRANSCRIPT_VERSION,
            "proto": PROTOCOL_VERSION,
            "table": roster.table,
            "roster": list(roster.keys),
            "seat": seat,
            "extra": extra or {},
        }
        transcript = cls(path, file, header)
        transcript.sync()
        return transcript

    @classmethod
    def reopen(cls, path: Path) -> tuple[Transcript, TranscriptContents]:
        """Load an existing transcript (cutting a torn tail) and open it for appending."""
        contents, reader = _read(path)
        file = open(path, "r+b")  # noqa: SIM115 - closed by close()
        try:
            if reader.torn:
                _keep_aside(file, path, reader.good_length)
                file.truncate(reader.good_length)
            file.seek(reader.good_length)
            # The last turn's records may have reached the OS but not the disk (the process
            # died before its fsync): on disk before any of them is sent again.
            os.fsync(file.fileno())
        except OSError as error:
            file.close()
            raise TranscriptWriteError(path, error) from None
        except BaseException:
            file.close()
            raise
        return cls(path, file), contents

    def append_signed(self, envelope: Envelope) -> None:
        """Record an own envelope and hand it to the operating system; `sync()` before sending
        it (one fsync may serve several)."""
        self._write({"k": "signed", "d": envelope.signed, "s": envelope.signature})
        self.hand_over()

    def append_applied(self, envelope: Envelope) -> None:
        """Record an applied envelope; call `sync()` after the batch."""
        self._write({"k": "applied", "d": envelope.signed, "s": envelope.signature})

    def sync(self) -> None:
        """Everything written is on disk when this returns (after any fsync in the background
        has finished: its error, if it had one, is raised here)."""
        self.join_background()
        self._guarded(self._flush)

    def sync_in_background(self, on_error: Callable[[], object]) -> None:
        """Hand what is written to the operating system now and fsync it on a worker thread,
        so that the event loop is not blocked on the disk: for records nothing waits on (the
        applied ones). If an fsync is running already, the worker runs one more after it (one
        for any number of batches meanwhile). If an fsync fails, `on_error` is called (on the
        worker thread) and the next write, `sync` or `join_background` raises the error."""
        self._guarded(self._file.flush)
        with self._background_lock:
            if self._background_running:
                self._background_again = True
                return
            self._background_running = True
        if self._background is None:
            self._background = ThreadPoolExecutor(1, thread_name_prefix="transcript-fsync")
        fd = self._file.fileno()
        self._pending = self._background.submit(self._fsync_in_background, fd, on_error)

    def join_background(self) -> None:
        """Wait for an fsync running in the background; raise its error, if it had one."""
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.result()  # never raises: the error is kept in _background_error
        error = self._background_error
        if error is not None and self.failure is None:
            self.failure = TranscriptWriteError(self.path, error)
        if self.failure is not None:
            raise self.failure

    def _fsync_in_background(self, fd: int, on_error: Callable[[], object]) -> None:
        while self._background_error is None:  # the first error stands: no fsync after it
            try:
                os.fsync(fd)
            except OSError as error:
                self._background_error = error
                with contextlib.suppress(RuntimeError):  # e.g. the loop it tells was closed
                    on_error()
            with self._background_lock:
                if not self._background_again or self._background_error is not None:
                    self._background_running = False
                    return
                self._background_again = False  # more was written meanwhile: once more
        with self._background_lock:
            self._background_running = False

    def hand_over(self) -> None:
        """Hand what is written to the operating system, without waiting for the disk: a
        crash of this process then loses nothing, readers see it; `sync()` makes it durable."""
        self._guarded(self._file.flush)

    @property
    def closed(self) -> bool:
        return self._file.closed

    def close(self) -> None:
        if self._file.closed:
            return
        with contextlib.suppress(TranscriptWriteError):
            self.join_background()
        if self._background is not None:
            self._background.shutdown()
        if self.failure is None:
            with contextlib.suppress(TranscriptWriteError):
                self.sync()
        with contextlib.suppress(OSError):  # a failed disk: what it took is all there is
            self._file.close()

    def _write(self, record: dict[str, Any]) -> None:
        frame = encode_frame(pack_message(record), MAX_RECORD_SIZE)
        self._guarded(lambda: self._file.write(frame))

    def _flush(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    def _guarded(self, write: Callable[[], object]) -> None:
        """Run a write; the first OSError becomes `failure` and every later write raises it,
        so nothing is appended after a record the disk may have cut (its torn tail)."""
        if self.failure is None and self._background_error is not None:
            self.failure = TranscriptWriteError(self.path, self._background_error)
        if self.failure is not None:
            raise self.failure
        try:
            write()
        except OSError as error:
            self.failure = TranscriptWriteError(self.path, error)
            raise self.failure from None


def load_transcript(path: Path) -> TranscriptContents:
    """Read a transcript without opening it for writing (e.g. for an audit)."""
    return _read(path)[0]


def done_marker(transcript: Path) -> Path:
    """The empty file a peer leaves beside a transcript whose game is over."""
    return transcript.with_name(transcript.name + ".done")


def mark_done(transcript: Path) -> None:
    """The game of `transcript` is over (finished or stopped by a fault): a rerun of the
    command that played it starts a new table instead of resuming it."""
    with contextlib.suppress(OSError):  # only a shortcut: resume_point would find it over
        done_marker(transcript).touch()


def read_header(path: Path) -> tuple[Roster, int, dict[str, Any]]:
    """The roster, seat and extra of a transcript, reading its first record only."""
    try:
        file, size = open_records(path)
    except RecordError as error:
        raise TranscriptError(str(error)) from None
    with file:
        try:
            return parse_header(next(iter(RecordReader(file, path, size)), None), path)
        except RecordError as error:
            raise TranscriptError(str(error)) from None


def _keep_aside(file: BinaryIO, path: Path, good_length: int) -> None:
    """Copy the torn last record to its own file before it is cut off: nothing is destroyed."""
    file.seek(good_length)
    tail = file.read()
    aside = torn_tail_path(path, good_length)
    with open(aside, "wb") as out:
        out.write(tail)
        out.flush()
        os.fsync(out.fileno())


def replay(
    contents: TranscriptContents,
    ordering: Ordering | Rules,
    apply: Callable[[Envelope], None] | None = None,
) -> TableLog:
    """Rebuild the log from a transcript through the game's rules (an audit, or a restart).
    Raises TranscriptError if the rules do not apply every recorded envelope in order."""
    log = TableLog(contents.roster, ordering, apply)
    log.replay(contents.applied)  # a cut simultaneous phase included
    if [e.signed for e in log.entries] != [e.signed for e in contents.applied]:
        raise TranscriptError(
            f"replay applied {len(log.entries)} of the {len(contents.applied)} recorded "
            f"envelopes ({len(log.faults)} faults): the transcript does not follow the rules"
        )
    return log


def parse_header(record: Record | None, path: Path) -> tuple[Roster, int, dict[str, Any]]:
    """The roster, seat and extra of a transcript's first record (TranscriptError if it is not
    a header of this version, or its seat is not one of the roster's)."""
    if record is None:
        raise TranscriptError(f"{path}: no header (empty or torn file)")
    header = record.fields
    table, keys, seat = header.get("table"), header.get("roster"), header.get("seat")
    if header.get("k") == "header":
        check_protocol_version(header, path)
    if (
        header.get("k") != "header"
        or header.get("v") != TRANSCRIPT_VERSION
        or not isinstance(table, bytes)
        or not isinstance(keys, list)
        or not all(isinstance(key, bytes) and len(key) == 32 for key in keys)
        or not isinstance(seat, int)
        or isinstance(seat, bool)
    ):
        raise TranscriptError(f"{path}: not a version {TRANSCRIPT_VERSION} fairdeal transcript")
    if not 0 <= seat < len(keys):
        raise TranscriptError(f"{path}: the header's seat {seat} is not a seat of its roster")
    extra = header.get("extra", {})
    if not isinstance(extra, dict):
        raise TranscriptError(f"{path}: header field extra is not a map")
    return Roster(table, tuple(keys)), seat, extra


def record_envelope(record: Record, roster: Roster, path: Path) -> Envelope:
    """The envelope of an `applied` or `signed` record, its signature verified against the
    roster (TranscriptError naming the record's byte offset otherwise)."""
    signed_bytes, signature = record.fields.get("d"), record.fields.get("s")
    if not isinstance(signed_bytes, bytes) or not isinstance(signature, bytes):
        raise TranscriptError(f"{path}: record at byte {record.offset}: no bytes d and s")
    try:
        envelope = decode_envelope(signed_bytes, signature, str(path))
    except (EnvelopeError, MalformedFrame) as exc:
        raise TranscriptError(
            f"{path}: record at byte {record.offset}: bad envelope: {exc}"
        ) from None
    if (
        envelope.table != roster.table
        or envelope.seat >= len(roster.keys)
        or not envelope.verify(roster.keys[envelope.seat])
    ):
        raise TranscriptError(
            f"{path}: record at byte {record.offset} is not signed by seat {envelope.seat} "
            "of this table (damaged or forged)"
        )
    return envelope


def _read(path: Path) -> tuple[TranscriptContents, RecordReader]:
    try:
        file, size = open_records(path)
    except RecordError as error:
        raise TranscriptError(str(error)) from None
    with file:
        reader = RecordReader(file, path, size)
        try:
            return _contents(reader, path), reader
        except RecordError as error:
            raise TranscriptError(str(error)) from None


def _contents(reader: RecordReader, path: Path) -> TranscriptContents:
    records = iter(reader)
    roster, seat, extra = parse_header(next(records, None), path)
    applied: list[Envelope] = []
    signed: list[Envelope] = []
    for record in records:
        kind = record.kind
        if kind == "header":
            raise TranscriptError(f"{path}: record at byte {record.offset} is a second header")
        if kind not in ("applied", "signed"):
            continue  # a record kind from a later version: skip it
        envelope = record_envelope(record, roster, path)
        if kind == "signed" and envelope.seat != seat:
            raise TranscriptError(
                f"{path}: record at byte {record.offset} is seat {envelope.seat}'s own "
                f"envelope in seat {seat}'s transcript (the header's seat was changed?)"
            )
        (applied if kind == "applied" else signed).append(envelope)
    return TranscriptContents(roster, seat, applied, signed, extra)


def torn_tail_path(path: Path, offset: int) -> Path:
    """Where `Transcript.reopen` keeps the bytes of a torn last record it cut off."""
    return path.with_name(f"{path.name}.torn-at-{offset}")


def open_private(path: Path, *, append: bool = False) -> BinaryIO:
    """Open `path` for writing, readable and writable by its owner only (mode 0600 on POSIX,
    p2p/platform.py). A new file (append=False) must not exist yet."""
    return platform.open_private_file(path, append=append)


class SecretStore:
    """A small map of named secrets in a private file, replaced atomically on each change.
    Values never appear in a repr or a log line."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._values: dict[str, Any] = {}
        if path.exists():
            problem = platform.current().privacy_problem(path, path.stat())
            if problem is not None:
                raise TranscriptError(problem)
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
        previous = self._values.get(name)
        self._values[name] = value
        try:
            platform.current().private_folder(self.path.parent)
            write_private_file(self.path, msgpack.packb(self._values, use_bin_type=True))
        except OSError as error:  # the old file is still whole (the write is atomic)
            if previous is None:
                del self._values[name]
            else:
                self._values[name] = previous
            raise TranscriptWriteError(self.path, error) from None
