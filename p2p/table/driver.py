"""The table driver for Larry, sans-IO: the engine served by the fair deck over the table log.

Every peer (and the offline auditor) runs one `LarryTable` and feeds it every envelope of the
table log, in log order, with `apply`. The table says which seat's envelope comes next
(`expected`, the log's ordering), checks each envelope against the rules and the fair-deck
proofs, runs the same engine on every peer, and collects what this seat must publish (`outbox`)
and what happened (`events`, table_api events). protocol.md section 10 lists the envelopes.

The order of the log follows the rules: a table started in a lobby opens with seat 0's record of
the signed roster (`roster`, checked by every peer against the roster it signed itself); then
setup in seat order (join, key, coin commitment, coin reveal), then the engine's `pending[0]`
request (shuffles in seat order; the shares of a deal or a reveal from each seat that owes some,
in seat order; a give-away receipt from the receiver), and when nothing is pending, one action
by the seat to act (L6).

A seat's envelope that breaks the rules or fails a proof is still the one in its place (it is
signed, and every honest peer sees the same one): it is applied to the log as evidence and the
table stops with a `FaultDetected` naming that seat. Nothing of the public state changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from fairdeal.engine.larry import (
    DRIVER,
    Ack,
    Deal,
    Doubt,
    Faces,
    IllegalAction,
    LarryOptions,
    LarryState,
    LarryView,
    NewDeck,
    Request,
    Reshuffle,
    Reveal,
    Step,
    Transfer,
    Violation,
    apply,
    new_game,
    view_for,
)
from fairdeal.engine.larry.codec import DecodeError, action_from_data, to_data
from fairdeal.engine.larry.events import DoubtResolved
from fairdeal.p2p.deck import (
    CardDealt,
    CardReceived,
    CardRevealed,
    CoinFlipped,
    DeckFault,
    DeckSession,
    KeysReady,
    ListReady,
    ShuffleVerified,
    Slot,
)
from fairdeal.p2p.deck.errors import DeckUsageError
from fairdeal.p2p.deck.events import DeckEvent
from fairdeal.p2p.deck.messages import (
    COIN_COMMIT,
    COIN_REVEAL,
    KEY,
    SHARES,
    SHUFFLE,
    SharesMessage,
)
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.lobby.roster import ROSTER_KIND, OptionValue, RosterError, SignedRoster
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import genesis_head, next_head
from fairdeal.p2p.table.api import (
    DoubtVerification,
    FaultDetected,
    Notice,
    ProofStatus,
    SetupProgress,
    StateChanged,
    TableEvent,
    VerifiedCard,
)
from fairdeal.p2p.table.forwards import ForwardError, SignedForward

GAME = "larry"
JOIN = "larry.join"  # body: {"game", "seats", "options"}: every seat signs the table's terms
DECK = "deck"  # body: a fair-deck message (protocol.md section 6)
ACT = "larry.act"  # body: an engine action (fairdeal.engine.larry.codec, protocol.md section 7)
RECEIVED = "larry.received"  # body: {"slot"} (+ "fault", "forward"): the receiver's receipt
FIRST_PLAYER_COIN = "first-player"  # L5: the joint coin that picks who starts hand 1


@dataclass(frozen=True, slots=True)
class Expect:
    """The next envelope of the log: its seat, its kind, and (for DECK) the message kind."""

    seat: int
    kind: str
    deck_kind: str | None = None

    def __str__(self) -> str:
        what = self.deck_kind or self.kind
        return f"{what} from seat {self.seat}"


@dataclass(frozen=True, slots=True)
class Publish:
    """An envelope this seat must sign and publish."""

    kind: str
    body: Any


@dataclass(frozen=True, slots=True)
class Private:
    """A give-away's `deck.forward` for seat `to` only, over the encrypted channel: the peer
    signs it (p2p.table.forwards) for the engine's Transfer `transfer` of engine slot `slot`."""

    to: int
    body: Any
    transfer: int
    slot: int


