"""How the table begins serving each engine request, and when a request is served.

The request server (p2p/table/core/requests.py) says which request is being served and which
envelopes it takes; this module does the fair deck's part: a new or reshuffled deck (one list,
or one per public back), the shares of a deal or a reveal from the seats that owe some, a
give-away, a joint coin that arranges slots, a deal inside a game's own steps (protocol.md
10.3-10.10).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

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
    KeysReady,
    ListReady,
    ShuffleApplied,
    Slot,
)
from fairdeal.p2p.deck.coin import SeedStream
from fairdeal.p2p.deck.events import DeckEvent
from fairdeal.p2p.deck.messages import COIN_COMMIT, COIN_REVEAL, SHARES, SHUFFLE, SharesMessage
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.table.core.api import SetupProgress
from fairdeal.p2p.table.core.outbox import DECK, Expect
from fairdeal.p2p.table.core.requests import Service, ServiceEvent, ServiceState

if TYPE_CHECKING:
    from fairdeal.p2p.table.core.driver import TableDriver

ARRANGE_LABEL = "arrange"  # the SeedStream label an Arrange permutation is drawn with


def arrangement(seed: bytes, slots: Sequence[int]) -> tuple[int, ...]:
    """The public order an Arrange's coin gives its slots: position i holds slots[perm[i]], perm
    the SeedStream(seed, "arrange") Fisher–Yates permutation (protocol.md 10.10)."""
    perm = SeedStream(seed, ARRANGE_LABEL).permutation(len(slots))
    return tuple(slots[k] for k in perm)


class Serving:
    """The fair deck's side of serving one table's engine requests."""

    def __init__(self, table: TableDriver) -> None:
        self.table = table

    def begin(self, state: Any) -> None:
        table = self.table
        request = state.pending[0]
        if isinstance(request, Deal) and table.deals_in_steps(state):
            slots = tuple(table.masked_slot(s) for s in request.slots)
            service = Service([request], slots=slots, done=all(s in table.dealt for s in slots))
            table.server.begin(service, ServiceEvent.STEP_DEAL_ASKED)
        elif isinstance(request, NewDeck | Reshuffle):
            self._begin_shuffle(request)
        elif isinstance(request, NewGroupedDeck | GroupedReshuffle):
            self._begin_grouped_shuffle(request)
        elif isinstance(request, Deal):
            self._begin_deal(state)
        elif isinstance(request, Transfer):
            table.server.begin(Service([request]))
            table.take_output(
                table.deck.give(table.masked_slot(request.slot), request.to_seat), request
            )
            table.gifts.try_forward()
        elif isinstance(request, Arrange):
            coin_id = f"{ARRANGE_LABEL}{request.id}"
            table.server.begin(Service([request], coin_id=coin_id))
            table.events.append(SetupProgress("arrange", 0, 0, table.seats, table.proofs))
            table.take_output(table.deck.coin(coin_id))  # an observer only follows it
        else:
            self._begin_reveal(request)

    def _begin_shuffle(self, request: NewDeck | Reshuffle) -> None:
        table = self.table
        list_id = f"r{request.id}"
        if isinstance(request, NewDeck):
            output = table.deck.new_deck(list_id, table.deck_id(), range(len(request.slots)))
            new = request.slots
        else:
            output = table.deck.reshuffle(list_id, [table.masked_slot(s) for s in request.old])
            new = request.new
        for index, slot in enumerate(new):
            table.map_slot(slot, Slot(list_id, index))
        table.server.begin(Service([request], list_ids=(list_id,)))
        table.events.append(SetupProgress("shuffle", 0, 0, table.seats, table.proofs))
        table.take_output(output)

    def _begin_grouped_shuffle(self, request: NewGroupedDeck | GroupedReshuffle) -> None:
        """One masked list per back, `r{id}.b{back}` in increasing back: a new deck holds the
        card ids of that back (in increasing id), a reshuffle the old slots of that back (in the
        request's order); slot k of the back's new slots is index k of its list (T1, T9)."""
        table = self.table
        if isinstance(request, NewGroupedDeck):
            backs = dict(zip(request.slots, request.backs, strict=True))
            new_slots = request.slots
        else:
            backs = {
                new: table.back_of(old) for old, new in zip(request.old, request.new, strict=True)
            }
            new_slots = request.new
        by_back: dict[int, list[int]] = {}
        for slot in new_slots:
            by_back.setdefault(backs[slot], []).append(slot)
        card_backs = table.game.backs(table.options)
        output = Output()
        list_ids = []
        deck_id = table.deck_id()
        for back in sorted(by_back):
            list_id = f"r{request.id}.b{back}"
            list_ids.append(list_id)
            if isinstance(request, NewGroupedDeck):
                cards = [c for c, b in enumerate(card_backs) if b == back]
                if len(cards) != len(by_back[back]):
                    raise ValueError(f"back {back}: {len(by_back[back])} slots, {len(cards)} cards")
                output.extend(table.deck.new_deck(list_id, deck_id, cards))
            else:
                sources = [table.masked_slot(o) for o in request.old if table.back_of(o) == back]
                output.extend(table.deck.reshuffle(list_id, sources))
            for index, slot in enumerate(by_back[back]):
                table.map_slot(slot, Slot(list_id, index), back)
        table.server.begin(Service([request], list_ids=tuple(list_ids)))
        table.events.append(SetupProgress("shuffle", 0, 0, table.seats, table.proofs))
        table.take_output(output)

    def _begin_deal(self, state: Any) -> None:
        table = self.table
        batch: list[Request] = []
        owners: dict[Slot, int] = {}
        for pending in state.pending:
            if not isinstance(pending, Deal):
                break
            batch.append(pending)
            owners.update({table.masked_slot(s): pending.seat for s in pending.slots})
        publishers = [s for s in range(table.seats) if any(o != s for o in owners.values())]
        table.server.begin(Service(batch, publishers=publishers, slots=tuple(owners)))
        table.events.append(SetupProgress("deal", None, 0, len(publishers), table.proofs))
        if owners:
            table.take_output(table.deck.deal(owners))

    def _begin_reveal(self, request: Reveal) -> None:
        table = self.table
        slots = tuple(table.masked_slot(s) for s in request.slots)
        owners_of = {table.deck.owner(s) for s in slots}
        if None in owners_of:
            publishers = list(range(table.seats))
        else:
            publishers = sorted(o for o in owners_of if o is not None)
        table.server.begin(Service([request], publishers=publishers, slots=slots))
        table.events.append(SetupProgress("reveal", None, 0, len(publishers), table.proofs))
        table.take_output(table.deck.reveal(slots))

    def complete(self, service: Service) -> bool:
        table = self.table
        if service.state is ServiceState.SHUFFLE:
            return all(table.deck.list_ready(list_id) for list_id in service.list_ids)
        if service.state is ServiceState.RECEIPT:
            return service.done
        if service.state is ServiceState.DEALING:
            return service.done and not table.step_under_way()
        if service.state is ServiceState.COIN:
            return table.deck.coin_seed(service.coin_id) is not None
        request = service.requests[0]
        if service.published < len(service.publishers) and service.slots:
            return False
        if isinstance(request, Reveal):
            return all(s in service.faces for s in service.slots)
        return True

    def expects(self, service: Service) -> Expect | None:
        """The envelope the request being served takes next."""
        table = self.table
        if service.state is ServiceState.SHUFFLE:
            lists = len(service.list_ids)
            return Expect(service.published // lists, DECK, SHUFFLE)  # seat order, list order
        if service.state is ServiceState.SHARES:
            return Expect(service.publishers[service.published], DECK, SHARES)
        if service.state is ServiceState.COIN:
            step = COIN_COMMIT if service.published < table.seats else COIN_REVEAL
            return Expect(service.published % table.seats, DECK, step)
        if service.state is ServiceState.DEALING:
            return table.next_action()
        transfer = service.transfer
        assert transfer is not None
        return Expect(transfer.to_seat, table.received_kind)

    def on_deck_event(self, event: DeckEvent) -> None:
        """What the fair deck reports moves the request being served."""
        table = self.table
        service = table.server.service
        if isinstance(event, ShuffleApplied):
            table.count_proofs(1)
            if service is not None and service.state is ServiceState.SHUFFLE:
                table.server.note(ServiceEvent.SHUFFLE_APPLIED).published += 1
            lists = len(service.list_ids) if service is not None and service.list_ids else 1
            done = service.published // lists if service is not None else event.seat + 1
            table.events.append(
                SetupProgress("shuffle", event.seat, done, table.seats, table.proofs)
            )
        elif isinstance(event, CardRevealed):
            if service is not None:
                service.faces[event.slot] = event.card
        elif isinstance(event, CardDealt):
            table.dealt.add(event.slot)
            table.on_card_dealt(event)
            if table.server.state is ServiceState.DEALING:
                dealing = table.server.note(ServiceEvent.CARD_DEALT)
                dealing.done = all(s in table.dealt for s in dealing.slots)
        elif isinstance(event, KeysReady | ListReady | CoinFlipped | CardReceived):
            # a received card shows in the next state: the app logs who gave it and its face
            pass

    def serve(self) -> None:
        """Start the game once set up, then serve requests until an envelope is needed."""
        table = self.table
        if table.fault is not None or not table.setup.over:
            return
        if table.state is None:
            table.take_step(table.new_game_step())
        while table.fault is None:
            state = table.state
            assert state is not None
            if not state.pending:
                return
            if table.server.service is None:
                table._begin(state)
            service = table.server.service
            assert service is not None
            if not self.complete(service):
                return
            self._finish(table.server.served())

    def _finish(self, service: Service) -> None:
        """Answer the engine for a served request (or batch)."""
        table = self.table
        for request in service.requests:
            if isinstance(request, Reveal):
                faces = tuple(service.faces[table.masked_slot(s)] for s in request.slots)
                table.resolve(Faces(request.id, faces))
            elif isinstance(request, Arrange):
                seed = table.deck.coin_seed(service.coin_id)
                assert seed is not None
                table.on_arranged(request, seed)
                table.resolve(Arrangement(request.id, arrangement(seed, request.slots)))
            else:
                table.resolve(Ack(request.id))

    def on_deck_envelope(self, envelope: Envelope, expect: Expect) -> None:
        """A fair-deck envelope where `expect` was due: checked, then taken by the deck."""
        table = self.table
        body = envelope.body
        kind = body.get("kind") if isinstance(body, Mapping) else None
        if kind != expect.deck_kind:
            raise DeckFault(envelope.seat, f"sent {kind!r} where {expect} was due")
        service = table.server.service
        if kind == SHUFFLE and service is not None and service.state is ServiceState.SHUFFLE:
            wanted = service.list_ids[service.published % len(service.list_ids)]
            if body.get("list") != wanted:
                raise DeckFault(envelope.seat, f"shuffled {body.get('list')!r}, not {wanted!r}")
        message = None
        if kind == SHARES:  # parsed once, here: the deck session reuses it
            message = table.deck.parse(envelope.seat, body)
            assert isinstance(message, SharesMessage)
            table.shares.check(envelope.seat, message)
        output = table.deck.handle(envelope.seat, body, message)
        if isinstance(message, SharesMessage):
            table.shares.note_public(message)
        if not table.setup.over:
            table.setup.done += 1
            table.count_proofs(1)
        elif service is not None and service.state is ServiceState.COIN:
            table.server.note(ServiceEvent.COIN_APPLIED).published += 1
        table.take_output(output)
        if service is not None and service.state is ServiceState.SHARES and kind == SHARES:
            table.server.note(ServiceEvent.SHARES_APPLIED).published += 1
