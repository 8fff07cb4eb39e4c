"""The fair-deck request server (p2p/table/core/requests.py): its transitions are its table."""

from __future__ import annotations

import pytest

from fairdeal.engine.requests import Deal, NewDeck, Reveal, Transfer
from fairdeal.p2p.table.core.requests import (
    ASKED,
    TRANSITIONS,
    RequestServer,
    Service,
    ServiceEvent,
    ServiceState,
    ServiceStateError,
)


def test_a_deal_is_served_through_shares_and_back_to_idle() -> None:
    server = RequestServer()
    service = server.begin(Service([Deal(1, 0, (0, 1))], publishers=[1, 2]))
    assert server.state is ServiceState.SHARES and service.state is ServiceState.SHARES
    server.note(ServiceEvent.SHARES_APPLIED)
    assert server.served() is service
    assert server.state is ServiceState.IDLE and server.service is None


def test_an_envelope_the_state_does_not_take_is_refused_and_changes_nothing() -> None:
    server = RequestServer()
    service = server.begin(Service([NewDeck(1, (0, 1, 2))]))
    with pytest.raises(ServiceStateError, match=r"deck\.shares in state shuffle \(NewDeck\)"):
        server.note(ServiceEvent.SHARES_APPLIED)
    assert server.state is ServiceState.SHUFFLE and server.service is service


def test_nothing_begins_while_a_request_is_served_and_idle_serves_nothing() -> None:
    server = RequestServer()
    with pytest.raises(ServiceStateError, match="served in state idle"):
        server.served()
    server.begin(Service([Transfer(1, 0, 1, 5)]))
    with pytest.raises(ServiceStateError, match="Reveal in state receipt"):
        server.begin(Service([Reveal(2, (5,), "doubt")]))
    assert server.state is ServiceState.RECEIPT


def test_every_request_begins_from_idle_and_every_busy_state_can_be_served() -> None:
    for event in ASKED.values():
        assert (ServiceState.IDLE, event) in TRANSITIONS
    busy = {state for (state, _event) in TRANSITIONS} - {ServiceState.IDLE}
    for state in busy:
        assert TRANSITIONS[(state, ServiceEvent.SERVED)] is ServiceState.IDLE
    assert set(TRANSITIONS.values()) == set(ServiceState)