@dataclass
class _Service:
    """The request(s) being served: which requests, and which envelopes they still need."""

    requests: list[Request]
    kind: str  # "shuffle", "shares", "receipt"
    publishers: list[int] = field(default_factory=list)  # seats that owe shares, in seat order
    published: int = 0
    slots: tuple[Slot, ...] = ()
    list_id: str = ""
    done: bool = False
    faces: dict[Slot, int] = field(default_factory=dict)


def roster_difference(signed: SignedRoster, body: Any) -> dict[str, Any]:
    """Evidence for a roster envelope that is not the signed roster: which part differs."""
    if not isinstance(body, Mapping) or body.get("digest") != signed.roster.digest:
        return {"digest": body.get("digest") if isinstance(body, Mapping) else body}
    recorded = body.get("signatures")
    if not isinstance(recorded, list) or len(recorded) != len(signed.signatures):
        return {"signatures": recorded}
    seats = [s for s, (a, b) in enumerate(zip(recorded, signed.signatures, strict=True)) if a != b]
    return {"signatures of seats": seats}


def lobby_options(options: LarryOptions) -> dict[str, OptionValue]:
    """The options shown in the lobby and signed in the roster (the rest are the defaults)."""
    return {"short_game": options.short_game, "hands": options.hands}


def options_for_join(options: LarryOptions) -> Any:
    """The options every seat signs in its join envelope (the first seat comes from the coin)."""
    return to_data(replace(options, first_seat=0))


