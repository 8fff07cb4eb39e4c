"""A view's StateField windows (engine/view.py) read real state fields, of the declared type."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from fairdeal.engine.games import game_names, get_game
from fairdeal.engine.larry.view import LarryView
from fairdeal.engine.oracle import OracleDriver
from fairdeal.engine.view import StateField, StateWindow


def _windows(view_type: type) -> dict[str, StateWindow]:
    found = vars(view_type).items()
    return {name: window for name, window in found if isinstance(window, StateWindow)}


def test_larry_reads_its_public_facts_through_windows() -> None:
    assert {"limit", "direction", "scores", "winners"} <= set(_windows(LarryView))


@pytest.mark.parametrize("name", game_names())
def test_each_state_field_window_names_a_state_field_of_its_type(name: str) -> None:
    game = get_game(name)
    view = game.view_for(OracleDriver(2, seed=1, game=game).state, {}, 0)
    state_hints = typing.get_type_hints(game.state_type)
    state_fields = {field.name for field in dataclasses.fields(game.state_type)}
    for attribute, window in _windows(type(view)).items():
        assert attribute in state_fields, f"{type(view).__name__}.{attribute}"
        (declared,) = typing.get_args(window.declared)
        assert declared == state_hints[attribute], f"{type(view).__name__}.{attribute}"
        assert getattr(view, attribute) is getattr(view.state, attribute)


def test_a_window_reads_the_state_it_is_given() -> None:
    class State(typing.NamedTuple):
        limit: int

    @dataclasses.dataclass(frozen=True)
    class View:
        state: State
        limit = StateField[int]()

    assert View(State(7)).limit == 7
    assert isinstance(vars(View)["limit"], StateWindow)
    assert typing.get_args(vars(View)["limit"].declared) == (int,)
