"""The signed evidence of faults a seat keeps beside its transcript (`<transcript>.faults`).

Equivocation and a bad chain never enter the log, and a transcript cut before an applied
envelope that broke the rules would audit as a clean game: so the envelopes that prove a fault
are appended to the `.faults` file, synced, once each (a replay after a restart finds the same
fault again). `fairdeal audit` checks them (protocol.md 10.4).

The file stays small whatever a seat sends: the log proves each seat's equivocation once, and
the table stops on its first fault, so it holds at most one record per seat and two more (the
fault that stopped the table, a withheld reveal), each at most two envelopes (protocol.md 4.4).
The records already written are read once, when the first fault comes, not again for each.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.transcript import TranscriptWriteError, open_private
from fairdeal.p2p.net.framing import MAX_FRAME_SIZE, encode_frame, pack_message


def evidence_path(transcript: Path) -> Path:
    """Where a peer keeps the signed evidence of faults that never enter the log."""
    return transcript.with_name(transcript.name + ".faults")


class EvidenceFile:
    """The `.faults` file of one transcript; a failed write goes to `on_failure`."""

    def __init__(
        self, transcript: Path, on_failure: Callable[[TranscriptWriteError], None]
    ) -> None:
        self.path = evidence_path(transcript)
        self.kept = False  # a fault's evidence is in the file
        self._on_failure = on_failure
        self._written: set[bytes] | None = None  # digests of the records in the file

    def keep(self, seat: int, kind: str, detail: str, evidence: Sequence[Envelope]) -> None:
        """Append a fault and its signed envelopes (once), synced."""
        self.kept = True
        record = {
            "seat": seat,
            "kind": kind,
            "detail": detail,
            "evidence": [[e.signed, e.signature] for e in evidence],
        }
        frame = encode_frame(pack_message(record), MAX_FRAME_SIZE)
        written = self._records_written()
        digest = hashlib.sha256(frame).digest()
        if digest in written:
            return
        written.add(digest)
        try:
            with open_private(self.path, append=True) as file:
                file.write(frame)
                file.flush()
                os.fsync(file.fileno())
        except OSError as error:
            self._on_failure(TranscriptWriteError(self.path, error))

    def _records_written(self) -> set[bytes]:
        """The digests of the records already in the file (a restarted peer finds its faults
        again), read from disk the first time only."""
        if self._written is None:
            data = self.path.read_bytes() if self.path.exists() else b""
            self._written = set()
            offset = 0
            while offset + 4 <= len(data):
                end = offset + 4 + int.from_bytes(data[offset : offset + 4], "big")
                self._written.add(hashlib.sha256(data[offset:end]).digest())
                offset = end
        return self._written
