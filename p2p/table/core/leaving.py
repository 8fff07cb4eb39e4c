"""The signed `left` message: a seat tells the table it has left for good (protocol.md 10.12).

Its signed bytes `d` are the canonical msgpack array

    [1, "left", table, seat, head, reason]

(version, the kind, the table id, the author's seat, the head of the author's table log when it
left, and a short text for the others to show). The signature is Ed25519 over LEFT_DOMAIN || d by
the key the roster gives that seat. On the wire: {"t": "left", "d": d, "s": signature}; since the
signature covers everything, any peer may relay it. It is not an envelope of the log: it has no
sequence number, so it can never collide with the seat's next envelope, and a seat may send it
whatever the log expects next.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairdeal.p2p.canonical import NotCanonical, pack_canonical, unpack_canonical
from fairdeal.p2p.errors import EnvelopeError
from fairdeal.p2p.identity import SIGNATURE_SIZE, Identity, verify_signature
from fairdeal.p2p.log.envelope import HASH_SIZE
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.net import kinds

LEFT = kinds.LEFT
LEFT_VERSION = 1
LEFT_DOMAIN = b"fairdeal/left/v1\x00"
MAX_REASON_LENGTH = 200  # characters


@dataclass(frozen=True)
class LeftMessage:
    table: bytes
    seat: int
    head: bytes
    reason: str
    signed: bytes = field(repr=False)
    signature: bytes = field(repr=False)

    def to_wire(self) -> dict[str, Any]:
        return {"t": LEFT, "d": self.signed, "s": self.signature}

    def record(self) -> dict[str, Any]:
        """What a peer keeps beside its transcript as evidence (`<transcript>.left`)."""
        return {"d": self.signed, "s": self.signature}


def sign_left(
    identity: Identity, roster: Roster, seat: int, head: bytes, reason: str
) -> LeftMessage:
    reason = "".join(ch for ch in reason if ch.isprintable())[:MAX_REASON_LENGTH]
    signed = pack_canonical([LEFT_VERSION, LEFT, roster.table, seat, head, reason])
    signature = identity.sign(LEFT_DOMAIN + signed)
    return LeftMessage(roster.table, seat, head, reason, signed, signature)


def parse_left(message: Mapping[str, Any], roster: Roster, culprit: str) -> LeftMessage:
    """A `left` message checked against `roster`: its form, its table, its seat, its signature.
    Raises EnvelopeError naming `culprit` (the peer that delivered it)."""
    signed, signature = message.get("d"), message.get("s")
    if not isinstance(signed, bytes) or not isinstance(signature, bytes):
        raise EnvelopeError(culprit, 'left needs bytes fields "d" and "s"')
    if len(signature) != SIGNATURE_SIZE:
        raise EnvelopeError(culprit, "left signature must be 64 bytes")
    try:
        fields = unpack_canonical(signed)
    except NotCanonical as exc:
        raise EnvelopeError(culprit, f"left is not canonical msgpack: {exc}") from None
    if not isinstance(fields, list) or len(fields) != 6:
        raise EnvelopeError(culprit, "left must be an array of 6 fields")
    version, kind, table, seat, head, reason = fields
    if version != LEFT_VERSION or isinstance(version, bool) or kind != LEFT:
        raise EnvelopeError(culprit, f"not a left message of version {LEFT_VERSION}")
    if table != roster.table:
        raise EnvelopeError(culprit, "left is for another table")
    if type(seat) is not int or not 0 <= seat < len(roster.keys):
        raise EnvelopeError(culprit, f"left names no seat of this table ({seat!r:.20})")
    if not isinstance(head, bytes) or len(head) != HASH_SIZE:
        raise EnvelopeError(culprit, "left head must be a 32-byte hash")
    if not isinstance(reason, str) or len(reason) > MAX_REASON_LENGTH or not reason.isprintable():
        raise EnvelopeError(
            culprit, f"left reason must be printable text of at most {MAX_REASON_LENGTH}"
        )
    if not verify_signature(roster.keys[seat], signature, LEFT_DOMAIN + signed):
        raise EnvelopeError(culprit, f"left is not signed by seat {seat}")
    return LeftMessage(table, seat, head, reason, signed, signature)
