"""How the table serves each engine request with the fair deck: the request server's side.

The request server (p2p/table/core/requests.py) is the machine: its states, what moves them, who
acts next and when a request is done. `Serving` owns it, the shares ledger (shares.py) and the
record of dealt cards, and does the fair deck's part of each request: a new or reshuffled deck
(one list, or one per public back), the shares of a deal or a reveal from the seats that owe
some, a give-away, a joint coin that arranges slots, a deal inside a game's own steps
(protocol.md 10.3-10.10). It takes typed inputs (a request to begin, a fair-deck envelope, a
deck event, a receipt) and returns effects (effects.py) for the driver to apply: it holds no
pointer to the driver.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.engine.requests import (
    Ack,
    Arrange,
    Arrangement,
    Deal,
    Faces,
    GroupedReshuffle,
    NewDeck,
    NewGroupedDeck,
    Request,
    Reshuffle,
    Reveal,
    Transfer,
)
from fairdeal.p2p.deck import (
    CardDealt,
    CardReceived,
    CardRevealed,
    CoinFlipped,
    DeckFault,
    DeckSession,
    KeysReady,
    ListReady,
    ShuffleApplied,
    Slot,
)
from fairdeal.p2p.deck.coin import SeedStream
from fairdeal.p2p.deck.events import DeckEvent
from fairdeal.p2p.deck.messages import SHARES, SHUFFLE, SharesMessage
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.table.core.effects import Answer, Arranged, Effect, Progress, Proved, TakeDeck
from fairdeal.p2p.table.core.outbox import Expect
from fairdeal.p2p.table.core.requests import RequestServer, Service, ServiceEvent, ServiceState
from fairdeal.p2p.table.core.shares import SharesLedger, require_shares
from fairdeal.p2p.table.core.slots import SlotMap

ARRANGE_LABEL = "arrange"  # the SeedStream label an Arrange permutation is drawn with


def arrangement(seed: bytes, slots: Sequence[int]) -> tuple[int, ...]:
    """The public order an Arrange's coin gives its slots: position i holds slots[perm[i]], perm
    the SeedStream(seed, "arrange") Fisher–Yates permutation (protocol.md 10.10)."""
    perm = SeedStream(seed, ARRANGE_LABEL).permutation(len(slots))
    return tuple(slots[k] for k in perm)


@dataclass(frozen=True, slots=True)
class Asked:
    """The engine's pending requests, to begin serving the first (a run of `Deal`s at once), and
    what the game says of them: the id of a new deck, and whether a `Deal` is dealt inside the
    game's own steps (`TableDriver.deals_in_steps`)."""

    pending: Sequence[Request]
    deck_id: str = ""
    in_steps: bool = False


