"""Targeted rule checks that scenarios cannot express: fed faces, cheats, views, slots."""

from __future__ import annotations

import pytest

from fairdeal.engine.larry import (
    DRIVER,
    Ack,
    CardKind,
    Doubt,
    Faces,
    LarryOptions,
    OracleDriver,
    Phase,
    PlayFaceDown,
    PlayFaceUp,
    Reveal,
    apply,
    legal_actions,
    view_for,
)
from fairdeal.engine.larry import errors as E
from fairdeal.engine.larry.actions import AcceptOut, Action
from fairdeal.engine.larry.events import DoubtResolved, Violation
from fairdeal.engine.requests import NewDeck, Request, Reshuffle, Transfer
from tests.engine.larry_deals import DECK, driver_with_hands, slot_of


def _id(name: str) -> int:
    return next(card.id for card in DECK if card.name == name)


def test_a_wrong_face_fed_for_a_face_up_claim_is_a_violation_by_that_seat() -> None:
    driver = driver_with_hands([["pick_up_2"], [], []])
    state = driver.state
    slot = slot_of(driver, 0, "pick_up_2")
    step = apply(state, 0, PlayFaceUp(slot, CardKind.PICK_UP_2, 1))
    reveal = step.state.pending[0]
    assert isinstance(reveal, Reveal) and reveal.slots == (slot,)
    # An honest face continues the game ...
    honest = apply(step.state, DRIVER, Faces(reveal.id, (driver.faces[slot],)))
    assert honest.state.phase is Phase.PLAY
    # ... a different face (the card was really a 7) proves the claim false.
    cheat = apply(step.state, DRIVER, Faces(reveal.id, (_id("7"),)))
    violations = [e for e in cheat.events if isinstance(e, Violation)]
    assert [v.seat for v in violations] == [0]
    assert "claimed pick_up_2" in violations[0].reason
    assert cheat.state.phase is Phase.ABORTED
    with pytest.raises(E.GameIsOver):
        apply(cheat.state, 1, Doubt())


def test_an_obliged_number_claim_contradicted_by_the_face_is_a_violation() -> None:
    driver = driver_with_hands([["face_up"], ["gloat", "3"], []])
    driver.act(0, PlayFaceUp(slot_of(driver, 0, "face_up"), CardKind.FACE_UP, 1))
    step = apply(driver.state, 1, PlayFaceUp(slot_of(driver, 1, "gloat"), CardKind.NUMBER))
    reveal = step.state.pending[0]
    result = apply(step.state, DRIVER, Faces(reveal.id, (driver.faces[reveal.slots[0]],)))
    assert [e.seat for e in result.events if isinstance(e, Violation)] == [1]


@pytest.mark.parametrize(
    ("faces", "reason"),
    [
        ((), "0 faces for 1 slots"),
        ((99,), "card ids 0..53"),
        ((True,), "card ids 0..53"),
    ],
)
def test_bad_faces_from_the_driver_are_refused(faces: tuple[int, ...], reason: str) -> None:
    driver = driver_with_hands([["3"], [], []])
    driver.act(0, PlayFaceDown(slot_of(driver, 0, "3"), 3))
    step = apply(driver.state, 1, Doubt())
    reveal = step.state.pending[0]
    with pytest.raises(E.BadResolution) as info:
        apply(step.state, DRIVER, Faces(reveal.id, faces))
    assert info.value.seat == DRIVER
    assert reason in info.value.reason
    with pytest.raises(E.BadResolution):
        apply(step.state, DRIVER, Ack(reveal.id))  # a Reveal needs faces


def test_duplicate_faces_are_refused() -> None:
    driver = driver_with_hands([["3"], ["2"], []])
    driver.act(0, PlayFaceDown(slot_of(driver, 0, "3"), 3))
    driver.act(1, PlayFaceDown(slot_of(driver, 1, "2"), 5))
    step = apply(driver.state, 2, Doubt())
    reveal = step.state.pending[0]
    with pytest.raises(E.BadResolution, match="revealed twice"):
        apply(step.state, DRIVER, Faces(reveal.id, (4, 4)))


