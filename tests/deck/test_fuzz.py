"""Bad input never crashes a session: arbitrary plain data gives a DeckFault or nothing."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairdeal.p2p.deck import DeckFault

from .conftest import shuffled_table

TABLE = shuffled_table(2, 3, seed=61)
KINDS = ["deck.key", "deck.shuffle", "deck.shares", "deck.forward", "deck.coin.commit"]
KINDS += ["deck.coin.reveal"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=5), st.binary(max_size=40)
)
plain = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def _mutated(data: dict, key: str, value: object) -> dict:
    out = copy.deepcopy(data)
    out[key] = value
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), body=st.dictionaries(st.text(max_size=6), plain, max_size=6))
def test_garbage_messages_raise_deck_faults_only(kind: str, body: dict) -> None:
    session = copy.deepcopy(TABLE.sessions[0])
    message = {**body, "kind": kind, "seat": 1}
    try:
        session.handle(1, message)
    except DeckFault as fault:
        assert fault.seat == 1


@settings(max_examples=150, deadline=None)
@given(index=st.integers(0, 10), value=plain)
def test_one_field_of_a_real_message_replaced_raises_a_deck_fault(index: int, value) -> None:
    sender, message = TABLE.log[index % len(TABLE.log)]
    key = sorted(message)[index % len(message)]
    session = copy.deepcopy(TABLE.sessions[1 - sender])
    try:
        session.handle(sender, _mutated(message, key, value))
    except DeckFault as fault:
        assert fault.seat == sender
