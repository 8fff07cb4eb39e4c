"""What a seat keeps beside its transcript about leaving (protocol.md 10.12).

`TRANSCRIPT.left` holds the signed `left` messages of the table, framed msgpack records
`{"d", "s"}`: the other seats' as they arrive, and this seat's own when it leaves or ends the
table. `TRANSCRIPT.ended` (JSON `{"seat", "reason"}`) says that this seat left or ended the table:
`host`, `bot --peer` and the app's join never take such a seat back by themselves (README "Headless
peers"); `fairdeal resume TRANSCRIPT` does, on purpose, and removes the marker.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import msgpack

from fairdeal.p2p.errors import P2PError
from fairdeal.p2p.log.tablelog import Roster, genesis_head
from fairdeal.p2p.log.transcript import open_private
from fairdeal.p2p.net.framing import (
    MAX_FRAME_SIZE,
    FrameDecoder,
    encode_frame,
    pack_message,
)
from fairdeal.p2p.table.core.leaving import LeftMessage, parse_left

# A seat's `left` messages kept beside a transcript: one per log head, at most this many. A seat
# that leaves and comes back again and again shows each time, but cannot grow the file further.
MAX_KEPT_PER_SEAT = 16


def left_path(transcript: Path) -> Path:
    """Where a peer keeps the signed `left` messages of its table (protocol.md 10.12)."""
    return transcript.with_name(transcript.name + ".left")


def ended_marker(transcript: Path) -> Path:
    """Present while this seat has left (or ended) the table of `transcript`."""
    return transcript.with_name(transcript.name + ".ended")


def append_left(transcript: Path, message: LeftMessage) -> None:
    with open_private(left_path(transcript), append=True) as file:
        file.write(encode_frame(pack_message(message.record()), MAX_FRAME_SIZE))


def read_left(transcript: Path, roster: Roster) -> list[LeftMessage]:
    """Every valid `left` message kept beside `transcript`, once each, in the order kept. A
    record that does not verify is skipped: the file is evidence, not a source of truth."""
    path = left_path(transcript)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    decoder = FrameDecoder(str(path))
    try:
        frames = decoder.feed(data)
    except P2PError:
        return []
    found: list[LeftMessage] = []
    seen: set[bytes] = set()
    for frame in frames:
        try:
            record = msgpack.unpackb(frame, raw=False)
            if not isinstance(record, dict):
                continue
            message = parse_left(record, roster, str(path))
        except (P2PError, ValueError, msgpack.UnpackException):
            continue
        if message.signed not in seen:
            seen.add(message.signed)
            found.append(message)
    return found


def mark_ended(transcript: Path, seat: int, reason: str) -> None:
    marker = ended_marker(transcript)
    marker.write_text(json.dumps({"seat": seat, "reason": reason}))
    marker.chmod(0o600)


def clear_ended(transcript: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        ended_marker(transcript).unlink()


def ended_reason(transcript: Path) -> str | None:
    """Why this seat left its table ("Ann ended the table after Bob left"), if it did."""
    try:
        data = json.loads(ended_marker(transcript).read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return "this seat left the table"
    reason = data.get("reason") if isinstance(data, dict) else None
    return reason if isinstance(reason, str) and reason else "this seat left the table"


@dataclass(frozen=True)
class Departure:
    """A seat that left, and after how many entries of the log (None: a head this log never
    had, e.g. past the end of a transcript that stops earlier)."""

    seat: int
    reason: str
    entries: int | None
    ended: bool  # another seat had left before it: it ended the table


def departures(messages: list[LeftMessage], table: bytes, ids: list[bytes]) -> list[Departure]:
    """The `left` messages as departures, their heads placed on the log of entry `ids`."""
    head = genesis_head(table)
    at = {head: 0}
    for count, envelope_id in enumerate(ids, start=1):
        head = hashlib.sha256(head + envelope_id).digest()  # as tablelog.next_head
        at[head] = count
    out: list[Departure] = []
    for index, message in enumerate(messages):
        ended = any(m.seat != message.seat for m in messages[:index])
        out.append(Departure(message.seat, message.reason, at.get(message.head), ended))
    return out
