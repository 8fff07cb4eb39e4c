"""The table core's small machines on their own (p2p/table/core/): the request server's
per-state rules (requests.py `STATES`), the fair deck's side of serving (serving.py), the shares
ledger (shares.py) and the give-away forwards (giveaways.py). Each takes typed inputs and
returns effects; a refused input names the culprit and changes nothing."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from fairdeal.engine.larry import LarryOptions
from fairdeal.engine.requests import Arrange, Deal, NewDeck, Reveal, Transfer
from fairdeal.p2p.deck import DeckFault, DeckSession, Slot
from fairdeal.p2p.deck.messages import (
    COIN_COMMIT,
    COIN_REVEAL,
    SHARES,
    SHUFFLE,
    SharesMessage,
    SlotShare,
)
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.effects import Progress, TakeDeck
from fairdeal.p2p.table.core.forwards import sign_forward
from fairdeal.p2p.table.core.giveaways import (
    TRANSITIONS as GIFT_TRANSITIONS,
)
from fairdeal.p2p.table.core.giveaways import (
    WHO_ACTS,
    GiftState,
    GiftStateError,
    GiftTerms,
    GiveAways,
)
from fairdeal.p2p.table.core.outbox import DECK, Expect, Publish
from fairdeal.p2p.table.core.requests import (
    STATES,
    RequestServer,
    Service,
    ServiceEvent,
    ServiceState,
)
from fairdeal.p2p.table.core.serving import Asked, Serving
from fairdeal.p2p.table.core.shares import SharesLedger
from fairdeal.p2p.table.core.slots import SlotMap
from fairdeal.p2p.table.runtime.randomness import SeededRandom
from tests.game.sansio import SansIOTable

TABLE = b"t" * 16
RECEIPT = "game.received"


class Facts:
    """The fair deck's answers the done-rules read."""

    def __init__(self, ready: bool = False, seed: bytes | None = None) -> None:
        self.ready, self.seed = ready, seed

    def list_ready(self, list_id: str) -> bool:
        return self.ready

    def coin_seed(self, coin_id: str) -> bytes | None:
        return self.seed


def envelope(seat: int, kind: str, body: Any) -> Envelope:
    return Envelope(TABLE, seat, 0, b"", kind, body, b"", b"")


# -- the request server: who acts next, when a request is done ----------------------------------


def test_every_state_has_a_rule_saying_who_acts_and_when_it_is_done() -> None:
    assert set(STATES) == set(ServiceState)
    assert all(rule.who and rule.done_when for rule in STATES.values())


def test_a_shuffle_is_every_seat_in_turn_list_by_list_and_done_when_every_list_is_ready() -> None:
    server = RequestServer()
    server.begin(Service([NewDeck(1, (0, 1))], list_ids=("r1.b0", "r1.b1")))
    seen = []
    for _ in range(6):
        seen.append(server.expected())
        server.note(ServiceEvent.SHUFFLE_APPLIED)
    assert seen == [Expect(s, DECK, SHUFFLE) for s in (0, 0, 1, 1, 2, 2)]
    assert not server.complete(Facts(ready=False), False)
    assert server.complete(Facts(ready=True), False)


def test_shares_come_from_each_owing_seat_and_a_reveal_waits_for_every_front() -> None:
    server = RequestServer()
    slot = Slot("r1", 0)
    service = server.begin(Service([Reveal(2, (0,), "doubt")], publishers=[0, 2], slots=(slot,)))
    assert server.expected() == Expect(0, DECK, SHARES)
    server.note(ServiceEvent.SHARES_APPLIED)
    assert server.expected() == Expect(2, DECK, SHARES)
    server.note(ServiceEvent.SHARES_APPLIED)
    assert not server.complete(Facts(), False)  # every share in, the front not opened yet
    service.faces[slot] = 7
    assert server.complete(Facts(), False)


def test_a_coin_takes_every_commitment_then_every_reveal_and_is_done_with_its_seed() -> None:
    server = RequestServer()
    server.begin(Service([Arrange(3, (0, 1), "layout")], coin_id="arrange3", seats=2))
    steps = []
    for _ in range(4):
        steps.append(server.expected())
        server.note(ServiceEvent.COIN_APPLIED)
    assert steps == [
        Expect(0, DECK, COIN_COMMIT),
        Expect(1, DECK, COIN_COMMIT),
        Expect(0, DECK, COIN_REVEAL),
        Expect(1, DECK, COIN_REVEAL),
    ]
    assert not server.complete(Facts(), False)
    assert server.complete(Facts(seed=b"s" * 32), False)


