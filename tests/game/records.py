"""A transcript's records as dicts, to read, alter and write back (the format: protocol.md
4.7), and envelopes signed again with another body, for the tests that tamper with them."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import msgpack

from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.envelope import Envelope, sign_envelope


def read_records(path: Path) -> list[dict]:
    data, records, offset = path.read_bytes(), [], 0
    while offset < len(data):
        (length,) = struct.unpack_from(">I", data, offset)
        records.append(msgpack.unpackb(data[offset + 4 : offset + 4 + length], raw=False))
        offset += 4 + length
    return records


def write_records(path: Path, records: list[dict]) -> None:
    out = b""
    for record in records:
        payload = msgpack.packb(record, use_bin_type=True)
        out += struct.pack(">I", len(payload)) + payload
    path.write_bytes(out)


def applied_indices(records: list[dict]) -> list[int]:
    return [i for i, r in enumerate(records) if r["k"] == "applied"]


def seat_of(record: dict) -> int:
    return msgpack.unpackb(record["d"], raw=False)[2]


def swap_two_seats_envelopes(records: list[dict], start: int) -> tuple[int, int]:
    """Swap the first two adjacent applied envelopes of different seats from the `start`th
    applied one on, in place. Returns the swapped pair's place among the applied envelopes and
    the record index where the later envelope now stands out of its place."""
    applied = applied_indices(records)
    at = next(
        i
        for i in range(start, len(applied) - 1)
        if seat_of(records[applied[i]]) != seat_of(records[applied[i + 1]])
    )
    first, second = applied[at], applied[at + 1]
    records[first], records[second] = records[second], records[first]
    return at, first


def resigned(identity: Identity, envelope: Envelope, body: Any) -> Envelope:
    """`envelope` with another body, signed again by `identity` (its author's, for a tamper the
    signature cannot catch: only the rules can)."""
    return sign_envelope(
        identity,
        table=envelope.table,
        seat=envelope.seat,
        seq=envelope.seq,
        prev=envelope.prev,
        kind=envelope.kind,
        body=body,
    )
