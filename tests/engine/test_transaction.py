"""Every game makes its next state one way (engine/transaction.py): a typed working copy whose
declared attributes are exactly the state's fields, frozen into the new state; and one check of
the driver's answers for every game."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from fairdeal.engine import DRIVER, OracleDriver
from fairdeal.engine.errors import BadResolution
from fairdeal.engine.larry.state import LarryState
from fairdeal.engine.larry.transaction import Transaction as LarryTransaction
from fairdeal.engine.lie import Claim, LieOptions, apply
from fairdeal.engine.lie.state import LieState
from fairdeal.engine.lie.transaction import Transaction as LieTransaction
from fairdeal.engine.requests import Ack, Arrangement, Deal, Faces, Request, Reveal
from fairdeal.engine.step import Step
from fairdeal.engine.transaction import Transaction, answered, resolve

GAMES = [(LarryTransaction, LarryState), (LieTransaction, LieState)]


@pytest.mark.parametrize(("tx_class", "state_class"), GAMES)
def test_a_transaction_declares_exactly_its_states_fields_with_their_types(
    tx_class: type[Transaction[typing.Any, typing.Any]], state_class: type
) -> None:
    assert issubclass(tx_class, Transaction) and tx_class.state_type is state_class
    declared = typing.get_type_hints(tx_class)
    declared.pop("state_type")
    fields = typing.get_type_hints(state_class)
    assert declared == {f.name: fields[f.name] for f in dataclasses.fields(state_class)}


@pytest.mark.parametrize("game", ["larry", "lie"])
def test_a_frozen_transaction_is_a_new_state_and_the_old_one_is_untouched(game: str) -> None:
    state = OracleDriver(3, seed=2, game=game).state
    tx_class = LarryTransaction if game == "larry" else LieTransaction
    before = dict(state.__dict__)
    tx = tx_class(state)
    tx.next_slot = state.next_slot + 5
    step = tx.freeze()
    assert type(step.state) is type(state) and step.state is not state
    assert step.state.next_slot == state.next_slot + 5
    assert state.__dict__ == before
    assert step.state == dataclasses.replace(state, next_slot=state.next_slot + 5)


def _lie_waiting_for_a_deal() -> LieState:
    state: LieState = OracleDriver(3, LieOptions(hand_size=2), seed=1).state
    return apply(state, 0, Claim(state.table[0])).state


@pytest.mark.parametrize(
    ("seat", "answer", "message"),
    [
        (0, "ack", "only the driver answers requests"),
        (DRIVER, "wrong id", "expected request"),
        (DRIVER, "faces", "is answered with Ack, not Faces"),
        (DRIVER, "arrangement", "is answered with Ack, not Arrangement"),
    ],
)
def test_a_tampered_answer_is_refused_and_changes_nothing(
    seat: int, answer: str, message: str
) -> None:
    state = _lie_waiting_for_a_deal()
    request = state.pending[0]
    assert isinstance(request, Deal)
    before = dict(state.__dict__)
    resolution = {
        "ack": Ack(request.id),
        "wrong id": Ack(request.id + 1),
        "faces": Faces(request.id, (1,)),
        "arrangement": Arrangement(request.id, request.slots),
    }[answer]
    with pytest.raises(BadResolution, match=message):
        apply(state, seat, resolution)
    assert state.__dict__ == before


def test_resolve_hands_each_answer_to_the_games_own_rule() -> None:
    state = _lie_waiting_for_a_deal()
    served: list[Request] = []

    def reveal(s: LieState, request: Reveal, faces: Faces) -> Step:
        raise AssertionError("no Reveal is pending")

    def ack(s: LieState, request: Request) -> Step:
        served.append(request)
        return answered(s)

    step = resolve(state, DRIVER, Ack(state.pending[0].id), reveal=reveal, ack=ack)
    assert served == [state.pending[0]] and step.state.pending == state.pending[1:]
    with pytest.raises(BadResolution, match="Claim answers no request"):
        resolve(state, DRIVER, Claim(state.table[0]), reveal=reveal, ack=ack)
