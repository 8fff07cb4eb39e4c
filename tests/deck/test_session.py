"""The sans-IO session: honest games for several table sizes, and every fault blamed right.

Larry (L1: 54 cards) deals from one list (L3); a card given away (L11) is forwarded privately;
the discard pile is reshuffled into a new pick-up pile (L14).
"""

from __future__ import annotations

import copy

import msgpack
import pytest

from fairdeal.p2p.deck import (
    CardDealt,
    CardReceived,
    CardRevealed,
    DeckFault,
    DeckSession,
    DeckUsageError,
    ParseError,
    ProofError,
    Slot,
)
from fairdeal.p2p.deck.group import G, L, add, mul_base
from fairdeal.p2p.deck.keys import SecretKey
from fairdeal.p2p.deck.messages import SlotShare

from .conftest import TABLE_ID, keyed_table, shuffled_table, slots


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_honest_game_deals_gives_reveals_and_reshuffles(seats: int) -> None:
    cards = 12
    table = shuffled_table(seats, cards, seed=seats)
    sessions = table.sessions
    hands = {Slot("d0", i): i % seats for i in range(2 * seats)}
    table.command(lambda s: s.deal(hands))

    faces: dict[Slot, int] = {}
    for slot, owner in hands.items():
        for session in sessions:
            known = session.known_card(slot)
            assert (known is not None) == (session.seat == owner)
        faces[slot] = sessions[owner].known_card(slot)
    assert len(set(faces.values())) == len(faces)  # no card dealt twice
    assert all(0 <= f < cards for f in faces.values())
    dealt_events = [e for e in table.events[0] if isinstance(e, CardDealt)]
    assert len(dealt_events) == len(hands)

    # Seat 0 gives its first card to seat 1: only seat 1 learns it.
    gift = Slot("d0", 0)
    table.command(lambda s: s.give(gift, 1))
    assert sessions[1].known_card(gift) == faces[gift]
    assert any(isinstance(e, CardReceived) for e in table.events[1])
    assert all(sessions[s].known_card(gift) is None for s in range(2, seats))
    assert all(m.get("to") != 2 for _, m in table.log)  # the forward never hits the public log

    # Reveal the gift (seat 1 publishes seat 0's forwarded share), a hand card and an undealt one.
    shown = [gift, Slot("d0", 1), Slot("d0", cards - 1)]
    table.command(lambda s: s.reveal(shown))
    for session in sessions:
        assert session.revealed_card(gift) == faces[gift]
        assert session.revealed_card(Slot("d0", 1)) == faces[Slot("d0", 1)]
    undealt = {s.revealed_card(Slot("d0", cards - 1)) for s in sessions}
    assert len(undealt) == 1
    last = undealt.pop()
    assert last not in faces.values()

    # Reshuffle the revealed cards plus two undealt ones into a new list, reveal all of it.
    sources = [*shown, Slot("d0", cards - 2), Slot("d0", cards - 3)]
    table.command(lambda s: s.reshuffle("d1", sources))
    table.command(lambda s: s.reveal(slots("d1", len(sources))))
    opened = [sessions[0].revealed_card(slot) for slot in slots("d1", len(sources))]
    assert len(set(opened)) == len(sources)
    assert {faces[gift], faces[Slot("d0", 1)], last} < set(opened)
    # The two never-seen sources are cards nobody was dealt.
    assert not (set(opened) - {faces[gift], faces[Slot("d0", 1)], last}) & set(faces.values())
    assert all(isinstance(e, CardRevealed) for e in table.events[0][-len(sources) :])
    with pytest.raises(DeckUsageError):
        sessions[0].reveal([gift])  # retired by the reshuffle


def test_all_messages_survive_msgpack_and_the_log_is_consistent() -> None:
    table = shuffled_table(2, 4, seed=11)
    table.command(lambda s: s.deal({Slot("d0", 0): 0, Slot("d0", 1): 1}))
    table.command(lambda s: s.coin("order"))
    for sender, message in table.log:
        packed = msgpack.packb(message, use_bin_type=True)
        again = msgpack.unpackb(packed, raw=False)
        assert again == message
        assert again["seat"] == sender
        assert len(packed) < 64 * 1024


@pytest.fixture(scope="module")
def dealt():
    """Three seats, list d0 of 6 cards; slot 0 is being dealt to seat 0 — shares not delivered."""
    table = shuffled_table(3, 6, seed=21)
    outputs = [s.deal({Slot("d0", 0): 0, Slot("d0", 1): 1}) for s in table.sessions]
    return table, [o.messages for o in outputs]


