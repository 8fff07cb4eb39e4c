"""T3, sides after fronts: `Claim(slot)` takes a card and deals its front to the claimer alone;
only then does `Place(side)` put it at an end of the hand. The first card of a hand is placed by
the engine; the next card is taken only after the last one is placed; "Done!" goes to the first
hand that reaches hand_size placed cards."""

from __future__ import annotations

import random

import msgpack
import pytest

from fairdeal.engine import DRIVER, Ack, OracleDriver
from fairdeal.engine.codec import DecodeError
from fairdeal.engine.lie import (
    Claim,
    HandFull,
    LieOptions,
    LieState,
    NotBuilding,
    NothingToPlace,
    Phase,
    Place,
    PlaceFirst,
    Side,
    UnknownAction,
    WaitingForDriver,
    apply,
    check_action,
    legal_actions,
    view_for,
)
from fairdeal.engine.lie.codec import action_from_data, event_from_data, state_from_data, to_data
from fairdeal.engine.lie.events import Claimed, HandComplete, Placed
from fairdeal.engine.requests import Deal
from fairdeal.engine.selfplay import make_bots, play_game


def _driver(players: int = 2, hand_size: int = 3, seed: int = 1) -> OracleDriver:
    return OracleDriver(players, LieOptions(hand_size=hand_size, rounds=1), seed=seed, game="lie")


def _claimed_not_dealt(driver: OracleDriver, seat: int) -> LieState:
    """`seat` has claimed a card whose Deal is not answered yet (its front is still unknown)."""
    return apply(driver.state, seat, Claim(driver.state.table[0])).state


def _ack_all(state: LieState) -> LieState:
    while state.pending:
        state = apply(state, DRIVER, Ack(state.pending[0].id)).state
    return state


def test_T3_the_first_card_of_a_hand_is_placed_by_the_engine_once_dealt() -> None:
    driver = _driver()
    slot = driver.state.table[0]
    claimed = apply(driver.state, 0, Claim(slot))
    assert claimed.events == (Claimed(0, slot, driver.state.backs[slot], 1),)
    assert claimed.state.unplaced == (slot, None) and claimed.state.hands == ((), ())
    (deal,) = claimed.state.pending
    assert deal == Deal(deal.id, 0, (slot,))
    dealt = apply(claimed.state, DRIVER, Ack(deal.id))
    assert dealt.events == (Placed(0, slot, Side.RIGHT),)
    assert dealt.state.hands == ((slot,), ()) and dealt.state.unplaced == (None, None)


def test_T3_placing_before_the_front_is_known_is_refused_and_changes_nothing() -> None:
    driver = _driver()
    driver.act(0, Claim(driver.state.table[0]))  # the first card: placed by the engine
    state = _claimed_not_dealt(driver, 0)
    snapshot = to_data(state)
    view = view_for(state, driver.knowledge[0], 0)
    assert view.unplaced is not None and view.unplaced_face is None
    assert not view.can_place and not view.can_claim and not view.my_turn
    assert legal_actions(view) == ()
    assert 0 not in state.actors()
    with pytest.raises(WaitingForDriver) as info:
        apply(state, 0, Place(Side.LEFT))
    assert info.value.seat == 0 and "being dealt" in info.value.reason
    assert to_data(state) == snapshot
    placed = apply(_ack_all(state), 0, Place(Side.LEFT))  # once dealt, it may be placed
    assert placed.events == (Placed(0, state.unplaced[0], Side.LEFT),)


def test_T3_claiming_with_an_unplaced_card_is_refused() -> None:
    driver = _driver()
    driver.act(0, Claim(driver.state.table[0]))
    driver.act(0, Claim(driver.state.table[0]))
    state = driver.state
    taken = state.unplaced[0]
    assert taken is not None
    view = view_for(state, driver.knowledge[0], 0)
    assert view.can_place and not view.can_claim and view.unplaced_face == driver.faces[taken]
    assert legal_actions(view) == (Place(Side.LEFT), Place(Side.RIGHT))
    with pytest.raises(PlaceFirst) as info:
        apply(state, 0, Claim(state.table[0]))
    assert info.value.seat == 0 and str(taken) in info.value.reason
    with pytest.raises(PlaceFirst):
        check_action(view, Claim(state.table[0]))
    assert driver.state is state  # nothing changed
    driver.act(0, Place(Side.LEFT))
    assert driver.state.hands[0][0] == taken and driver.state.unplaced[0] is None
    assert view_for(driver.state, driver.knowledge[0], 0).can_claim


def test_T3_nothing_to_place_and_a_bad_side_are_refused() -> None:
    driver = _driver()
    with pytest.raises(NothingToPlace) as info:
        apply(driver.state, 1, Place(Side.RIGHT))
    assert info.value.seat == 1
    driver.act(1, Claim(driver.state.table[0]))
    with pytest.raises(NothingToPlace):  # the first card already placed itself
        apply(driver.state, 1, Place(Side.RIGHT))
    driver.act(1, Claim(driver.state.table[0]))
    state = driver.state
    with pytest.raises(UnknownAction, match="left or right"):
        apply(state, 1, Place("up"))  # type: ignore[arg-type]
    assert driver.state is state
    driver.act(1, Place("left"))  # type: ignore[arg-type]  # a plain string names a side too
    assert driver.state.unplaced[1] is None