def test_a_give_away_waits_for_the_receivers_receipt_and_a_deal_in_steps_for_the_game() -> None:
    server = RequestServer()
    server.begin(Service([Transfer(4, 9, 0, 2)], receipt_kind=RECEIPT))
    assert server.expected() == Expect(2, RECEIPT)
    assert not server.complete(Facts(), False)
    server.note(ServiceEvent.RECEIPT_APPLIED)
    assert server.complete(Facts(), False)
    server.served()
    server.begin(Service([Deal(5, 1, (3,))], done=True), ServiceEvent.STEP_DEAL_ASKED)
    assert server.expected() is None  # the game's ordering rule says
    assert not server.complete(Facts(), True)  # a step of the game is under way
    assert server.complete(Facts(), False)


# -- the fair deck's side of serving --------------------------------------------------------


def serving(seats: int = 3) -> Serving:
    """An auditor's serving part (it signs nothing), its fair deck keyed by every seat."""
    observer = DeckSession(TABLE, None, seats)
    for seat in range(seats):
        deck = DeckSession(TABLE, seat, seats, random_bytes=SeededRandom(bytes([seat]) * 32))
        for message in deck.start().messages:
            observer.handle(seat, message)
    return Serving(seats, observer, SlotMap(), receipt_kind=RECEIPT)


def test_a_new_deck_maps_its_slots_and_asks_for_every_seats_shuffle() -> None:
    part = serving()  # an auditor: it shuffles nothing itself
    effects = part.begin(Asked([NewDeck(1, (0, 1, 2))], deck_id="hand1"))
    assert effects[0] == Progress("shuffle", 0, 0, 3)
    assert isinstance(effects[1], TakeDeck) and effects[1].output.messages == []
    assert part.slots.masked(2) == Slot("r1", 2)
    assert part.server.state is ServiceState.SHUFFLE
    assert part.expected() == Expect(0, DECK, SHUFFLE)
    assert part.finish(step_under_way=False) is None  # no shuffle applied yet


def test_a_deck_envelope_of_another_kind_or_list_names_its_seat_and_changes_nothing() -> None:
    part = serving()
    part.begin(Asked([NewDeck(1, (0, 1, 2))], deck_id="hand1"))
    due = part.expected()
    assert due is not None
    with pytest.raises(DeckFault) as wrong_kind:
        part.on_deck_envelope(envelope(0, DECK, {"kind": SHARES}), due)
    assert wrong_kind.value.seat == 0
    with pytest.raises(DeckFault, match="not 'r1'") as wrong_list:
        part.on_deck_envelope(envelope(0, DECK, {"kind": SHUFFLE, "list": "r0"}), due)
    assert wrong_list.value.seat == 0
    service = part.service
    assert service is not None and service.published == 0
    assert part.server.state is ServiceState.SHUFFLE and part.expected() == due


# -- the shares ledger --------------------------------------------------------------------------


def shares(seat: int, *owed: tuple[Slot, int]) -> SharesMessage:
    items = [SlotShare(slot, cast(Any, SimpleNamespace(seat=of))) for slot, of in owed]
    return SharesMessage(seat, tuple(items))


def test_a_deal_owes_each_seats_share_of_every_card_dealt_to_another() -> None:
    ledger = SharesLedger(3)
    a, b = Slot("r1", 0), Slot("r1", 1)
    service = Service([Deal(1, 0, (0, 1))], publishers=[1, 2], slots=(a, b))
    owner = {a: 0, b: 0}.get
    assert ledger.owed(1, service, owner) == {(a, 1), (b, 1)}
    assert ledger.owed(0, service, owner) == set()
    ledger.check(1, shares(1, (a, 1), (b, 1)), service, owner)  # exactly owed: taken


