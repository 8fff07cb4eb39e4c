"""The engine's records keep every dataclass property when `quick_init` replaces their __init__
(engine/records.py): the same fields, defaults, equality, hashing, immutability and decoding."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from fairdeal.engine.codec import from_data, to_data
from fairdeal.engine.lie.events import Claimed, Event
from fairdeal.engine.lie.view import LieView
from fairdeal.engine.records import quick_init
from fairdeal.engine.requests import Deal, Request


def test_a_quick_record_is_the_same_dataclass_value() -> None:
    claimed = Claimed(1, 2, 3, 4)
    assert claimed == Claimed(seat=1, slot=2, back=3, size=4)
    assert claimed != Claimed(1, 2, 3, 5)
    assert hash(claimed) == hash(Claimed(1, 2, 3, 4))
    assert repr(claimed) == "Claimed(seat=1, slot=2, back=3, size=4)"
    assert dataclasses.astuple(claimed) == (1, 2, 3, 4)
    assert dataclasses.replace(claimed, size=9).size == 9
    with pytest.raises(dataclasses.FrozenInstanceError):
        claimed.seat = 2  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(claimed)) == claimed
    assert copy.copy(claimed) == claimed and copy.deepcopy(claimed) == claimed


def test_a_quick_record_keeps_its_defaults_and_refuses_wrong_arguments() -> None:
    view = LieView(0, None, {})  # type: ignore[arg-type]
    assert view.pending_claims == ()
    assert LieView(0, None, {}, (5,)).pending_claims == (5,)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Claimed(1, 2, 3)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Claimed(1, 2, 3, 4, size=4)  # type: ignore[misc]


def test_quick_records_decode_strictly_as_before() -> None:
    deal = Deal(3, 1, (7, 8))
    assert from_data(to_data(deal), Request) == deal
    assert from_data(to_data(Claimed(1, 2, 3, 4)), Event) == Claimed(1, 2, 3, 4)


def test_only_frozen_slotted_dataclasses_without_post_init_are_accepted() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class WithPostInit:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclasses.dataclass(frozen=True, slots=True)
    class WithFactory:
        a: list[int] = dataclasses.field(default_factory=list)

    for cls in (NoSlots, WithPostInit, WithFactory):
        with pytest.raises(TypeError):
            quick_init(cls)
