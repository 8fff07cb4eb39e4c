"""Give-aways (protocol.md 10.8): a card passed privately from one seat to another.

The engine's `Transfer` is served by the giver's private `deck.forward` (signed, sent over the
encrypted channel to the receiver only), then the receiver's receipt in the log. The receiver
opens the forward once the Transfer is served; a bad one is reported in the receipt with the
signed forward as evidence, and every peer judges: the giver if the forward is bad, the
accuser if it is good, missing or not the giver's.

`GiveAways` is one seat's side of it as a small machine: `TRANSITIONS` below is everything that
moves it (docs/state-machines/give-away-forwards.md is drawn from it); its inputs are a Transfer
begun, a forward received, a receipt applied; its outputs (effects.py) are the receipt to publish
and the deck output of an opened forward. A refused input raises `DeckFault` naming the culprit
and changes nothing. It holds the table's fair deck and terms, never the driver.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from fairdeal.engine.requests import Transfer
from fairdeal.p2p.deck import DeckFault, DeckSession, Slot
from fairdeal.p2p.deck.errors import DeckUsageError
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.table.core.effects import Effect, TakeDeck
from fairdeal.p2p.table.core.forwards import ForwardError, SignedForward
from fairdeal.p2p.table.core.outbox import Publish

RECEIPT_KEYS = frozenset({"slot", "fault", "forward"})


class GiftState(StrEnum):
    """Where the give-away being served stands, as this seat sees it."""

    IDLE = "idle"  # no Transfer is being served (forwards that come early are held)
    AWAITING_FORWARD = "awaiting forward"  # the card comes to this seat: the giver's forward
    AWAITING_RECEIPT = "awaiting receipt"  # the receiver's receipt is due (this seat's: signed)


class GiftEvent(StrEnum):
    """What moves it."""

    TO_ME = "Transfer to this seat"
    TO_ANOTHER = "Transfer to another seat"
    HELD = "forward held (its Transfer not served yet)"
    OPENED = "forward opened: receipt"
    BAD_FORWARD = "forward fails: accusing receipt"
    NOTHING_TO_OPEN = "card came back: receipt"
    RECEIPT_APPLIED = "receipt"


G, V = GiftState, GiftEvent

# The whole machine. A receipt of this seat's own may be applied while it still waits for the
# forward: it signed it before a restart whose kept forward could not be read back.
TRANSITIONS: Mapping[tuple[GiftState, GiftEvent], GiftState] = {
    (G.IDLE, V.TO_ME): G.AWAITING_FORWARD,
    (G.IDLE, V.TO_ANOTHER): G.AWAITING_RECEIPT,
    (G.IDLE, V.HELD): G.IDLE,
    (G.AWAITING_FORWARD, V.HELD): G.AWAITING_FORWARD,
    (G.AWAITING_RECEIPT, V.HELD): G.AWAITING_RECEIPT,
    (G.AWAITING_FORWARD, V.OPENED): G.AWAITING_RECEIPT,
    (G.AWAITING_FORWARD, V.BAD_FORWARD): G.AWAITING_RECEIPT,
    (G.AWAITING_FORWARD, V.NOTHING_TO_OPEN): G.AWAITING_RECEIPT,
    (G.AWAITING_FORWARD, V.RECEIPT_APPLIED): G.IDLE,
    (G.AWAITING_RECEIPT, V.RECEIPT_APPLIED): G.IDLE,
}


# Who the table waits for in each state (owing.py says it to the players).
WHO_ACTS: Mapping[GiftState, str] = {
    G.IDLE: "nobody for a gift: a forward that comes early is held, one per giver",
    G.AWAITING_FORWARD: "the giver: its private forward (sealed to this seat, relayed by any)",
    G.AWAITING_RECEIPT: "the receiver: its receipt in the log, accusing the giver if it must",
}


class GiftStateError(Exception):
    """An input the give-aways do not take in their state: the table's code is wrong (the log's
    order was checked first), never a seat's fault."""

    def __init__(self, state: GiftState, event: GiftEvent) -> None:
        super().__init__(f"the give-aways cannot take {event!s} in state {state!s}")
        self.state = state
        self.event = event