def test_shares_other_than_the_owed_name_their_seat_and_nothing_is_noted() -> None:
    ledger = SharesLedger(3)
    a = Slot("r1", 0)
    service = Service([Reveal(2, (0,), "score")], publishers=[0], slots=(a,))
    owner = {a: 0}.get
    assert ledger.owed(0, service, owner) == {(a, 0), (a, 1), (a, 2)}
    with pytest.raises(DeckFault) as wrong:
        ledger.check(0, shares(0, (a, 0)), service, owner)
    assert wrong.value.seat == 0
    assert wrong.value.evidence == {"missing": ["r1[0]/1", "r1[0]/2"], "unexpected": []}
    assert ledger.public == {}
    assert ledger.note_public(shares(1, (a, 1))) == 1
    assert ledger.owed(0, service, owner) == {(a, 0), (a, 2)}  # seat 1's is public now


# -- the give-away forwards ---------------------------------------------------------------------


class Deck:
    """The fair deck as the give-aways use it: whether a card waits for its forward, taking
    one (raising DeckFault for a bad one), and judging one shown in a receipt."""

    def __init__(self, awaiting: bool = True, bad: bool = False) -> None:
        self.awaiting, self.bad, self.handled = awaiting, bad, 0

    def awaiting_forward(self, slot: Slot) -> bool:
        return self.awaiting

    def handle(self, seat: int, body: Any) -> Output:
        if self.bad:
            raise DeckFault(seat, "a share's proof fails")
        self.handled += 1
        return Output()

    def check_forward(self, sender: int, slot: Slot, body: Any) -> None:
        if self.bad:
            raise DeckFault(sender, "a share's proof fails")


IDS = [Identity.generate(f"seat{s}") for s in range(3)]
GIFT = Transfer(4, 9, 0, 1)  # seat 0 gives engine slot 9 to seat 1
CARD = Slot("r1", 4)


def gifts(me: int, deck: Deck) -> GiveAways:
    keys = tuple(i.key for i in IDS)
    return GiveAways(GiftTerms(TABLE, "game", 3, me, keys, RECEIPT), cast(DeckSession, deck))


def forward(giver: int = 0, to: int = 1, transfer: int = 4, slot: int = 9, by: int = 0) -> Any:
    body = {"kind": "deck.forward", "seat": giver, "to": to, "shares": []}
    return sign_forward(IDS[by].sign, TABLE, transfer, slot, body, game="game").to_data()


def test_the_give_away_table_is_drawn_with_who_acts_in_every_state() -> None:
    assert set(WHO_ACTS) == set(GiftState)
    assert {source for source, _ in GIFT_TRANSITIONS} == set(GiftState)


def test_a_forward_that_comes_early_is_held_then_opened_when_its_transfer_is_served() -> None:
    deck = Deck()
    part = gifts(1, deck)
    assert part.receive(0, forward()) == []
    assert part.state is GiftState.IDLE
    effects = part.begin(GIFT, CARD)
    assert part.state is GiftState.AWAITING_RECEIPT and deck.handled == 1
    assert effects[-1] == Publish(RECEIPT, {"slot": 9})
    assert [f.transfer for f in part.kept] == [4]
    assert part.receive(0, forward()) == []  # a copy after a reconnect: ignored
    part.on_receipt(envelope(1, RECEIPT, {"slot": 9}))
    assert part.state is GiftState.IDLE and part.transfer is None


def test_a_bad_forward_is_answered_by_an_accusing_receipt_and_never_kept() -> None:
    part = gifts(1, Deck(bad=True))
    part.begin(GIFT, CARD)
    assert part.state is GiftState.AWAITING_FORWARD
    effects = part.receive(0, forward())
    assert part.state is GiftState.AWAITING_RECEIPT and part.kept == []
    receipt = effects[-1]
    assert isinstance(receipt, Publish) and receipt.body["fault"] == "a share's proof fails"
    assert receipt.body["forward"]["transfer"] == 4


def test_a_card_that_came_back_needs_no_forward_and_is_receipted_at_once() -> None:
    part = gifts(1, Deck(awaiting=False))
    assert part.begin(GIFT, CARD) == [Publish(RECEIPT, {"slot": 9})]
    assert part.state is GiftState.AWAITING_RECEIPT