@pytest.mark.parametrize("side", [["left"], {"left": 1}, ("right",), b"left", None, 0])
def test_T3_a_side_that_is_no_name_is_refused_naming_the_seat(side: object) -> None:
    """A Place is built from anything in Python: a list or a map (unhashable) is refused like
    any other bad side, never a TypeError, and nothing changes."""
    driver = _driver()
    driver.act(1, Claim(driver.state.table[0]))
    driver.act(1, Claim(driver.state.table[0]))
    state = driver.state
    for attempt in (apply, lambda s, seat, a: check_action(view_for(s, {}, seat), a)):
        with pytest.raises(UnknownAction, match="left or right") as info:
            attempt(state, 1, Place(side))  # type: ignore[arg-type]
        assert info.value.seat == 1
    assert driver.state is state and driver.state.unplaced[1] is not None


def test_T3_done_goes_to_the_first_hand_completed_not_the_first_last_claim() -> None:
    driver = _driver(hand_size=2)
    driver.act(0, Claim(driver.state.table[0]))
    driver.act(1, Claim(driver.state.table[0]))
    driver.act(0, Claim(driver.state.table[0]))  # seat 0 takes its last card first …
    driver.act(1, Claim(driver.state.table[0]))
    assert driver.state.first_done is None
    step = driver.act(1, Place(Side.LEFT))  # … but seat 1 places its last card first
    assert HandComplete(1, True) in step.events and driver.state.first_done == 1
    assert driver.state.phase is Phase.BUILD and driver.state.actors() == (0,)
    step = driver.act(0, Place(Side.RIGHT))
    assert HandComplete(0, False) in step.events
    assert driver.state.phase is Phase.PLAY and driver.state.to_act() == 1  # leads trick 1
    with pytest.raises(NotBuilding):
        apply(driver.state, 0, Place(Side.RIGHT))


def test_T3_hand_size_one_completes_when_the_only_card_is_dealt() -> None:
    driver = _driver(hand_size=1)
    state = _claimed_not_dealt(driver, 1)
    assert state.first_done is None and state.hands == ((), ())
    with pytest.raises(PlaceFirst):  # the card being dealt fills the hand: no second claim
        apply(state, 1, Claim(state.table[0]))
    dealt = apply(state, DRIVER, Ack(state.pending[0].id))
    assert [type(e).__name__ for e in dealt.events] == ["Placed", "HandComplete"]
    assert dealt.state.first_done == 1
    with pytest.raises(HandFull):
        apply(dealt.state, 1, Claim(dealt.state.table[0]))
    driver.act(1, Claim(driver.state.table[0]))
    driver.act(0, Claim(driver.state.table[0]))
    assert driver.state.phase is Phase.PLAY and driver.state.first_done == 1
    assert driver.state.hand_sizes() == (1, 1)


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("bots", ["random", "heuristic", "heuristic,random"])
def test_every_self_played_game_fills_every_hand_by_placing(players: int, bots: str) -> None:
    """Property over self-play: Phase 1 always ends with every hand full, nothing unplaced, each
    card placed exactly once (one Claimed and one Placed per card), and Done! by the first."""
    for seed in range(3):
        options = LieOptions(hand_size=1 + seed * 5, rounds=2)
        driver = OracleDriver(players, options, seed=seed, game="lie")
        events_at_play: list[list[object]] = []
        chosen = make_bots(bots, players, random.Random(seed), game="lie")
        play_game(chosen, driver=driver)
        assert driver.state.phase is Phase.GAME_OVER
        build: list[object] = []
        for event in driver.events:
            name = type(event).__name__
            if name == "RoundStarted":
                build = []
            build.append(event)
            if name == "PrizePileFormed":
                events_at_play.append(build)
        assert len(events_at_play) == options.rounds
        for phase_one in events_at_play:
            claimed = [e for e in phase_one if isinstance(e, Claimed)]
            placed = [e for e in phase_one if isinstance(e, Placed)]
            assert sorted(e.slot for e in claimed) == sorted(e.slot for e in placed)
            assert len(claimed) == players * options.hand_size
            complete = [e for e in phase_one if isinstance(e, HandComplete)]
            assert len(complete) == players and [e.first for e in complete].count(True) == 1
            assert complete[0].first
            last_placed = {e.seat: phase_one.index(e) for e in placed}
            firsts = [e.seat for e in complete]
            assert firsts == sorted(firsts, key=last_placed.__getitem__)


def test_place_survives_the_codec_and_a_malformed_place_is_refused() -> None:
    for action in (Place(Side.LEFT), Place(Side.RIGHT), Claim(7)):
        data = msgpack.unpackb(msgpack.packb(to_data(action)))
        assert action_from_data(data) == action
    assert to_data(Place(Side.LEFT)) == {"type": "Place", "side": "left"}
    assert to_data(Claim(7)) == {"type": "Claim", "slot": 7}
    for bad in (
        {"type": "Place", "side": "up"},
        {"type": "Place"},
        {"type": "Place", "side": "left", "slot": 3},
        {"type": "Place", "side": 1},
        {"type": "Claim", "slot": 7, "side": "left"},  # the protocol-2 form: sides come later
    ):
        with pytest.raises(DecodeError):
            action_from_data(bad)
    event = Placed(1, 40, Side.RIGHT)
    assert to_data(event) == {"type": "Placed", "seat": 1, "slot": 40, "side": "right"}
    assert event_from_data(to_data(event)) == event


def test_a_state_with_an_unplaced_card_survives_the_codec() -> None:
    driver = _driver()
    driver.act(0, Claim(driver.state.table[0]))
    driver.act(0, Claim(driver.state.table[0]))
    state = _claimed_not_dealt(driver, 1)
    data = msgpack.unpackb(msgpack.packb(to_data(state)), strict_map_key=False)
    assert data["unplaced"] == [state.unplaced[0], state.unplaced[1]]
    assert state_from_data(data) == state