class LarryTable:
    """One table of Larry as one seat (or an auditor, `deck.seat == seats`) follows it."""

    def __init__(
        self,
        table_id: bytes,
        seats: int,
        options: LarryOptions,
        deck: DeckSession,
        signed_roster: SignedRoster | None = None,
        keys: Sequence[bytes] | None = None,
    ) -> None:
        """`signed_roster`: the lobby's roster every seat signed; the log then opens with seat
        0's `roster` envelope recording it (None: no roster envelope, as in sans-IO tests).
        `keys`: every seat's identity key, which signs its give-away forwards (default: the
        signed roster's)."""
        options.validate(seats)
        if signed_roster is not None and (
            signed_roster.roster.table_id != table_id or len(signed_roster.roster.seats) != seats
        ):
            raise ValueError("the signed roster is of another table")
        if signed_roster is not None and signed_roster.roster.options_dict != lobby_options(
            options
        ):
            raise ValueError("the options are not the ones every seat signed in the roster")
        self.signed_roster = signed_roster
        if keys is None and signed_roster is not None:
            keys = signed_roster.roster.keys
        self.keys = tuple(keys or ())
        if self.keys and len(self.keys) != seats:
            raise ValueError(f"{len(self.keys)} identity keys for {seats} seats")
        self.table_id = table_id
        self.seats = seats
        self.me = seats if deck.seat is None else deck.seat  # seats: an auditor (no seat)
        self.options = options
        self.deck = deck
        self.head = genesis_head(table_id)
        self.applied = 0
        self.state: LarryState | None = None
        self.fault: FaultDetected | None = None
        self.outbox: list[Publish | Private] = []
        self.events: list[TableEvent] = []
        self.first_seat: int | None = None
        # The terms every seat's join must carry (an auditor takes them from seat 0's join).
        self.terms: Any = {
            "game": GAME,
            "seats": seats,
            "options": options_for_join(options),
        }
        self._setup = [(0, ROSTER_KIND, None)] if signed_roster is not None else []
        self._setup += [(s, JOIN, None) for s in range(seats)]
        self._setup += [(s, DECK, KEY) for s in range(seats)]
        self._setup += [(s, DECK, COIN_COMMIT) for s in range(seats)]
        self._setup += [(s, DECK, COIN_REVEAL) for s in range(seats)]
        self._setup_done = 0
        self._slot: dict[int, Slot] = {}  # engine slot -> masked card
        self._engine_slot: dict[Slot, int] = {}
        self._public: dict[Slot, set[int]] = {}  # whose shares of a slot are public
        self._service: _Service | None = None
        # Signed forwards received before their Transfer is served: at most one per sender, so
        # no seat can flood this seat's memory; and the ones kept on disk before a restart.
        self._forwards: dict[int, SignedForward] = {}
        self._restored: dict[int, SignedForward] = {}
        self._receipted: set[int] = set()  # Transfer ids whose receipt this seat published
        self._transfers_done: set[int] = set()  # Transfer ids served (their receipt applied)
        # Forwards checked and used, to be kept on disk before the receipt is published.
        self.kept_forwards: list[SignedForward] = []
        self._proofs = 0
        self._doubt_pile: tuple[tuple[int, int, bool], ...] = ()  # (slot, seat, face_up)
        self._doubt_said: tuple[int, ...] = ()  # the totals announced with those cards

    # -- queries ---------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.fault is not None or (self.state is not None and self.state.over)

    def expected(self) -> Expect | None:
        """The envelope the log takes next (None: the game is over or stopped)."""
        if self.fault is not None:
            return None
        if self._setup_done < len(self._setup):
            seat, kind, deck_kind = self._setup[self._setup_done]
            return Expect(seat, kind, deck_kind)
        state = self.state
        assert state is not None
        if state.over:
            return None
        service = self._service
        if service is None:
            turn = state.to_act()
            return Expect(turn, ACT) if turn is not None else None
        if service.kind == "shuffle":
            return Expect(service.published, DECK, SHUFFLE)  # seat order
        if service.kind == "shares":
            return Expect(service.publishers[service.published], DECK, SHARES)
        request = service.requests[0]
        assert isinstance(request, Transfer)
        return Expect(request.to_seat, RECEIVED)

    def expected_seat(self) -> int | None:
        expect = self.expected()
        return expect.seat if expect is not None else None

    def knowledge(self, seat: int | None = None) -> dict[int, int]:
        """Engine slot -> face of every live card whose face this seat knows: its hand, the cards
        it played face-down or gave away, and revealed ones, as `OracleDriver.knowledge` keeps
        them for a local table (one view everywhere: the pile shows our own cards' faces, and
        bots count what they have seen)."""
        state = self.state
        if state is None or self.me >= self.seats:
            return {}
        seat = self.me if seat is None else seat
        # another seat's knowledge cannot be told from here beyond what we know of its hand
        slots = state.all_slots() if seat == self.me else list(state.hands[seat])
        known: dict[int, int] = {}
        for slot in slots:
            masked = self._slot.get(slot)
            face = self.deck.known_card(masked) if masked is not None else None
            if face is not None:
                known[slot] = face
        return known

    def view(self) -> LarryView:
        assert self.state is not None
        return view_for(self.state, self.knowledge(), self.me)

    def my_turn(self) -> bool:
        expect = self.expected()
        return expect is not None and expect.kind == ACT and expect.seat == self.me

    # -- commands --------------------------------------------------------------------------

    def start(self) -> None:
        """This seat's opening envelopes: (seat 0) the signed roster, then join, key, coin
        commitment (applied in seat order)."""
        if self.signed_roster is not None and self.me == 0:
            self.outbox.append(Publish(ROSTER_KIND, self.signed_roster.to_body()))
        self.outbox.append(Publish(JOIN, self.terms))
        self._take_output(self.deck.start())
        self._take_output(self.deck.coin(FIRST_PLAYER_COIN))

    def observe(self) -> None:
        """Follow the table without a seat (an auditor): join the coin, publish nothing."""
        self.deck.coin(FIRST_PLAYER_COIN)

    def receive_private(self, sender: int, data: Any) -> None:
        """A give-away's signed forward, sent privately by seat `sender` (as the channel
        authenticated it). It may arrive before its Transfer is served, or again after a
        reconnect (a copy of one already used is ignored). Raises `DeckFault(sender, …)`, and
        keeps nothing, for a forward that is unreadable, not signed by `sender`, addressed to
        another seat, or for a gift `sender` is not giving (protocol.md 10.8)."""
        try:
            forward = SignedForward.from_data(data, self.seats)
        except ForwardError as error:
            raise DeckFault(sender, f"unreadable forward: {error}") from None
        if forward.giver != sender:
            raise DeckFault(sender, f"sent a forward in seat {forward.giver}'s name")
        if forward.to != self.me:
            raise DeckFault(sender, f"sent a forward for seat {forward.to}")
        if not forward.verify(self.table_id, self._key_of(sender)):
            raise DeckFault(sender, "sent a forward it did not sign")
        if forward.transfer in self._receipted or forward.transfer in self._transfers_done:
            return
        request = self._pending_transfer()
        if (
            request is not None
            and request.id == forward.transfer
            and (request.from_seat != sender or request.to_seat != self.me)
        ):
            raise DeckFault(sender, "forwarded a card it is not giving")
        self._forwards[sender] = forward  # one per sender: a later one replaces it
        self._try_forward()

    def restore_forward(self, data: Any) -> None:
        """A forward this seat checked, used and kept on disk before a restart."""
        try:
            forward = SignedForward.from_data(data, self.seats)
        except ForwardError:
            return  # not one of ours (an older secrets file): the giver sends it again
        self._restored[forward.transfer] = forward

    def _key_of(self, seat: int) -> bytes:
        if not self.keys:
            raise DeckUsageError("this table was given no identity keys to check forwards with")
        return self.keys[seat]

    def _pending_transfer(self) -> Transfer | None:
        service = self._service
        if service is None or service.kind != "receipt":
            return None
        request = service.requests[0]
        assert isinstance(request, Transfer)
        return request

    # -- the log ---------------------------------------------------------------------------

    def apply(self, envelope: Envelope) -> None:
        """Apply the next envelope of the log (the one `expected()` named the seat of)."""
        expect = self.expected()
        head = self.head
        self.head = next_head(self.head, envelope)
        self.applied += 1
        if expect is None or envelope.seat != expect.seat:
            self._stop(envelope.seat, "out of turn", f"{envelope} arrived where none was due")
            return
        if envelope.kind != expect.kind:
            self._stop(envelope.seat, f"sent {envelope.kind}", f"{expect} was due ({envelope})")
            return
        try:
            if envelope.kind == ROSTER_KIND:
                self._on_roster(envelope)
            elif envelope.kind == JOIN:
                self._on_join(envelope)
            elif envelope.kind == DECK:
                self._on_deck(envelope, expect)
            elif envelope.kind == ACT:
                self._on_act(envelope, head)
            else:
                self._on_received(envelope)
        except DeckFault as fault:
            seat = fault.seat if fault.seat is not None else envelope.seat
            self._stop(seat, fault.what, f"{envelope}: {fault.evidence or fault.what}")
            return
        self._serve()

    def _on_roster(self, envelope: Envelope) -> None:
        """Seat 0 records the roster every seat signed in the lobby, exactly (protocol.md 5.5)."""
        signed = self.signed_roster
        assert signed is not None
        try:
            signed.check_body(envelope.body, f"seat {envelope.seat}")
        except RosterError as error:
            evidence = roster_difference(signed, envelope.body)
            raise DeckFault(envelope.seat, error.detail, evidence) from None
        self._setup_done += 1

    def _on_join(self, envelope: Envelope) -> None:
        if envelope.body != self.terms:
            raise DeckFault(envelope.seat, "joined with other game terms", {"join": envelope.body})
        self._setup_done += 1
        self.events.append(
            SetupProgress("keys", envelope.seat, self._setup_done, len(self._setup), 0)
        )

    def _on_deck(self, envelope: Envelope, expect: Expect) -> None:
        body = envelope.body
        kind = body.get("kind") if isinstance(body, Mapping) else None
        if kind != expect.deck_kind:
            raise DeckFault(envelope.seat, f"sent {kind!r} where {expect} was due")
        message = None
        if kind == SHARES:  # parsed once, here: the deck session reuses it
            message = self.deck.parse(envelope.seat, body)
            self._check_shares(envelope.seat, message)
        output = self.deck.handle(envelope.seat, body, message)
        if isinstance(message, SharesMessage):
            for item in message.shares:
                self._public.setdefault(item.slot, set()).add(item.share.seat)
            self._proofs += len(message.shares)
        if self._setup_done < len(self._setup):
            self._setup_done += 1
            self._proofs += 1
        self._take_output(output)
        if self._service is not None and kind == SHARES:
            self._service.published += 1

    def _on_act(self, envelope: Envelope, head: bytes) -> None:
        if envelope.prev != head:
            raise DeckFault(
                envelope.seat, "acted on a stale state (out of turn)", {"prev": envelope.prev}
            )
        try:
            action = action_from_data(envelope.body)
        except DecodeError as exc:
            raise DeckFault(envelope.seat, f"unreadable action: {exc}") from None
        assert self.state is not None
        try:
            step = apply(self.state, envelope.seat, action)
        except IllegalAction as exc:
            raise DeckFault(envelope.seat, f"illegal action: {exc.reason}") from None
        if isinstance(action, Doubt):
            state = self.state
            self._doubt_pile = tuple(
                (slot, seat, slot in state.revealed)
                for slot, seat in zip(state.pile, state.pile_seats, strict=True)
            )
            self._doubt_said = tuple(state.pile_totals)
        self._take_step(step)

    def _on_received(self, envelope: Envelope) -> None:
        service = self._service
        assert service is not None
        request = service.requests[0]
        assert isinstance(request, Transfer)
        body = envelope.body
        if not isinstance(body, Mapping) or body.get("slot") != request.slot:
            raise DeckFault(envelope.seat, "receipt for another card", {"receipt": body})
        if set(body) - {"slot", "fault", "forward"}:
            raise DeckFault(envelope.seat, "receipt with unknown fields", {"receipt": body})
        if "fault" in body:
            raise self._judge_accusation(request, body)
        if "forward" in body:
            raise DeckFault(envelope.seat, "receipt with a forward but no fault")
        service.done = True
        self._transfers_done.add(request.id)

    def _judge_accusation(self, request: Transfer, receipt: Mapping[str, Any]) -> DeckFault:
        """The receiver says its give-away was bad: every peer checks the signed forward it
        shows and blames the giver if the forward is bad, the accuser if it is good, missing or
        not the giver's (protocol.md 10.8)."""
        giver, accuser = request.from_seat, request.to_seat
        evidence = {"transfer": request.id, "slot": request.slot, "claim": receipt.get("fault")}
        if "forward" not in receipt:
            what = f"accused seat {giver} of a bad give-away without its signed forward"
            return DeckFault(accuser, what, evidence)
        try:
            forward = SignedForward.from_data(receipt["forward"], self.seats)
        except ForwardError as error:
            what = f"accused seat {giver} with an unreadable forward ({error})"
            return DeckFault(accuser, what, evidence)
        if (
            forward.giver != giver
            or forward.to != accuser
            or forward.transfer != request.id
            or not forward.verify(self.table_id, self._key_of(giver))
        ):
            what = f"accused seat {giver} with a forward it did not sign for this gift"
            return DeckFault(accuser, what, evidence)
        if forward.slot != request.slot:
            return DeckFault(giver, f"signed a forward of slot {forward.slot}", evidence)
        try:
            self.deck.check_forward(giver, self._slot[request.slot], forward.body)
        except DeckFault as fault:
            return DeckFault(giver, f"gave a bad card: {fault.what}", evidence)
        what = f"falsely accused seat {giver} of a bad give-away (its signed forward verifies)"
        return DeckFault(accuser, what, evidence)

    # -- serving engine requests ----------------------------------------------------------------

    def _serve(self) -> None:
        """Start the game once set up, then serve requests until an envelope is needed."""
        if self.fault is not None or self._setup_done < len(self._setup):
            return
        if self.state is None:
            seed = self.deck.coin_seed(FIRST_PLAYER_COIN)
            assert seed is not None
            self.first_seat = int.from_bytes(seed[:8], "big") % self.seats  # L5 joint draw
            options = replace(self.options, first_seat=self.first_seat)
            self.events.append(Notice(f"joint coin: seat {self.first_seat} starts hand 1 (L5)"))
            self._take_step(new_game(self.seats, options))
        while self.fault is None:
            state = self.state
            assert state is not None
            if not state.pending:
                return
            if self._service is None:
                self._begin(state)
            service = self._service
            assert service is not None
            if not self._complete(service):
                return
            self._service = None
            for request in service.requests:
                if isinstance(request, Reveal):
                    faces = tuple(service.faces[self._slot[s]] for s in request.slots)
                    self._resolve(Faces(request.id, faces))
                else:
                    self._resolve(Ack(request.id))

    def _begin(self, state: LarryState) -> None:
        request = state.pending[0]
        if isinstance(request, NewDeck | Reshuffle):
            list_id = f"r{request.id}"
            if isinstance(request, NewDeck):
                size = len(request.slots)
                output = self.deck.new_deck(list_id, f"hand{state.hand_no}", range(size))
                new = request.slots
            else:
                sources = [self._slot[s] for s in request.old]
                output = self.deck.reshuffle(list_id, sources)
                new = request.new
            for index, slot in enumerate(new):
                self._map(slot, Slot(list_id, index))
            self._service = _Service([request], "shuffle", list_id=list_id)
            self.events.append(SetupProgress("shuffle", 0, 0, self.seats, self._proofs))
            self._take_output(output)
        elif isinstance(request, Deal):
            batch: list[Request] = []
            owners: dict[Slot, int] = {}
            for pending in state.pending:
                if not isinstance(pending, Deal):
                    break
                batch.append(pending)
                owners.update({self._slot[s]: pending.seat for s in pending.slots})
            publishers = [s for s in range(self.seats) if any(o != s for o in owners.values())]
            self._service = _Service(batch, "shares", publishers, slots=tuple(owners))
            self.events.append(SetupProgress("deal", None, 0, len(publishers), self._proofs))
            if owners:
                self._take_output(self.deck.deal(owners))
        elif isinstance(request, Transfer):
            self._service = _Service([request], "receipt")
            self._take_output(self.deck.give(self._slot[request.slot], request.to_seat), request)
            self._try_forward()
        else:
            slots = tuple(self._slot[s] for s in request.slots)
            owners_of = {self.deck.owner(s) for s in slots}
            if None in owners_of:
                publishers = list(range(self.seats))
            else:
                publishers = sorted(o for o in owners_of if o is not None)
            self._service = _Service([request], "shares", publishers, slots=slots)
            self.events.append(SetupProgress("reveal", None, 0, len(publishers), self._proofs))
            self._take_output(self.deck.reveal(slots))

    def _complete(self, service: _Service) -> bool:
        if service.kind == "shuffle":
            return self.deck.list_ready(service.list_id)
        if service.kind == "receipt":
            return service.done
        request = service.requests[0]
        if service.published < len(service.publishers) and service.slots:
            return False
        if isinstance(request, Reveal):
            return all(s in service.faces for s in service.slots)
        return True

    def _check_shares(self, seat: int, message: Any) -> None:
        """The shares a seat publishes must be exactly the ones it owes now (no more, no less)."""
        service = self._service
        assert service is not None and isinstance(message, SharesMessage)
        request = service.requests[0]
        owed: set[tuple[Slot, int]] = set()
        for slot in service.slots:
            owner = self.deck.owner(slot)
            public = self._public.get(slot, set())
            if isinstance(request, Deal):
                if owner != seat:
                    owed.add((slot, seat))
            elif owner == seat:  # the owner opens it: every share not public yet
                owed |= {(slot, t) for t in range(self.seats) if t not in public}
            elif owner is None and seat not in public:  # never dealt: every seat opens it
                owed.add((slot, seat))
        given = [(item.slot, item.share.seat) for item in message.shares]
        if len(set(given)) != len(given) or set(given) != owed:
            missing = sorted(str(s) + f"/{t}" for s, t in owed - set(given))
            extra = sorted(str(s) + f"/{t}" for s, t in set(given) - owed)
            what = "revealed" if isinstance(request, Reveal) else "dealt"
            raise DeckFault(
                seat,
                f"published the wrong shares for the cards being {what}",
                {"missing": missing, "unexpected": extra},
            )

    def _try_forward(self) -> None:
        """The receiver of a give-away opens the giver's forward once the Transfer is served,
        and publishes its receipt (with the signed forward as evidence if the forward fails)."""
        request = self._pending_transfer() if self.fault is None else None
        # One receipt per Transfer, not per card: a card can come to the same seat twice
        # (0→1, 1→0, 0→1), and the second time needs its own receipt (issue 13 item 4).
        if request is None or request.to_seat != self.me or request.id in self._receipted:
            return
        masked = self._slot[request.slot]
        if not self.deck.awaiting_forward(masked):
            # the card came back to a seat that holds every share it needs: nothing is forwarded
            self._receipted.add(request.id)
            self.outbox.append(Publish(RECEIVED, self._receipt(request, None, None)))
            return
        forward = restored = self._restored.pop(request.id, None)
        live = self._forwards.get(request.from_seat)
        if forward is None and live is not None and live.transfer == request.id:
            forward = self._forwards.pop(request.from_seat)
        if forward is None:
            return
        self._receipted.add(request.id)
        fault: str | None = None
        try:
            if forward.slot != request.slot:
                raise DeckFault(request.from_seat, f"forward of slot {forward.slot}")
            output = self.deck.handle(request.from_seat, forward.body)
        except DeckFault as error:
            fault = error.what
        else:
            if restored is None:  # a restored one is on disk already
                self.kept_forwards.append(forward)
            self._take_output(output)
        self.outbox.append(Publish(RECEIVED, self._receipt(request, forward, fault)))

    def _receipt(
        self, request: Transfer, forward: SignedForward | None, fault: str | None
    ) -> dict[str, Any]:
        """The receipt of a give-away: `{"slot"}`, or with the fault and the signed forward."""
        if fault is None or forward is None:
            return {"slot": request.slot}
        return {"slot": request.slot, "fault": fault, "forward": forward.to_data()}

    # -- engine ------------------------------------------------------------------------------

    def _resolve(self, resolution: Ack | Faces) -> None:
        assert self.state is not None
        try:
            step = apply(self.state, DRIVER, resolution)
        except IllegalAction as exc:  # a card opened twice across requests: a deck fault
            self._stop(DRIVER, "the deck and the engine disagree", exc.reason)
            return
        self._take_step(step)

    def _take_step(self, step: Step) -> None:
        self.state = step.state
        self.events.append(StateChanged(step.state, step.events))
        for event in step.events:
            if isinstance(event, Violation):
                faces = ", ".join(str(f) for f in event.faces)
                self._stop(event.seat, event.reason, f"slots {list(event.slots)} opened as {faces}")
            elif isinstance(event, DoubtResolved):
                self.events.append(self._verification(event))

    def _verification(self, event: DoubtResolved) -> DoubtVerification:
        """L9: every pile card, who played it, its face and proof; the true total; the verdict."""
        cards = tuple(
            VerifiedCard(slot, seat, face, face_up, ProofStatus.VERIFIED)
            for (slot, seat, face_up), face in zip(self._doubt_pile, event.cards, strict=True)
        )
        return DoubtVerification(
            event.doubter,
            event.last_player,
            cards,
            event.announced,
            event.total,
            event.gloats,
            event.correct,
            event.loser,
            self._doubt_said if len(self._doubt_said) == len(cards) else (),
        )

    # -- fair deck --------------------------------------------------------------------------------

    def _map(self, slot: int, masked: Slot) -> None:
        self._slot[slot] = masked
        self._engine_slot[masked] = slot

    def _take_output(self, output: Output, transfer: Transfer | None = None) -> None:
        for message in output.messages:
            if "to" in message:
                assert transfer is not None, "only a give-away sends a private message"
                self.outbox.append(Private(message["to"], message, transfer.id, transfer.slot))
            else:
                self.outbox.append(Publish(DECK, message))
        for event in output.events:
            self._on_deck_event(event)

    def _on_deck_event(self, event: DeckEvent) -> None:
        service = self._service
        if isinstance(event, ShuffleVerified):
            self._proofs += 1
            if service is not None and service.kind == "shuffle":
                service.published += 1
            self.events.append(
                SetupProgress("shuffle", event.seat, event.seat + 1, self.seats, self._proofs)
            )
        elif isinstance(event, CardRevealed):
            if service is not None:
                service.faces[event.slot] = event.card
        elif isinstance(event, KeysReady | ListReady | CardDealt | CoinFlipped | CardReceived):
            # a received card shows in the next state: the app logs who gave it and its face
            pass

    def _stop(self, seat: int, what: str, evidence: str) -> None:
        if self.fault is None:
            self.fault = FaultDetected(seat, what, evidence)
            self.events.append(self.fault)