@pytest.mark.parametrize(
    ("seat", "action", "error"),
    [
        (1, Doubt(), E.NotYourTurn),
        (9, Doubt(), E.NoSuchSeat),
        (0, Doubt(), E.CannotDoubtEmptyPile),
        (0, AcceptOut(), E.NothingToAccept),
        (0, PlayFaceDown(999, 1), E.CardNotInHand),
        (0, PlayFaceUp(0, CardKind.NUMBER), E.BadClaim),
        (0, PlayFaceUp(0, CardKind.GLOAT), E.BadClaim),
        (0, PlayFaceUp(0, CardKind.CHANGE_DIRECTION, 1), E.BadTarget),
        (0, PlayFaceUp(0, CardKind.FACE_UP, 0), E.BadTarget),
        (0, PlayFaceUp(0, CardKind.PICK_UP_2, None, 1), E.BadTarget),
        (0, PlayFaceUp(0, CardKind.GIVE_AWAY_1, 1, 0), E.BadGiveCard),
        (0, PlayFaceUp(0, CardKind.CHANGE_DIRECTION, None, 1), E.BadGiveCard),
        (0, PlayFaceDown(0, 2, larry=True), E.BadLarryCall),
        (0, "jump", E.UnknownAction),
    ],
)
def test_illegal_actions_name_the_seat_and_change_nothing(
    seat: int, action: object, error: type[E.IllegalAction]
) -> None:
    driver = OracleDriver(3, seed=5)
    before = driver.state
    with pytest.raises(error) as info:
        apply(before, seat, action)  # type: ignore[arg-type]
    assert info.value.seat == seat
    assert info.value.reason
    assert driver.state == before
    assert isinstance(info.value, E.IllegalAction)


def test_views_show_own_faces_and_hide_the_others() -> None:
    driver = driver_with_hands([["3"], ["2"], []])
    driver.act(0, PlayFaceDown(slot_of(driver, 0, "3"), 3))
    state = driver.state
    mine = view_for(state, driver.knowledge[0], 0)
    theirs = view_for(state, driver.knowledge[1], 1)
    assert mine.pile == ((state.pile[0], _id("3")),)  # seat 0 knows what it played
    assert theirs.pile == ((state.pile[0], None),)
    assert all(face is not None for _, face in theirs.hand)
    assert set(dict(theirs.hand)) == set(state.hands[1])
    assert not set(dict(theirs.hand)) & set(driver.knowledge[0])
    assert theirs.hand_sizes == (8, 9, 9)
    assert theirs.my_turn and not mine.my_turn
    assert legal_actions(mine) == ()
    driver.act(1, Doubt())
    after = view_for(driver.state, driver.knowledge[2], 2)
    assert after.discard == ((state.pile[0], _id("3")),)  # revealed by the doubt: public


class _RecordingOracle(OracleDriver):
    """An oracle that keeps every request it served."""

    requests: list[Request]

    def answer(self, request: Request) -> Ack | Faces:
        if not hasattr(self, "requests"):
            self.requests = []
        self.requests.append(request)
        return super().answer(request)


def test_a_gift_is_a_transfer_and_the_receiver_learns_the_face() -> None:
    driver = driver_with_hands([["give_away_1", "7"], [], []])
    recorder = _RecordingOracle(3, decks=[[driver.faces[slot] for slot in range(54)]])
    give = slot_of(recorder, 0, "7")
    recorder.act(0, PlayFaceUp(slot_of(recorder, 0, "give_away_1"), CardKind.GIVE_AWAY_1, 2, give))
    state = recorder.state
    assert give in state.hands[2] and give not in state.hands[0]
    assert recorder.knowledge[2][give] == _id("7")
    transfers = [r for r in recorder.requests if isinstance(r, Transfer)]
    assert transfers == [Transfer(transfers[0].id, give, 0, 2)]


