"""Signed envelopes: the unit of the table log.

An envelope's signed bytes `d` are the canonical msgpack array

    [2, table, seat, seq, prev, kind, body]

(layout version, table id, author's seat, per-seat sequence number from 0, hash of the author's
log head when it signed, message kind, message body). Layout 2 (protocol version 3) has no
Lamport time: the log's order is the games' turn order (The Lie's Phase 1 runs in steps taken in
seat order), so no value an author chooses can stop an honest seat from signing.

The signature is Ed25519 over ENVELOPE_DOMAIN || d by the key the roster gives that seat. On the
wire an envelope travels as {"t": "env", "d": d, "s": signature}; since the signature covers
everything, any peer may relay it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairdeal.p2p.canonical import NotCanonical, pack_canonical, unpack_canonical
from fairdeal.p2p.errors import EnvelopeError
from fairdeal.p2p.identity import SIGNATURE_SIZE, Identity, verify_signature
from fairdeal.p2p.net.kinds import ENV

ENVELOPE_VERSION = 2
ENVELOPE_DOMAIN = b"fairdeal/envelope/v2\x00"
HASH_SIZE = 32
MAX_KIND_LENGTH = 64
MAX_SEAT = 255
MAX_SEQ = (1 << 64) - 1  # msgpack's largest unsigned integer: a seq can always be read


@dataclass(frozen=True)
class Envelope:
    """A parsed envelope. `signed` and `signature` are the evidence; the rest is decoded."""

    table: bytes
    seat: int
    seq: int
    prev: bytes
    kind: str
    body: Any = field(compare=False)
    signed: bytes = field(repr=False)
    signature: bytes = field(repr=False)

    @property
    def id(self) -> bytes:
        """SHA-256 of the signed bytes: what the log head chains."""
        return hashlib.sha256(self.signed).digest()

    def to_wire(self) -> dict[str, Any]:
        return {"t": ENV, "d": self.signed, "s": self.signature}

    def verify(self, public_key: bytes) -> bool:
        return verify_signature(public_key, self.signature, ENVELOPE_DOMAIN + self.signed)

    def __str__(self) -> str:
        return f"{self.kind} #{self.seq} by seat {self.seat}"


def sign_envelope(
    identity: Identity,
    *,
    table: bytes,
    seat: int,
    seq: int,
    prev: bytes,
    kind: str,
    body: Any,
) -> Envelope:
    signed = pack_canonical([ENVELOPE_VERSION, table, seat, seq, prev, kind, body])
    signature = identity.sign(ENVELOPE_DOMAIN + signed)
    return decode_envelope(signed, signature, "self")


def parse_envelope(message: Mapping[str, Any], culprit: str) -> Envelope:
    """An envelope from a wire message {"t": "env", "d": ..., "s": ...}; structure only, the
    signature is checked by the log against the roster."""
    signed, signature = message.get("d"), message.get("s")
    if not isinstance(signed, bytes) or not isinstance(signature, bytes):
        raise EnvelopeError(culprit, 'envelope needs bytes fields "d" and "s"')
    return decode_envelope(signed, signature, culprit)


def decode_envelope(signed: bytes, signature: bytes, culprit: str) -> Envelope:
    if len(signature) != SIGNATURE_SIZE:
        raise EnvelopeError(culprit, "envelope signature must be 64 bytes")
    try:
        fields = unpack_canonical(signed)
    except NotCanonical as exc:
        raise EnvelopeError(culprit, f"envelope is not canonical msgpack: {exc}") from None
    if not isinstance(fields, list) or not fields:
        raise EnvelopeError(culprit, "envelope must be an array")
    version = fields[0]
    if version != ENVELOPE_VERSION or isinstance(version, bool):
        what = "protocol version 2 or older" if version == 1 else "an unknown layout"
        raise EnvelopeError(
            culprit,
            f"unsupported envelope layout {version!r:.20} ({what}; this peer speaks protocol "
            f"version 3, envelope layout {ENVELOPE_VERSION})",
        )
    if len(fields) != 7:
        raise EnvelopeError(culprit, "envelope must be an array of 7 fields")
    _, table, seat, seq, prev, kind, body = fields
    if not isinstance(table, bytes) or not 1 <= len(table) <= 64:
        raise EnvelopeError(culprit, "envelope table id must be 1 to 64 bytes")
    for name, value, limit in (("seat", seat, MAX_SEAT), ("seq", seq, MAX_SEQ)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise EnvelopeError(culprit, f"envelope {name} must be an integer ≥ 0")
        if value > limit:
            raise EnvelopeError(culprit, f"envelope {name} {value} is out of range")
    if not isinstance(prev, bytes) or len(prev) != HASH_SIZE:
        raise EnvelopeError(culprit, "envelope prev must be a 32-byte hash")
    if (
        not isinstance(kind, str)
        or not 1 <= len(kind) <= MAX_KIND_LENGTH
        or not all("!" <= ch <= "~" for ch in kind)
    ):
        raise EnvelopeError(
            culprit,
            f"envelope kind must be 1 to {MAX_KIND_LENGTH} printable ASCII characters, no spaces",
        )
    return Envelope(table, seat, seq, prev, kind, body, signed, signature)