@dataclass(frozen=True, slots=True)
class GiftTerms:
    """What the give-aways know of their table: its id and game (a forward's signature context),
    its seats, this seat (`seats` for an auditor), every seat's identity key, the receipt kind."""

    table_id: bytes
    game: str
    seats: int
    me: int
    keys: tuple[bytes, ...]
    receipt_kind: str


class GiveAways:
    """One table's give-aways as one seat follows them: forwards held, used and kept."""

    def __init__(self, terms: GiftTerms, deck: DeckSession) -> None:
        self.terms = terms
        self.deck = deck
        self.state = GiftState.IDLE
        self.transfer: Transfer | None = None  # the one being served
        self._masked: Slot | None = None  # its card in the fair deck
        # Signed forwards received before their Transfer is served: at most one per sender, so
        # no seat can flood this seat's memory; and the ones kept on disk before a restart.
        self._live: dict[int, SignedForward] = {}
        self._restored: dict[int, SignedForward] = {}
        self._receipted: set[int] = set()  # Transfer ids whose receipt this seat published
        self._done: set[int] = set()  # Transfer ids served (their receipt applied)
        # Forwards checked and used, to be kept on disk before the receipt is published.
        self.kept: list[SignedForward] = []

    # -- inputs -------------------------------------------------------------------------------

    def begin(self, transfer: Transfer, masked: Slot) -> list[Effect]:
        """The Transfer is being served (`masked`: its card). The receiver opens a forward it
        holds for it at once."""
        to_me = transfer.to_seat == self.terms.me
        self._fire(GiftEvent.TO_ME if to_me else GiftEvent.TO_ANOTHER)
        self.transfer, self._masked = transfer, masked
        return self._try_forward()

    def receive(self, sender: int, data: Any, *, open_now: bool = True) -> list[Effect]:
        """A give-away's signed forward, sent privately by seat `sender` (as the channel
        authenticated it). It may arrive before its Transfer is served, or again after a
        reconnect (a copy of one already used is ignored). Raises `DeckFault(sender, …)`, and
        keeps nothing, for a forward that is unreadable, not signed by `sender`, addressed to
        another seat, or for a gift `sender` is not giving (protocol.md 10.8)."""
        terms = self.terms
        try:
            forward = SignedForward.from_data(data, terms.seats)
        except ForwardError as error:
            raise DeckFault(sender, f"unreadable forward: {error}") from None
        if forward.giver != sender:
            raise DeckFault(sender, f"sent a forward in seat {forward.giver}'s name")
        if forward.to != terms.me:
            raise DeckFault(sender, f"sent a forward for seat {forward.to}")
        if not forward.verify(terms.table_id, self._key_of(sender), terms.game):
            raise DeckFault(sender, "sent a forward it did not sign")
        if forward.transfer in self._receipted or forward.transfer in self._done:
            return []
        request = self.transfer
        if (
            request is not None
            and request.id == forward.transfer
            and (request.from_seat != sender or request.to_seat != terms.me)
        ):
            raise DeckFault(sender, "forwarded a card it is not giving")
        self._live[sender] = forward  # one per sender: a later one replaces it
        opened = self._try_forward() if open_now else []
        if not opened:
            self._fire(GiftEvent.HELD)  # its Transfer is not served yet (or the table stopped)
        return opened

    def restore(self, data: Any) -> None:
        """A forward this seat checked, used and kept on disk before a restart."""
        try:
            forward = SignedForward.from_data(data, self.terms.seats)
        except ForwardError:
            return  # not one of ours (an older secrets file): the giver sends it again
        self._restored[forward.transfer] = forward

    def on_receipt(self, envelope: Envelope) -> None:
        """The receiver of a give-away confirms it (or reports a bad one, with the giver's
        signed forward as evidence); raises DeckFault naming whoever is at fault, changing
        nothing."""
        request = self.transfer
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
        self._fire(GiftEvent.RECEIPT_APPLIED)
        self._done.add(request.id)
        self.transfer, self._masked = None, None

    # -- the receiver's side ------------------------------------------------------------------

    def _try_forward(self) -> list[Effect]:
        """The receiver of a give-away opens the giver's forward once the Transfer is served,
        and publishes its receipt (with the signed forward as evidence if the forward fails)."""
        request, masked = self.transfer, self._masked
        if self.state is not GiftState.AWAITING_FORWARD or request is None or masked is None:
            return []
        # One receipt per Transfer, not per card: a card can come to the same seat twice
        # (0→1, 1→0, 0→1), and the second time needs its own receipt.
        if request.id in self._receipted:
            return []
        if not self.deck.awaiting_forward(masked):
            # the card came back to a seat that holds every share it needs: nothing is forwarded
            self._fire(GiftEvent.NOTHING_TO_OPEN)
            self._receipted.add(request.id)
            return [Publish(self.terms.receipt_kind, self.receipt(request, None, None))]
        forward = restored = self._restored.pop(request.id, None)
        live = self._live.get(request.from_seat)
        if forward is None and live is not None and live.transfer == request.id:
            forward = self._live.pop(request.from_seat)
        if forward is None:
            return []
        effects: list[Effect] = []
        fault: str | None = None
        try:
            if forward.slot != request.slot:
                raise DeckFault(request.from_seat, f"forward of slot {forward.slot}")
            output = self.deck.handle(request.from_seat, forward.body)
        except DeckFault as error:
            fault = error.what
        else:
            if restored is None:  # a restored one is on disk already
                self.kept.append(forward)
            effects.append(TakeDeck(output))
        self._fire(GiftEvent.OPENED if fault is None else GiftEvent.BAD_FORWARD)
        self._receipted.add(request.id)
        effects.append(Publish(self.terms.receipt_kind, self.receipt(request, forward, fault)))
        return effects

    def _fire(self, event: GiftEvent) -> None:
        new = TRANSITIONS.get((self.state, event))
        if new is None:
            raise GiftStateError(self.state, event)
        self.state = new

    def _judge_accusation(self, request: Transfer, receipt: Mapping[str, Any]) -> DeckFault:
        """The receiver says its give-away was bad: every peer checks the signed forward it
        shows and blames the giver if the forward is bad, the accuser if it is good, missing or
        not the giver's (protocol.md 10.8)."""
        terms = self.terms
        giver, accuser = request.from_seat, request.to_seat
        evidence = {"transfer": request.id, "slot": request.slot, "claim": receipt.get("fault")}
        if "forward" not in receipt:
            what = f"accused seat {giver} of a bad give-away without its signed forward"
            return DeckFault(accuser, what, evidence)
        try:
            forward = SignedForward.from_data(receipt["forward"], terms.seats)
        except ForwardError as error:
            what = f"accused seat {giver} with an unreadable forward ({error})"
            return DeckFault(accuser, what, evidence)
        if (
            forward.giver != giver
            or forward.to != accuser
            or forward.transfer != request.id
            or not forward.verify(terms.table_id, self._key_of(giver), terms.game)
        ):
            what = f"accused seat {giver} with a forward it did not sign for this gift"
            return DeckFault(accuser, what, evidence)
        if forward.slot != request.slot:
            return DeckFault(giver, f"signed a forward of slot {forward.slot}", evidence)
        try:
            self.deck.check_forward(giver, self._masked_card(), forward.body)
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
        if not self.terms.keys:
            raise DeckUsageError("this table was given no identity keys to check forwards with")
        return self.terms.keys[seat]

    def _masked_card(self) -> Slot:
        assert self._masked is not None  # set with the Transfer being served
        return self._masked