@pytest.mark.parametrize(
    ("sender", "data", "words"),
    [
        (2, {"transfer": 4}, "unreadable forward"),
        (2, forward(giver=0, by=2), "in seat 0's name"),
        (0, forward(to=2), "for seat 2"),
        (0, forward(by=2), "did not sign"),
        (2, forward(giver=2, by=2), "not giving"),
    ],
)
def test_a_refused_forward_names_its_sender_and_changes_nothing(
    sender: int, data: Any, words: str
) -> None:
    deck = Deck()
    part = gifts(1, deck)
    part.begin(GIFT, CARD)
    with pytest.raises(DeckFault, match=words) as refused:
        part.receive(sender, data)
    assert refused.value.seat == sender
    assert part.state is GiftState.AWAITING_FORWARD and deck.handled == 0 and part.kept == []
    part.receive(0, forward())  # the giver's own still opens the card
    assert part.state is GiftState.AWAITING_RECEIPT and deck.handled == 1


@pytest.mark.parametrize(
    ("body", "blamed", "words"),
    [
        ({"slot": 8}, 1, "another card"),
        ({"slot": 9, "note": "thanks"}, 1, "unknown fields"),
        ({"slot": 9, "forward": {}}, 1, "a forward but no fault"),
        ({"slot": 9, "fault": "bad"}, 1, "without its signed forward"),
        ({"slot": 9, "fault": "bad", "forward": forward(by=2)}, 1, "did not sign for this gift"),
        ({"slot": 9, "fault": "bad", "forward": forward()}, 1, "falsely accused"),
    ],
)
def test_a_refused_receipt_names_whoever_is_at_fault_and_changes_nothing(
    body: dict[str, Any], blamed: int, words: str
) -> None:
    part = gifts(2, Deck())  # a third seat judges
    part.begin(GIFT, CARD)
    with pytest.raises(DeckFault, match=words) as refused:
        part.on_receipt(envelope(1, RECEIPT, body))
    assert refused.value.seat == blamed
    assert part.state is GiftState.AWAITING_RECEIPT and part.transfer == GIFT


def test_an_accusation_proved_by_the_givers_signed_forward_blames_the_giver() -> None:
    part = gifts(2, Deck(bad=True))
    part.begin(GIFT, CARD)
    body = {"slot": 9, "fault": "bad", "forward": forward()}
    with pytest.raises(DeckFault, match="gave a bad card") as proved:
        part.on_receipt(envelope(1, RECEIPT, body))
    assert proved.value.seat == 0


def test_a_receipt_where_no_card_was_given_blames_its_author() -> None:
    part = gifts(2, Deck())
    with pytest.raises(DeckFault, match="no card was given") as refused:
        part.on_receipt(envelope(1, RECEIPT, {"slot": 9}))
    assert refused.value.seat == 1 and part.state is GiftState.IDLE


def test_an_input_the_machine_does_not_take_names_state_and_input_and_changes_nothing() -> None:
    part = gifts(1, Deck())
    part.begin(GIFT, CARD)
    with pytest.raises(GiftStateError, match="Transfer to this seat in state awaiting forward"):
        part.begin(Transfer(5, 10, 0, 1), Slot("r1", 5))
    assert part.state is GiftState.AWAITING_FORWARD and part.transfer == GIFT


# -- the driver only wires: no part points back at it ----------------------------------------

PARTS = ("serving", "shares", "giveaways", "owing", "terms", "setup", "slots", "requests")


def test_no_part_of_the_table_core_imports_the_driver() -> None:
    """Not even under TYPE_CHECKING or inside a function: the driver imports its parts, never
    the other way round (no import cycle)."""
    core = Path(__file__).resolve().parents[2] / "p2p" / "table" / "core"
    for part in PARTS:
        tree = ast.parse((core / f"{part}.py").read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} | {
            a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names
        }
        assert "fairdeal.p2p.table.core.driver" not in imported, part


def test_a_tables_parts_hold_no_pointer_back_to_it() -> None:
    table = SansIOTable(3, LarryOptions(short_game=True), seed=3).tables[0]
    parts = [table.serving, table.serving.server, table.serving.shares, table.gifts, table.setup]
    for part in parts:
        held = [getattr(part, n) for n in getattr(part, "__slots__", ())] + list(
            vars(part).values()
        )
        assert all(value is not table for value in held), type(part).__name__
        assert not any(isinstance(value, TableDriver) for value in held), type(part).__name__
