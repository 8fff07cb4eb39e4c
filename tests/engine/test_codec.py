"""Plain-data encoding: round trips through msgpack, strict parsing with clear errors."""

from __future__ import annotations

import msgpack
import pytest

from fairdeal.engine.codec import request_from_data, resolution_from_data
from fairdeal.engine.larry import CardKind, Doubt, OracleDriver, PlayFaceDown, PlayFaceUp
from fairdeal.engine.larry.actions import AcceptOut, Ack, Faces
from fairdeal.engine.larry.codec import (
    DecodeError,
    action_from_data,
    event_from_data,
    state_from_data,
    to_data,
)
from fairdeal.engine.larry.events import DoubtResolved
from fairdeal.engine.requests import Deal, NewDeck, Reshuffle, Reveal, Transfer


@pytest.mark.parametrize(
    "action",
    [Doubt(), AcceptOut(), PlayFaceDown(3, -2, True), PlayFaceUp(4, CardKind.GIVE_AWAY_1, 2, 5)],
)
def test_actions_round_trip(action: object) -> None:
    data = msgpack.unpackb(msgpack.packb(to_data(action)))
    assert action_from_data(data) == action


def test_the_documented_shapes() -> None:
    assert to_data(PlayFaceUp(4, CardKind.PICK_UP_2, 1)) == {
        "type": "PlayFaceUp",
        "slot": 4,
        "claim": "pick_up_2",
        "target": 1,
        "give": None,
        "larry": False,
    }
    assert to_data(Faces(7, (1, 2))) == {"type": "Faces", "request": 7, "faces": [1, 2]}
    assert to_data(Deal(2, 1, (5, 6))) == {"type": "Deal", "id": 2, "seat": 1, "slots": [5, 6]}


@pytest.mark.parametrize(
    "request_",
    [NewDeck(0, (0, 1)), Deal(1, 0, (0,)), Transfer(2, 3, 0, 1), Reshuffle(3, (1,), (9,)),
     Reveal(4, (1, 2), "doubt")],
)  # fmt: skip
def test_requests_and_resolutions_round_trip(request_: object) -> None:
    assert request_from_data(to_data(request_)) == request_
    assert resolution_from_data(to_data(Ack(5))) == Ack(5)


def test_a_state_round_trips_mid_game() -> None:
    driver = OracleDriver(4, seed=2)
    driver.act(0, PlayFaceDown(driver.state.hands[0][0], 3))
    driver.act(1, Doubt())
    data = msgpack.unpackb(msgpack.packb(to_data(driver.state)))
    assert state_from_data(data) == driver.state
    resolved = next(e for e in driver.events if isinstance(e, DoubtResolved))
    assert event_from_data(to_data(resolved)) == resolved


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "$: expected a map, got list"),
        ({"slot": 1}, "$: type None is not one of"),
        ({"type": "Violation", "seat": 0}, "type 'Violation' is not one of"),
        ({"type": "PlayFaceDown", "slot": 1}, "PlayFaceDown needs field 'announce'"),
        ({"type": "PlayFaceDown", "slot": 1, "announce": 2, "colour": 1}, "field(s) colour"),
        ({"type": "PlayFaceDown", "slot": "1", "announce": 2}, "$.slot: expected an integer"),
        ({"type": "PlayFaceDown", "slot": True, "announce": 2}, "$.slot: expected an integer"),
        ({"type": "PlayFaceDown", "slot": 1, "announce": 2, "larry": 1}, "$.larry: expected a"),
        ({"type": "PlayFaceUp", "slot": 1, "claim": "joker"}, "$.claim: 'joker' is not a CardKind"),
        ({"type": "PlayFaceUp", "slot": 1, "claim": "face_up", "target": "x"}, "$.target"),
    ],
)  # fmt: skip
def test_strict_parsing_says_what_is_wrong(data: object, message: str) -> None:
    with pytest.raises(DecodeError) as info:
        action_from_data(data)
    assert message in str(info.value)


def test_malformed_state_data_is_refused() -> None:
    data = to_data(OracleDriver(2, seed=1).state)
    data["revealed"] = [[1, 2], [1, 3]]
    with pytest.raises(DecodeError, match=r"\$.revealed\[1\]: duplicate key 1"):
        state_from_data(data)
    data["revealed"] = [[1]]
    with pytest.raises(DecodeError, match="key, value"):
        state_from_data(data)
    data = to_data(OracleDriver(2, seed=1).state)
    data["options"]["limits"] = [7]
    with pytest.raises(DecodeError, match=r"\$.options.limits: expected 2 items, got 1"):
        state_from_data(data)


def test_only_engine_objects_are_encoded() -> None:
    with pytest.raises(TypeError):
        to_data(object())


def test_a_state_waiting_for_a_face_up_reveal_round_trips() -> None:
    from fairdeal.engine.larry import apply
    from fairdeal.engine.larry.cards import deck_of

    driver = OracleDriver(3, seed=4)
    state = driver.state
    deck = deck_of(state.options)
    slot = next(s for s in state.hands[0] if deck[driver.faces[s]].is_action)
    kind = deck[driver.faces[slot]].kind
    target = None if kind is CardKind.CHANGE_DIRECTION else 1
    give = next(s for s in state.hands[0] if s != slot) if kind is CardKind.GIVE_AWAY_1 else None
    waiting = apply(state, 0, PlayFaceUp(slot, kind, target, give)).state
    assert waiting.awaiting is not None and waiting.pending
    data = msgpack.unpackb(msgpack.packb(to_data(waiting)))
    assert data["awaiting"]["type"] == "AwaitFaceUp"
    assert data["pending"][0]["type"] == "Reveal"
    assert state_from_data(data) == waiting


def test_each_game_codec_is_the_shared_factory_bound_to_its_own_classes() -> None:
    from fairdeal.engine.codec import GameCodec
    from fairdeal.engine.larry import codec as larry_codec
    from fairdeal.engine.lie import codec as lie_codec
    from fairdeal.engine.lie.actions import Pass

    assert isinstance(larry_codec.CODEC, GameCodec)
    assert isinstance(lie_codec.CODEC, GameCodec)
    assert lie_codec.action_from_data(to_data(Pass())) == Pass()
    # One game's action is no action of the other: refused, naming the type and the choices.
    with pytest.raises(DecodeError, match="type 'Pass' is not one of AcceptOut, Doubt"):
        larry_codec.action_from_data(to_data(Pass()))
    shared = {"Ack", "Faces", "Arrangement", "Deal", "NewDeck", "Violation"}
    assert shared <= set(larry_codec.CLASSES) & set(lie_codec.CLASSES)
    assert "LarryState" in larry_codec.CLASSES and "LarryState" not in lie_codec.CLASSES