def _share_msg(dealt, seat: int) -> dict:
    return copy.deepcopy(dealt[1][seat][0])


def _assert_fault(session, sender: int, message: dict, error=DeckFault, blamed=None) -> None:
    before = _state(copy.deepcopy(session))
    with pytest.raises(error) as info:
        session.handle(sender, message)
    assert info.value.seat == (sender if blamed is None else blamed)
    assert _state(session) == before  # state unchanged


def _state(session) -> dict:
    return {k: v for k, v in vars(session).items() if k != "random_bytes"}


def test_honest_shares_are_accepted(dealt) -> None:
    table, messages = dealt
    probe = copy.deepcopy(table.sessions[0])
    events = []
    for seat in (1, 2):
        events += probe.handle(seat, messages[seat][0]).events
    assert [type(e) for e in events] == [CardDealt]  # slot 0 complete for its owner
    assert probe.known_card(Slot("d0", 0)) is not None


def test_f_wrong_decryption_share_is_blamed_on_its_sender(dealt) -> None:
    table, _ = dealt
    message = _share_msg(dealt, 2)
    entry = message["shares"][0]["share"]
    entry["d"] = add(entry["d"], G)
    _assert_fault(table.sessions[0], 2, message, ProofError)


def test_g_share_proof_made_for_another_card_is_rejected(dealt) -> None:
    table, _ = dealt
    message = _share_msg(dealt, 2)
    # Seat 2's (valid) share for slot 1, presented as its share for slot 0.
    for_slot1 = next(s for s in message["shares"] if s["i"] == 1)
    message["shares"] = [{**for_slot1, "i": 0}]
    _assert_fault(table.sessions[0], 2, message, ProofError)


def test_i_invalid_ristretto_share_is_a_parse_error(dealt) -> None:
    table, _ = dealt
    message = _share_msg(dealt, 1)
    message["shares"][0]["share"]["d"] = bytes.fromhex("ec" + "ff" * 30 + "7f")  # RFC 9496: s = −1
    _assert_fault(table.sessions[0], 1, message, ParseError)


def test_share_from_the_owner_during_a_deal_is_a_fault(dealt) -> None:
    table, _ = dealt
    message = _share_msg(dealt, 1)  # seat 1 owns slot 1, so its message only covers slot 0
    message["shares"][0]["i"] = 1
    _assert_fault(table.sessions[2], 1, message)


def test_share_for_a_slot_not_being_dealt_is_a_fault(dealt) -> None:
    table, _ = dealt
    message = _share_msg(dealt, 2)
    message["shares"] = [{**message["shares"][0], "i": 4}]
    _assert_fault(table.sessions[0], 2, message)


def test_duplicate_share_is_a_fault(dealt) -> None:
    table, messages = dealt
    probe = copy.deepcopy(table.sessions[0])
    probe.handle(2, messages[2][0])
    _assert_fault(probe, 2, messages[2][0])


def test_message_claiming_another_author_is_blamed_on_the_sender(dealt) -> None:
    table, _ = dealt
    _assert_fault(table.sessions[0], 1, _share_msg(dealt, 2), ParseError)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda m: m.update(extra=1),
        lambda m: m.pop("shares"),
        lambda m: m.update(seat=True),
        lambda m: m.update(shares=[]),
        lambda m: m.update(shares="nope"),
        lambda m: m["shares"][0].update(i=-1),
        lambda m: m["shares"][0].update(list="x" * 65),
        lambda m: m["shares"][0]["share"].update(c=b"\x00" * 31),
        lambda m: m["shares"][0]["share"].update(s=b"\xff" * 32),
        lambda m: m.update(kind="deck.unknown"),
        lambda m: m.update(shares=[m["shares"][0]] * 5000),
    ],
)
def test_malformed_messages_are_parse_errors_blamed_on_the_sender(dealt, mutate) -> None:
    table, _ = dealt
    message = _share_msg(dealt, 2)
    mutate(message)
    _assert_fault(table.sessions[0], 2, message, ParseError)


def test_h_key_replayed_for_another_seat_is_rejected() -> None:
    table = keyed_table(3, seed=5)
    key0 = next(m for sender, m in table.log if sender == 0)
    newcomer = DeckSession(TABLE_ID, 2, 3)
    _assert_fault(newcomer, 1, {**key0, "seat": 1}, ProofError)
    newcomer.handle(0, key0)  # the genuine one is still accepted
    _assert_fault(newcomer, 0, key0)  # but only once


