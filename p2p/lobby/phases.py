"""The lobby's phases and what moves them: one transition table for the host, one for a guest.

Like h11's `_state.py` (and the fair-deck request server, p2p/table/core/requests.py), each machine
is its table: a mapping (phase, event) -> next phase, and nothing else moves it. An event with no
entry for the current phase is refused by the lobby (p2p/lobby/machines.py) with its own error
and changes nothing. A message is its event by kind (`host_event_of`, `guest_event_of`: a
`SetReady` by whether it says ready); the lobby's code decides when the other events happen (the
last missing signature, a seated peer's channel closing); this module decides whether they may.
docs/state-machines/host-lobby.md and guest-lobby.md are drawn from these tables
(`python -m fairdeal.p2p.diagrams`).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum, StrEnum
from typing import TypeVar

from fairdeal.p2p.lobby import messages
from fairdeal.p2p.net import kinds


class LobbyPhase(StrEnum):
    """Where a lobby is. The values are the words the lobby used before; `LobbyState.phase` on
    the wire is only ever "open" or "starting" (protocol.md 5.2)."""

    OPEN = "open"  # seats are taken and left, readiness given and withdrawn
    STARTING = "starting"  # a roster is out for signature; any change of heart calls it off
    STARTED = "started"  # every seat signed: the lobby is over, the table runs
    CLOSED = "closed"  # the host closed the table (or the guest heard so)


class HostEvent(StrEnum):
    """What moves the host's lobby: a guest's message (by its kind), a channel, the host's call."""

    CONNECTED = "a peer connects"
    TAKE_SEAT = kinds.LOBBY_TAKE
    SEAT_LEFT = "lobby-leave / a seated peer's channel closes"
    READY = "lobby-ready (ready)"
    NOT_READY = "lobby-ready (not ready)"
    SIGNATURE = kinds.LOBBY_SIGN
    EVERY_SEAT_SIGNED = "every seat signed"
    SET_OPTIONS = "set_options()"
    START = "start()"
    CALL_OFF_START = "call_off_start()"
    CLOSE = "close()"


class GuestEvent(StrEnum):
    """What moves a guest's lobby: the host's messages, by kind (a state by the phase it shows).
    The guest's own calls (take or leave a seat, say ready) move nothing: the host answers them."""

    STATE_OPEN = "lobby-state (open)"
    STATE_STARTING = "lobby-state (starting)"
    REFUSED = kinds.LOBBY_REFUSED
    START_TABLE = kinds.LOBBY_START
    TABLE_STARTED = kinds.LOBBY_STARTED
    TABLE_CLOSED = kinds.LOBBY_CLOSED


P, H, G = LobbyPhase, HostEvent, GuestEvent

# The host's whole machine. While starting, a seat that leaves or withdraws its readiness calls
# the start off; a signature that crossed a called-off start is dropped (open stays open).
HOST_TRANSITIONS: Mapping[tuple[LobbyPhase, HostEvent], LobbyPhase] = {
    (P.OPEN, H.CONNECTED): P.OPEN,
    (P.OPEN, H.TAKE_SEAT): P.OPEN,
    (P.OPEN, H.SEAT_LEFT): P.OPEN,
    (P.OPEN, H.READY): P.OPEN,
    (P.OPEN, H.NOT_READY): P.OPEN,
    (P.OPEN, H.SIGNATURE): P.OPEN,
    (P.OPEN, H.SET_OPTIONS): P.OPEN,
    (P.OPEN, H.START): P.STARTING,
    (P.STARTING, H.CONNECTED): P.STARTING,
    (P.STARTING, H.TAKE_SEAT): P.STARTING,  # refused: "the table is starting"
    (P.STARTING, H.SEAT_LEFT): P.OPEN,
    (P.STARTING, H.READY): P.STARTING,
    (P.STARTING, H.NOT_READY): P.OPEN,
    (P.STARTING, H.SIGNATURE): P.STARTING,
    (P.STARTING, H.EVERY_SEAT_SIGNED): P.STARTED,
    (P.STARTING, H.CALL_OFF_START): P.OPEN,
    (P.OPEN, H.CLOSE): P.CLOSED,
    (P.STARTING, H.CLOSE): P.CLOSED,
    (P.STARTED, H.CLOSE): P.CLOSED,
    (P.CLOSED, H.CLOSE): P.CLOSED,
}

# A guest's whole machine. A guest that holds no seat (a watcher) follows the start unsigned.
GUEST_TRANSITIONS: Mapping[tuple[LobbyPhase, GuestEvent], LobbyPhase] = {
    (P.OPEN, G.STATE_OPEN): P.OPEN,
    (P.OPEN, G.STATE_STARTING): P.OPEN,  # the start itself follows
    (P.OPEN, G.REFUSED): P.OPEN,
    (P.OPEN, G.START_TABLE): P.STARTING,
    (P.OPEN, G.TABLE_CLOSED): P.CLOSED,
    (P.STARTING, G.STATE_OPEN): P.OPEN,  # the host called the start off
    (P.STARTING, G.STATE_STARTING): P.STARTING,
    (P.STARTING, G.REFUSED): P.STARTING,
    (P.STARTING, G.START_TABLE): P.STARTING,
    (P.STARTING, G.TABLE_STARTED): P.STARTED,
    (P.STARTING, G.TABLE_CLOSED): P.CLOSED,
}

EventT = TypeVar("EventT", bound=Enum)


def next_phase(
    transitions: Mapping[tuple[LobbyPhase, EventT], LobbyPhase], phase: LobbyPhase, event: EventT
) -> LobbyPhase | None:
    """Where `event` takes a lobby from `phase` (None: it may not happen there)."""
    return transitions.get((phase, event))


def host_event_of(message: messages.GuestMessage) -> HostEvent | None:
    """The host's event for a guest's message (None: not a guest message)."""
    match message:
        case messages.TakeSeat():
            return HostEvent.TAKE_SEAT
        case messages.LeaveSeat():
            return HostEvent.SEAT_LEFT
        case messages.SetReady(ready):
            return HostEvent.READY if ready else HostEvent.NOT_READY
        case messages.SignRoster():
            return HostEvent.SIGNATURE
    return None


def guest_event_of(message: messages.HostMessage) -> GuestEvent | None:
    """A guest's event for the host's message (None: not a host message)."""
    match message:
        case messages.LobbyState(phase=phase):
            return GuestEvent.STATE_OPEN if phase == LobbyPhase.OPEN else GuestEvent.STATE_STARTING
        case messages.SeatRefused():
            return GuestEvent.REFUSED
        case messages.StartTable():
            return GuestEvent.START_TABLE
        case messages.TableStarted():
            return GuestEvent.TABLE_STARTED
        case messages.TableClosed():
            return GuestEvent.TABLE_CLOSED
    return None