class Serving:
    """The fair deck's side of serving one table's engine requests: owns the request server, the
    shares ledger and the cards dealt; sees the table's seats, its fair deck and its slot map."""

    def __init__(
        self,
        seats: int,
        deck: DeckSession,
        slots: SlotMap,
        *,
        receipt_kind: str = "",
        card_backs: Callable[[], Sequence[int]] = tuple,
    ) -> None:
        """`receipt_kind`: the game's give-away receipt; `card_backs`: the public back of every
        card id (the game's `backs`, read when a grouped deck is made)."""
        self.seats = seats
        self.deck = deck
        self.slots = slots
        self.receipt_kind = receipt_kind
        self.card_backs = card_backs
        self.server = RequestServer()
        self.shares = SharesLedger(seats)
        self.dealt: set[Slot] = set()  # cards whose every share is in (a game may clear it)

    @property
    def service(self) -> Service | None:
        """The engine request (or batch of deals) being served, if any."""
        return self.server.service

    def expected(self) -> Expect | None:
        """The envelope the request being served takes next (None: the game's ordering rule)."""
        return self.server.expected()

    # -- inputs -------------------------------------------------------------------------------

    def begin(self, asked: Asked) -> list[Effect]:
        """Begin serving `asked.pending[0]`."""
        request = asked.pending[0]
        if isinstance(request, Deal) and asked.in_steps:
            slots = tuple(self.slots.masked(s) for s in request.slots)
            service = Service([request], slots=slots, done=all(s in self.dealt for s in slots))
            self.server.begin(service, ServiceEvent.STEP_DEAL_ASKED)
            return []
        if isinstance(request, NewDeck | Reshuffle):
            return self._begin_shuffle(request, asked.deck_id)
        if isinstance(request, NewGroupedDeck | GroupedReshuffle):
            return self._begin_grouped_shuffle(request, asked.deck_id)
        if isinstance(request, Deal):
            return self._begin_deal(asked.pending)
        if isinstance(request, Transfer):
            self.server.begin(Service([request], receipt_kind=self.receipt_kind))
            give = self.deck.give(self.slots.masked(request.slot), request.to_seat)
            return [TakeDeck(give, request)]
        if isinstance(request, Arrange):
            coin_id = f"{ARRANGE_LABEL}{request.id}"
            self.server.begin(Service([request], coin_id=coin_id, seats=self.seats))
            # an observer only follows the coin
            return [Progress("arrange", 0, 0, self.seats), TakeDeck(self.deck.coin(coin_id))]
        assert isinstance(request, Reveal)
        return self._begin_reveal(request)

    def on_deck_envelope(self, envelope: Envelope, expect: Expect) -> list[Effect]:
        """A fair-deck envelope where `expect` was due: checked, then taken by the deck. Raises
        DeckFault naming its seat, and changes nothing here, when it is not the one due or
        carries other shares than the seat owes."""
        body = envelope.body
        kind = body.get("kind") if isinstance(body, Mapping) else None
        if kind != expect.deck_kind:
            raise DeckFault(envelope.seat, f"sent {kind!r} where {expect} was due")
        service = self.server.service
        if kind == SHUFFLE and service is not None and service.state is ServiceState.SHUFFLE:
            wanted = service.list_ids[service.published % len(service.list_ids)]
            if body.get("list") != wanted:
                raise DeckFault(envelope.seat, f"shuffled {body.get('list')!r}, not {wanted!r}")
        message = None
        if kind == SHARES:  # parsed once, here: the deck session reuses it
            message = self.deck.parse(envelope.seat, body)
            assert isinstance(message, SharesMessage)
            if service is not None:
                self.shares.check(envelope.seat, message, service, self.deck.owner)
        output = self.deck.handle(envelope.seat, body, message)
        effects: list[Effect] = []
        if isinstance(message, SharesMessage):
            effects.append(Proved(self.shares.note_public(message)))
        if service is not None and service.state is ServiceState.COIN:
            self.server.note(ServiceEvent.COIN_APPLIED)
        effects.append(TakeDeck(output))
        if service is not None and service.state is ServiceState.SHARES and kind == SHARES:
            self.server.note(ServiceEvent.SHARES_APPLIED)
        return effects

    def on_deck_event(self, event: DeckEvent) -> list[Effect]:
        """What the fair deck reports moves the request being served."""
        service = self.server.service
        if isinstance(event, ShuffleApplied):
            if service is not None and service.state is ServiceState.SHUFFLE:
                self.server.note(ServiceEvent.SHUFFLE_APPLIED)
            lists = len(service.list_ids) if service is not None and service.list_ids else 1
            done = service.published // lists if service is not None else event.seat + 1
            return [Proved(1), Progress("shuffle", event.seat, done, self.seats)]
        if isinstance(event, CardRevealed):
            if service is not None:
                service.faces[event.slot] = event.card
        elif isinstance(event, CardDealt):
            self.dealt.add(event.slot)
            if service is not None and service.state is ServiceState.DEALING:
                dealt = all(s in self.dealt for s in service.slots)
                self.server.note(ServiceEvent.CARD_DEALT, done=dealt)
        elif isinstance(event, KeysReady | ListReady | CoinFlipped | CardReceived):
            # a received card shows in the next state: the app logs who gave it and its face
            pass
        return []

    def on_receipt(self) -> None:
        """The give-away's receipt is applied (giveaways.py judged it): the Transfer is served."""
        self.server.note(ServiceEvent.RECEIPT_APPLIED)

    def take_owed_shares(self, seat: int, body: Any, owed: set[tuple[Slot, int]]) -> list[Effect]:
        """A seat's `deck.shares` carried in one of the game's own envelopes: exactly `owed`
        (raises DeckFault naming the seat, noting nothing), then the deck takes them."""
        message = self.deck.parse(seat, body)
        assert isinstance(message, SharesMessage)
        require_shares(seat, message, owed, False)
        output = self.deck.handle(seat, body, message)
        return [Proved(self.shares.note_public(message)), TakeDeck(output)]

    def finish(self, step_under_way: bool) -> list[Effect] | None:
        """If the request being served is done (`requests.STATES`), end it and answer the
        engine for it (or for each of its batch); None while it is not."""
        if not self.server.complete(self.deck, step_under_way):
            return None
        service = self.server.served()
        answers: list[Effect] = []
        for request in service.requests:
            if isinstance(request, Reveal):
                faces = tuple(service.faces[self.slots.masked(s)] for s in request.slots)
                answers.append(Answer(Faces(request.id, faces)))
            elif isinstance(request, Arrange):
                seed = self.deck.coin_seed(service.coin_id)
                assert seed is not None
                answers.append(Arranged(request, seed))
                answers.append(Answer(Arrangement(request.id, arrangement(seed, request.slots))))
            else:
                answers.append(Answer(Ack(request.id)))
        return answers

    # -- how each request begins ----------------------------------------------------------------

    def _begin_shuffle(self, request: NewDeck | Reshuffle, deck_id: str) -> list[Effect]:
        list_id = f"r{request.id}"
        if isinstance(request, NewDeck):
            output = self.deck.new_deck(list_id, deck_id, range(len(request.slots)))
            new = request.slots
        else:
            output = self.deck.reshuffle(list_id, [self.slots.masked(s) for s in request.old])
            new = request.new
        for index, slot in enumerate(new):
            self.slots.map(slot, Slot(list_id, index))
        self.server.begin(Service([request], list_ids=(list_id,)))
        return [Progress("shuffle", 0, 0, self.seats), TakeDeck(output)]

    def _begin_grouped_shuffle(
        self, request: NewGroupedDeck | GroupedReshuffle, deck_id: str
    ) -> list[Effect]:
        """One masked list per back, `r{id}.b{back}` in increasing back: a new deck holds the
        card ids of that back (in increasing id), a reshuffle the old slots of that back (in the
        request's order); slot k of the back's new slots is index k of its list (T1, T9)."""
        if isinstance(request, NewGroupedDeck):
            backs = dict(zip(request.slots, request.backs, strict=True))
            new_slots = request.slots
        else:
            backs = {
                new: self.slots.back(old) for old, new in zip(request.old, request.new, strict=True)
            }
            new_slots = request.new
        by_back: dict[int, list[int]] = {}
        for slot in new_slots:
            by_back.setdefault(backs[slot], []).append(slot)
        card_backs = self.card_backs() if isinstance(request, NewGroupedDeck) else ()
        output = Output()
        list_ids = []
        for back in sorted(by_back):
            list_id = f"r{request.id}.b{back}"
            list_ids.append(list_id)
            if isinstance(request, NewGroupedDeck):
                cards = [c for c, b in enumerate(card_backs) if b == back]
                if len(cards) != len(by_back[back]):
                    raise ValueError(f"back {back}: {len(by_back[back])} slots, {len(cards)} cards")
                output.extend(self.deck.new_deck(list_id, deck_id, cards))
            else:
                old = [self.slots.masked(o) for o in request.old if self.slots.back(o) == back]
                output.extend(self.deck.reshuffle(list_id, old))
            for index, slot in enumerate(by_back[back]):
                self.slots.map(slot, Slot(list_id, index), back)
        self.server.begin(Service([request], list_ids=tuple(list_ids)))
        return [Progress("shuffle", 0, 0, self.seats), TakeDeck(output)]

    def _begin_deal(self, pending: Sequence[Request]) -> list[Effect]:
        batch: list[Request] = []
        owners: dict[Slot, int] = {}
        for request in pending:
            if not isinstance(request, Deal):
                break
            batch.append(request)
            owners.update({self.slots.masked(s): request.seat for s in request.slots})
        publishers = [s for s in range(self.seats) if any(o != s for o in owners.values())]
        self.server.begin(Service(batch, publishers=publishers, slots=tuple(owners)))
        effects: list[Effect] = [Progress("deal", None, 0, len(publishers))]
        if owners:
            effects.append(TakeDeck(self.deck.deal(owners)))
        return effects

    def _begin_reveal(self, request: Reveal) -> list[Effect]:
        slots = tuple(self.slots.masked(s) for s in request.slots)
        owners_of = {self.deck.owner(s) for s in slots}
        if None in owners_of:
            publishers = list(range(self.seats))
        else:
            publishers = sorted(o for o in owners_of if o is not None)
        self.server.begin(Service([request], publishers=publishers, slots=slots))
        return [Progress("reveal", None, 0, len(publishers)), TakeDeck(self.deck.reveal(slots))]