def test_i_invalid_ristretto_key_is_a_parse_error() -> None:
    table = keyed_table(2, seed=6)
    key1 = next(m for sender, m in table.log if sender == 1)
    newcomer = DeckSession(TABLE_ID, 0, 2)
    bad = {
        **key1,
        "Y": bytes.fromhex(
            "3eb858e78f5a7254d8c9731174a94f76755fd3941c0ac93735c07ba14579630e"
        ),  # −xy
    }
    _assert_fault(newcomer, 1, bad, ParseError)


def test_forwarded_share_that_is_wrong_is_blamed_on_the_giver() -> None:
    table = shuffled_table(3, 6, seed=31)
    table.command(lambda s: s.deal({Slot("d0", 0): 0}))
    outputs = [s.give(Slot("d0", 0), 2) for s in table.sessions]
    forward = copy.deepcopy(outputs[0].messages[0])
    assert forward["to"] == 2
    forward["shares"][0]["share"]["d"] = add(forward["shares"][0]["share"]["d"], G)
    receiver = table.sessions[2]
    _assert_fault(receiver, 0, forward, ProofError)
    # A correct share with a spoiled proof: the fault's evidence must not carry the share, since
    # it is shown to every player.
    spoiled = copy.deepcopy(outputs[0].messages[0])
    real = spoiled["shares"][0]["share"]["d"]
    spoiled["shares"][0]["share"]["c"] = bytes(32)
    with pytest.raises(ProofError) as info:
        receiver.handle(0, spoiled)
    assert repr(real) not in repr(info.value.evidence)
    assert str(real) not in str(info.value)
    receiver.handle(0, outputs[0].messages[0])
    assert receiver.known_card(Slot("d0", 0)) == table.sessions[0].known_card(Slot("d0", 0))


def test_forward_from_a_seat_that_is_not_the_giver_is_a_fault() -> None:
    table = shuffled_table(3, 6, seed=32)
    table.command(lambda s: s.deal({Slot("d0", 0): 0}))
    outputs = [s.give(Slot("d0", 0), 2) for s in table.sessions]
    forward = {**outputs[0].messages[0], "seat": 1}
    _assert_fault(table.sessions[2], 1, forward)


def test_usage_errors_do_not_blame_anyone() -> None:
    table = keyed_table(2)
    session = table.sessions[0]
    with pytest.raises(DeckUsageError):
        session.deal({Slot("nope", 0): 1})
    outputs = [s.new_deck("d0", "larry", range(4)) for s in table.sessions]
    with pytest.raises(DeckUsageError):
        session.deal({Slot("d0", 0): 1})  # still being shuffled
    with pytest.raises(DeckUsageError):
        session.new_deck("d0", "larry", range(4))
    assert outputs[0].messages  # seat 0 shuffles first


def test_reveal_asked_before_the_gift_arrives_completes_when_it_does() -> None:
    table = shuffled_table(3, 6, seed=41)
    table.command(lambda s: s.deal({Slot("d0", 2): 0}))
    face = table.sessions[0].known_card(Slot("d0", 2))
    gives = [s.give(Slot("d0", 2), 1) for s in table.sessions]
    forward = gives[0].messages[0]
    # Every seat asks for the reveal while the private forward is still in flight.
    table.command(lambda s: s.reveal([Slot("d0", 2)]))
    assert all(s.revealed_card(Slot("d0", 2)) is None for s in table.sessions)
    table.post(0, gives)
    table.run()
    assert forward["to"] == 1
    assert [s.revealed_card(Slot("d0", 2)) for s in table.sessions] == [face] * 3


def test_card_ids_out_of_range_are_a_usage_error() -> None:
    table = keyed_table(2)
    with pytest.raises(DeckUsageError):
        table.sessions[0].new_deck("d0", "larry", [0, 70000])
    with pytest.raises(DeckUsageError):
        table.sessions[0].new_deck("d0", "larry", [1, 1])


