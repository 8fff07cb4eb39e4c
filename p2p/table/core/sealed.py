"""A give-away's forward carried the way envelopes are: sealed to its receiver, relayed by anyone
(protocol.md 10.8).

The giver seals its signed forward F (p2p/table/core/forwards.py) to the receiver's identity key, so
only the receiver can open it, and signs the sealed box with the table, the two seats and the
Transfer id. It sends that to every seat; a seat that takes one for another seat for the first
time passes it on to the seats that may lack it (not the one that delivered it, not the giver),
so a gift reaches its receiver while any path of live links joins the two, as an envelope does
(4.4). A relay checks the giver's signature before it passes anything on (nobody makes honest
seats carry junk in another seat's name) and learns nothing it did not know: who gives to whom
is public in the log's Transfer, the shares are in the box.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nacl.exceptions import CryptoError

from fairdeal.p2p.canonical import NotCanonical, pack_canonical, unpack_canonical
from fairdeal.p2p.errors import MalformedFrame, PeerError
from fairdeal.p2p.identity import Identity, seal_to, verify_signature
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.net import kinds
from fairdeal.p2p.table.core.forwards import MAX_ID, SIGNATURE_BYTES, SignedForward

FORWARD_MESSAGE = kinds.FWD
# A sealed F: one card's shares from one seat (a few hundred bytes at 8 seats) and the
# signature, 48 bytes of box; anything far larger is not a forward.
MAX_BOX_BYTES = 16 * 1024


def sealed_context(game: str) -> bytes:
    """What the giver's signature of a sealed forward starts with, a zero byte after it."""
    return f"fairdeal/{game}.sealed-forward/v1".encode() + b"\x00"


@dataclass(frozen=True, slots=True)
class SealedForward:
    """F sealed to seat `to` by seat `giver` for Transfer `transfer`, signed by the giver."""

    giver: int
    to: int
    transfer: int
    box: bytes
    signature: bytes

    def __repr__(self) -> str:
        return f"SealedForward(giver={self.giver}, to={self.to}, transfer={self.transfer})"

    def to_wire(self, table: bytes) -> dict[str, Any]:
        return {
            "t": FORWARD_MESSAGE,
            "table": table,
            "from": self.giver,
            "to": self.to,
            "transfer": self.transfer,
            "box": self.box,
            "sig": self.signature,
        }

    def open(self, identity: Identity) -> Any:
        """The F inside, for the receiver (`identity`): its data as the giver sealed it, in
        canonical msgpack (the table checks it as it checks any forward). PeerError naming the
        giver when the box does not open for us: the giver signed it, so it is at fault."""
        try:
            return unpack_canonical(identity.unseal(self.box))
        except (CryptoError, NotCanonical):
            raise PeerError(f"seat {self.giver}", "sealed a forward that does not open") from None


def statement(game: str, table: bytes, giver: int, to: int, transfer: int, box: bytes) -> bytes:
    """The bytes a giver signs: context ‖ canonical msgpack {"box","from","table","to",
    "transfer"}."""
    signed = {"table": table, "from": giver, "to": to, "transfer": transfer, "box": box}
    return sealed_context(game) + pack_canonical(signed)


def seal_forward(
    identity: Identity, seat: int, roster: Roster, game: str, forward: SignedForward
) -> SealedForward:
    """`forward` sealed to its receiver and signed by `identity`, seat `seat` (its giver, when
    honest: the receiver refuses an F whose giver is not the seat that sealed it)."""
    box = seal_to(roster.keys[forward.to], pack_canonical(forward.to_data()))
    signed = statement(game, roster.table, seat, forward.to, forward.transfer, box)
    return SealedForward(seat, forward.to, forward.transfer, box, identity.sign(signed))


def parse_sealed(message: dict[str, Any], roster: Roster, game: str, culprit: str) -> SealedForward:
    """A sealed forward as it came off a channel; PeerError naming `culprit` (the seat that
    delivered it, which should have checked it before passing it on) when it is malformed or the
    giver's signature does not hold."""
    seats = len(roster.keys)
    giver, to, transfer = message.get("from"), message.get("to"), message.get("transfer")
    box, signature = message.get("box"), message.get("sig")
    for name, value, bound in (("from", giver, seats), ("to", to, seats)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < bound:
            raise MalformedFrame(culprit, f'"fwd": field "{name}" must be a seat of the table')
    if not isinstance(transfer, int) or isinstance(transfer, bool) or not 0 <= transfer <= MAX_ID:
        raise MalformedFrame(culprit, '"fwd": field "transfer" must be a request id')
    if not isinstance(box, bytes) or not 0 < len(box) <= MAX_BOX_BYTES:
        raise MalformedFrame(culprit, f'"fwd": field "box" must be 1 to {MAX_BOX_BYTES} bytes')
    if not isinstance(signature, bytes) or len(signature) != SIGNATURE_BYTES:
        raise MalformedFrame(culprit, f'"fwd": field "sig" must be {SIGNATURE_BYTES} bytes')
    assert isinstance(giver, int) and isinstance(to, int)
    if giver == to:
        raise PeerError(culprit, '"fwd": a seat gives nothing to itself')
    signed = statement(game, roster.table, giver, to, transfer, box)
    if not verify_signature(roster.keys[giver], signature, signed):
        raise PeerError(culprit, f'"fwd": not signed by seat {giver}, whose forward it says it is')
    return SealedForward(giver, to, transfer, box, signature)


class ForwardRelay:
    """What one seat passes on of the others' sealed forwards. Per giver and receiver it keeps
    the newest it passed on: one of a later Transfer is new, anything else a copy (so a giver
    cannot make the table carry more than one forward per gift it signs), and that newest one
    goes again to its receiver when the receiver's channel comes up."""

    def __init__(self, me: int) -> None:
        self.me = me
        self._newest: dict[tuple[int, int], SealedForward] = {}

    def take(self, sealed: SealedForward) -> bool:
        """Whether `sealed` (for another seat) is new here, and so to be passed on."""
        if sealed.to == self.me or sealed.giver == self.me:
            return False
        newest = self._newest.get((sealed.giver, sealed.to))
        if newest is not None and sealed.transfer <= newest.transfer:
            return False
        self._newest[(sealed.giver, sealed.to)] = sealed
        return True

    def kept_for(self, seat: int) -> list[SealedForward]:
        """The newest forward passed on to `seat` from each giver."""
        return [sealed for (_giver, to), sealed in self._newest.items() if to == seat]
