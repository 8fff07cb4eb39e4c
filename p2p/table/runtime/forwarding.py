"""One seat's give-away forwards on the wire (protocol.md 10.8).

A forward this seat owes is signed, sealed to its receiver and sent to every seat: the receiver
opens it, the others pass it on (a link cut between giver and receiver stalls nobody), and it
goes again to a seat that (re)connects. A forward for this seat is opened and checked by the
table before anything is kept; the forwards the table used are written to the secrets file
before their receipts go out, so a crash does not lose a card this seat was given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fairdeal.p2p.deck import DeckFault
from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import Identity, PublicIdentity
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.forwards import SignedForward, sign_forward
from fairdeal.p2p.table.core.outbox import Private
from fairdeal.p2p.table.core.sealed import ForwardRelay, SealedForward, parse_sealed, seal_forward
from fairdeal.p2p.table.runtime.randomness import table_secret_name


class ForwardPost:
    """Seat `seat`'s sealed forwards: sent, received, passed on, kept."""

    def __init__(
        self, identity: Identity, roster: Roster, seat: int, mesh: Mesh, secrets: SecretStore
    ) -> None:
        self.identity = identity
        self.roster = roster
        self.seat = seat
        self.mesh = mesh
        self.secrets = secrets
        # give-away forwards this seat signed, sealed and sent (resent whenever a seat connects)
        self.privates: list[SealedForward] = []
        self.relay = ForwardRelay(seat)  # the others' sealed forwards this seat passes on

    def send_owed(self, table: TableDriver, item: Private) -> None:
        """Sign, seal and send a forward the table says this seat owes."""
        forward = sign_forward(
            self.identity.sign,
            self.roster.table,
            item.transfer,
            item.slot,
            item.body,
            game=table.game_name,
        )
        sealed = seal_forward(self.identity, self.seat, self.roster, table.game_name, forward)
        self.privates.append(sealed)
        self._send_to_seats(sealed, exclude=set())

    def receive(
        self, sender_id: PublicIdentity, message: dict[str, Any], table: TableDriver
    ) -> bool:
        """A sealed forward, from its giver or relayed: ours goes to the table (True: the table
        took it, the pump has work), another seat's is passed on once (PeerError: a bad one)."""
        deliverer = self.roster.seat_of(sender_id.key)
        if deliverer is None or message.get("table") != self.roster.table:
            return False  # a peer with no seat carries no forward
        culprit = f"seat {deliverer} ({sender_id})"
        sealed = parse_sealed(message, self.roster, table.game_name, culprit)
        if sealed.to != self.seat:
            if self.relay.take(sealed):
                self._send_to_seats(sealed, exclude={deliverer, sealed.giver})
            return False
        try:
            table.receive_private(sealed.giver, sealed.open(self.identity))
        except DeckFault as fault:
            raise PeerError(f"seat {fault.seat}", fault.what) from None
        return True

    def keep(self, used: Sequence[SignedForward]) -> None:
        """Add forwards the table used to the secrets file (TranscriptWriteError: the disk
        refused, and nothing may be sent after it)."""
        name = table_secret_name(self.roster.table, "forwards")
        self.secrets.put(name, [*self.secrets.get(name, []), *(f.to_data() for f in used)])

    def resend(self, seat: int | None) -> None:
        """A seat that (re)connects may have missed forwards: this seat's own go to it again
        (its receiver opens it, another seat passes on one it had not), and so does the newest
        forward passed on here for it. A copy already had is ignored."""
        if seat is None or seat == self.seat:
            return
        key = self.roster.keys[seat]
        for sealed in [*self.privates, *self.relay.kept_for(seat)]:
            if sealed.giver != seat:
                self.mesh.send(key, sealed.to_wire(self.roster.table))

    def _send_to_seats(self, sealed: SealedForward, exclude: set[int]) -> None:
        wire = sealed.to_wire(self.roster.table)
        for seat, key in enumerate(self.roster.keys):
            if seat != self.seat and seat not in exclude:
                self.mesh.send(key, wire)