def test_secrets_stay_out_of_reprs() -> None:
    table = shuffled_table(2, 4, seed=51)
    table.command(lambda s: s.deal({Slot("d0", 0): 0}))
    session = table.sessions[0]
    gift = session.give(Slot("d0", 0), 1)
    secret = session._key.secret
    forwarded = gift.messages[0]["shares"][0]["share"]["d"]
    for text in (repr(session), repr(gift), repr(session._key), repr(session._slots)):
        assert str(secret) not in text
        assert forwarded.hex() not in text and repr(forwarded) not in text


def test_a_card_given_back_and_on_still_opens_for_its_owner_and_at_the_reveal() -> None:
    table = shuffled_table(3, 6, seed=71)
    slot = Slot("d0", 1)
    table.command(lambda s: s.deal({slot: 0}))
    face = table.sessions[0].known_card(slot)
    for receiver in (1, 0, 2):  # 0 → 1 → 0 → 2 (L11 allows giving any card of one's hand)
        table.command(lambda s, r=receiver: s.give(slot, r))
        assert table.sessions[receiver].known_card(slot) == face
        assert all(s.owner(slot) == receiver for s in table.sessions)
    table.command(lambda s: s.reveal([slot]))
    assert [s.revealed_card(slot) for s in table.sessions] == [face] * 3


def test_a_card_given_a_to_b_to_a_needs_no_forward_back_and_reveals() -> None:
    # L11 twice on one card: 0 gives it to 1, 1 gives it back. Seat 0 holds its own share and
    # every other one is public, so give() sends nothing (it never forwards a receiver's own).
    table = shuffled_table(2, 6, seed=72)
    slot = Slot("d0", 2)
    table.command(lambda s: s.deal({slot: 0}))
    face = table.sessions[0].known_card(slot)
    outputs = [s.give(slot, 1) for s in table.sessions]
    assert [len(o.messages) for o in outputs] == [1, 0]
    for seat, output in enumerate(outputs):
        table.post(seat, [output])
    table.run()
    back = [s.give(slot, 0) for s in table.sessions]
    assert [len(o.messages) for o in back] == [0, 0]
    received = [e for e in back[0].events if isinstance(e, CardReceived)]
    assert received == [CardReceived(slot, 1, face)]
    assert not table.sessions[0].awaiting_forward(slot)
    table.command(lambda s: s.reveal([slot]))
    assert [s.revealed_card(slot) for s in table.sessions] == [face, face]


def test_a_card_never_carries_a_share_its_receiver_was_forwarded_before() -> None:
    # 0 → 1 → 2 → 1 with four seats: seat 1 already holds seat 0's share from the first gift.
    table = shuffled_table(4, 6, seed=73)
    slot = Slot("d0", 0)
    table.command(lambda s: s.deal({slot: 0}))
    face = table.sessions[0].known_card(slot)
    table.command(lambda s: s.give(slot, 1))
    table.command(lambda s: s.give(slot, 2))
    back = [s.give(slot, 1) for s in table.sessions]
    assert all(not o.messages for o in back)
    assert [e.card for e in back[1].events if isinstance(e, CardReceived)] == [face]
    table.command(lambda s: s.reveal([slot]))
    assert {s.revealed_card(slot) for s in table.sessions} == {face}


def test_a_forward_carrying_the_receivers_own_share_is_blamed_on_the_giver() -> None:
    table = shuffled_table(3, 6, seed=74)
    slot = Slot("d0", 0)
    table.command(lambda s: s.deal({slot: 1}))
    outputs = [s.give(slot, 2) for s in table.sessions]
    forward = copy.deepcopy(outputs[1].messages[0])
    receiver = table.sessions[2]
    own = SlotShare(slot, receiver._ledger.own_share(slot)).to_data()
    _assert_fault(receiver, 1, {**forward, "shares": [*forward["shares"], own]})
    receiver.handle(1, forward)
    assert receiver.known_card(slot) == table.sessions[1].known_card(slot)


def test_a_key_that_cancels_the_joint_key_is_blamed_on_its_seat() -> None:
    table = keyed_table(2, seed=3)
    key0 = next(m for sender, m in table.log if sender == 0)
    x0 = table.sessions[0]._key.secret
    # Seat 1 knows −x0 (this test plays both seats), so its proof of knowledge is valid.
    cancelling = SecretKey(1, L - x0, mul_base(L - x0)).publish(TABLE_ID)
    message = {"kind": "deck.key", **cancelling.to_data()}
    newcomer = DeckSession(TABLE_ID, 0, 2)
    newcomer.handle(0, key0)
    _assert_fault(newcomer, 1, message)
    assert newcomer.joint_key is None