def test_slots_are_never_reused_across_reshuffles_and_hands() -> None:
    # A small deck and a script that lies and doubts early in each hand (so the pick-up pile
    # runs out, L14), then plays on until someone goes out and is accepted (L16).
    options = LarryOptions(numbers=((1, 6), (2, 6)), actions=(), gloats=0, hand_size=4)
    driver = _RecordingOracle(2, options, seed=1)
    while not driver.state.over:
        state = driver.state
        seat = state.to_act()
        assert seat is not None
        hand = state.hands[seat]
        if state.phase is Phase.GOING_OUT:
            action: Action = AcceptOut()
        elif state.pile and state.actions_in_hand < 16:
            action = Doubt()
        else:
            action = PlayFaceDown(hand[0], 7, larry=len(hand) == 2)
        driver.act(seat, action)
    fresh: list[int] = []
    for request in driver.requests:
        if isinstance(request, NewDeck):
            fresh += request.slots
        elif isinstance(request, Reshuffle):
            assert len(request.old) == len(request.new)
            fresh += request.new
    assert sum(isinstance(r, NewDeck) for r in driver.requests) == 3  # one per hand (L18)
    assert sum(isinstance(r, Reshuffle) for r in driver.requests) >= 3  # L14 happened
    assert len(fresh) == len(set(fresh)), "a slot id was issued twice"


def test_the_same_deck_and_actions_give_the_same_events() -> None:
    first = OracleDriver(4, seed=11)
    second = OracleDriver(4, seed=11)
    for _ in range(30):
        state = first.state
        if state.over:
            break
        seat = state.to_act()
        assert seat is not None
        action = legal_actions(view_for(state, first.knowledge[seat], seat))[0]
        first.act(seat, action)
        second.act(seat, action)
    assert first.events == second.events
    assert first.state == second.state


def test_a_view_is_a_snapshot_of_what_the_seat_knew() -> None:
    driver = driver_with_hands([["3"], [], []])
    view = view_for(driver.state, driver.knowledge[0], 0)
    known_before = dict(view.knowledge)
    driver.act(0, PlayFaceDown(slot_of(driver, 0, "3"), 4))
    driver.act(1, Doubt())  # 3 is not 4: seat 0 picks up 2 and learns their faces
    assert len(driver.knowledge[0]) == len(known_before) + 2
    assert dict(view.knowledge) == known_before
    assert view.announced == 0 and view.pile == ()


def test_after_going_out_the_refusal_says_the_keys_words() -> None:
    """L16: after a seat goes out the next may only doubt or let it go (the key bar's words)."""
    options = LarryOptions(numbers=((1, 6), (2, 6)), actions=(), gloats=0, hand_size=1)
    driver = _RecordingOracle(2, options, seed=1)
    seat = driver.state.to_act()
    assert seat is not None
    driver.act(seat, PlayFaceDown(driver.state.hands[seat][0], 1, larry=False))
    state = driver.state
    assert state.phase is Phase.GOING_OUT and state.out_seat == seat
    nxt = state.to_act()
    assert nxt is not None
    with pytest.raises(E.MustDoubtOrAccept, match=r"went out: doubt or let it go, nothing else"):
        driver.act(nxt, PlayFaceDown(state.hands[nxt][0], 1, larry=False))


def test_a_doubt_of_a_pile_with_no_hidden_card_asks_no_reveal_and_is_settled_at_once() -> None:
    """protocol.md 10.5: the pile holds only a face-up number (L12), already revealed; a doubt
    of it asks for no `Reveal` (there is nothing to open) and is settled in the doubt's own
    transition, from the faces already public."""
    driver = driver_with_hands([["face_up", "7", "7"], ["3", "4", "4"], ["2", "1", "1"]])
    driver.act(0, PlayFaceUp(slot_of(driver, 0, "face_up"), CardKind.FACE_UP, 1))
    number = slot_of(driver, 1, "3")
    driver.act(1, PlayFaceUp(number, CardKind.NUMBER))
    assert driver.state.pile == (number,) and number in driver.state.revealed
    step = apply(driver.state, 2, Doubt())
    assert not any(isinstance(r, Reveal) for r in step.requests)
    [resolved] = [e for e in step.events if isinstance(e, DoubtResolved)]
    assert resolved.cards == (driver.faces[number],) and resolved.total == 3
