"""Give-aways (protocol.md 10.8): a card passed privately from one seat to another.

The engine's `Transfer` is served by the giver's private `deck.forward` (signed, sent over the
encrypted channel to the receiver only), then the receiver's receipt in the log. The receiver
opens the forward once the Transfer is served; a bad one is reported in the receipt with the
signed forward as evidence, and every peer judges: the giver if the forward is bad, the
accuser if it is good, missing or not the giver's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fairdeal.engine.requests import Transfer
from fairdeal.p2p.deck import DeckFault
from fairdeal.p2p.deck.errors import DeckUsageError
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.table.core.forwards import ForwardError, SignedForward

if TYPE_CHECKING:
    from fairdeal.p2p.table.core.driver import TableDriver

RECEIPT_KEYS = frozenset({"slot", "fault", "forward"})


class GiveAways:
    """One table's give-aways as one seat follows them: forwards held, used and kept."""

    def __init__(self, table: TableDriver) -> None:
        self.table = table
        # Signed forwards received before their Transfer is served: at most one per sender, so
        # no seat can flood this seat's memory; and the ones kept on disk before a restart.
        self._live: dict[int, SignedForward] = {}
        self._restored: dict[int, SignedForward] = {}
        self._receipted: set[int] = set()  # Transfer ids whose receipt this seat published
        self._done: set[int] = set()  # Transfer ids served (their receipt applied)
        # Forwards checked and used, to be kept on disk before the receipt is published.
        self.kept: list[SignedForward] = []

    def receive(self, sender: int, data: Any) -> None:
        """A give-away's signed forward, sent privately by seat `sender` (as the channel
        authenticated it). It may arrive before its Transfer is served, or again after a
        reconnect (a copy of one already used is ignored). Raises `DeckFault(sender, …)`, and
        keeps nothing, for a forward that is unreadable, not signed by `sender`, addressed to
        another seat, or for a gift `sender` is not giving (protocol.md 10.8)."""
        table = self.table
        try:
            forward = SignedForward.from_data(data, table.seats)
        except ForwardError as error:
            raise DeckFault(sender, f"unreadable forward: {error}") from None
        if forward.giver != sender:
            raise DeckFault(sender, f"sent a forward in seat {forward.giver}'s name")
        if forward.to != table.me:
            raise DeckFault(sender, f"sent a forward for seat {forward.to}")
        if not forward.verify(table.table_id, self._key_of(sender), table.game_name):
            raise DeckFault(sender, "sent a forward it did not sign")
        if forward.transfer in self._receipted or forward.transfer in self._done:
            return
        request = table.pending_transfer()
        if (
            request is not None
            and request.id == forward.transfer
            and (request.from_seat != sender or request.to_seat != table.me)
        ):
            raise DeckFault(sender, "forwarded a card it is not giving")
        self._live[sender] = forward  # one per sender: a later one replaces it
        self.try_forward()

    def restore(self, data: Any) -> None:
        """A forward this seat checked, used and kept on disk before a restart."""
        try:
            forward = SignedForward.from_data(data, self.table.seats)
        except ForwardError:
            return  # not one of ours (an older secrets file): the giver sends it again
        self._restored[forward.transfer] = forward

    def try_forward(self) -> None:
        """The receiver of a give-away opens the giver's forward once the Transfer is served,
        and publishes its receipt (with the signed forward as evidence if the forward fails)."""
        table = self.table
        request = table.pending_transfer() if table.fault is None else None
        # One receipt per Transfer, not per card: a card can come to the same seat twice
        # (0→1, 1→0, 0→1), and the second time needs its own receipt.
        if request is None or request.to_seat != table.me or request.id in self._receipted:
            return
        if not table.deck.awaiting_forward(table.masked_slot(request.slot)):
            # the card came back to a seat that holds every share it needs: nothing is forwarded
            self._receipted.add(request.id)
            table.publish(table.received_kind, self.receipt(request, None, None))
            return
        forward = restored = self._restored.pop(request.id, None)
        live = self._live.get(request.from_seat)
        if forward is None and live is not None and live.transfer == request.id:
            forward = self._live.pop(request.from_seat)
        if forward is None:
            return
        self._receipted.add(request.id)
        fault: str | None = None
        try:
            if forward.slot != request.slot:
                raise DeckFault(request.from_seat, f"forward of slot {forward.slot}")
            output = table.deck.handle(request.from_seat, forward.body)
        except DeckFault as error:
            fault = error.what
        else:
            if restored is None:  # a restored one is on disk already
                self.kept.append(forward)
            table.take_output(output)
        table.publish(table.received_kind, self.receipt(request, forward, fault))

    def on_receipt(self, envelope: Envelope) -> None:
        """The receiver of a give-away confirms it (or reports a bad one, with the giver's
        signed forward as evidence); raises DeckFault naming whoever is at fault."""
        request = self.table.pending_transfer()
        if request is None:
            raise DeckFault(envelope.seat, "a receipt where no card was given")
        body = envelope.body
        if not isinstance(body, Mapping) or body.get("slot") != request.slot:
            raise DeckFault(envelope.seat, "receipt for another card", {"receipt": body})
        if set(body) - RECEIPT_KEYS:
            raise DeckFault(envelope.seat, "receipt with unknown fields", {"receipt": body})
        if "fault" in body:
            raise self._judge_accusation(request, body)
        if "forward" in body:
            raise DeckFault(envelope.seat, "receipt with a forward but no fault")
        self._done.add(request.id)

    def _judge_accusation(self, request: Transfer, receipt: Mapping[str, Any]) -> DeckFault:
        """The receiver says its give-away was bad: every peer checks the signed forward it
        shows and blames the giver if the forward is bad, the accuser if it is good, missing or
        not the giver's (protocol.md 10.8)."""
        table = self.table
        giver, accuser = request.from_seat, request.to_seat
        evidence = {"transfer": request.id, "slot": request.slot, "claim": receipt.get("fault")}
        if "forward" not in receipt:
            what = f"accused seat {giver} of a bad give-away without its signed forward"
            return DeckFault(accuser, what, evidence)
        try:
            forward = SignedForward.from_data(receipt["forward"], table.seats)
        except ForwardError as error:
            what = f"accused seat {giver} with an unreadable forward ({error})"
            return DeckFault(accuser, what, evidence)
        if (
            forward.giver != giver
            or forward.to != accuser
            or forward.transfer != request.id
            or not forward.verify(table.table_id, self._key_of(giver), table.game_name)
        ):
            what = f"accused seat {giver} with a forward it did not sign for this gift"
            return DeckFault(accuser, what, evidence)
        if forward.slot != request.slot:
            return DeckFault(giver, f"signed a forward of slot {forward.slot}", evidence)
        try:
            table.deck.check_forward(giver, table.masked_slot(request.slot), forward.body)
        except DeckFault as fault:
            return DeckFault(giver, f"gave a bad card: {fault.what}", evidence)
        what = f"falsely accused seat {giver} of a bad give-away (its signed forward verifies)"
        return DeckFault(accuser, what, evidence)

    def receipt(
        self, request: Transfer, forward: SignedForward | None, fault: str | None
    ) -> dict[str, Any]:
        """The receipt of a give-away: `{"slot"}`, or with the fault and the signed forward."""
        if fault is None or forward is None:
            return {"slot": request.slot}
        return {"slot": request.slot, "fault": fault, "forward": forward.to_data()}

    def _key_of(self, seat: int) -> bytes:
        if not self.table.keys:
            raise DeckUsageError("this table was given no identity keys to check forwards with")
        return self.table.keys[seat]
