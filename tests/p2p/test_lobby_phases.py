"""Each lobby machine walked through its whole transition table (p2p/lobby/phases.py).

For every phase and every event, a lobby is brought to that phase through its public methods and
the event is made to happen the way it happens for real (a guest's message, a channel, the host's
own call, a message from the host). Where the table has an entry, the lobby ends in the phase the
table names; where it has none, the input is refused with the lobby's own error (LobbyError or
RosterError naming the sender, LocalLobbyError for the host's own call), or, for what is no
error (a channel opening, a signature that crossed a called-off start), ignored; either way
nothing changes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import product

import pytest

from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.lobby import messages as wire
from fairdeal.p2p.lobby.machines import GuestLobby, HostLobby, LobbyError, LocalLobbyError, Send
from fairdeal.p2p.lobby.phases import (
    GUEST_TRANSITIONS,
    HOST_TRANSITIONS,
    GuestEvent,
    HostEvent,
    LobbyPhase,
)
from fairdeal.p2p.lobby.roster import Roster, RosterError, options_digest

TABLE_ID = bytes(range(16))
OPTIONS = {"hands": 1}


def identity(index: int) -> Identity:
    return Identity.generate(f"player{index}", random_bytes=lambda n: bytes([index + 1]) * n)


HOST, FIRST, SECOND, WATCHER = (identity(index) for index in range(4))
SEATED = (FIRST, SECOND)


class Lobby:
    """A 3-seat host with two guests seated and ready and one watching, messages delivered in
    memory through the wire encoding until nothing is left to send."""

    def __init__(self) -> None:
        self.host = HostLobby(HOST, "larry", OPTIONS, 3, ("10.0.0.1", 5000), TABLE_ID)
        self.guests = [GuestLobby(me, HOST.public, 5001 + n) for n, me in enumerate(SEATED)]
        self.watcher = GuestLobby(WATCHER, HOST.public, 6000)
        for me in (*SEATED, WATCHER):
            self.deliver(self.host.connected(me.public))
        for me, guest in zip(SEATED, self.guests, strict=True):
            self.send(me, guest.take_seat())
            self.send(me, guest.set_ready())

    def deliver(self, sends: list[Send], answering: bool = True) -> None:
        """The host's `sends` to the guests, then their answers back (unless not `answering`):
        every message of a batch arrives before any answer to it, as on the host's channels."""
        answers: list[tuple[Identity, wire.GuestMessage]] = []
        for send in sends:
            message = wire.decode_lobby_message(wire.encode_lobby_message(send.message), "host")
            if send.to == WATCHER.key:
                assert self.watcher.receive(message) == []  # type: ignore[arg-type]
                continue
            index = [me.key for me in SEATED].index(send.to)
            said = self.guests[index].receive(message)  # type: ignore[arg-type]
            answers += [(SEATED[index], answer) for answer in said if answering]
        for me, answer in answers:
            self.send(me, answer)

    def send(self, me: Identity, message: wire.GuestMessage) -> list[Send]:
        """`me`'s message to the host, and on to every guest; what the host answered."""
        sends = self.host.receive(me.public, "10.0.0.9", message)
        self.deliver(sends)
        return sends

    def roster(self) -> Roster:
        """The roster the host's start fixes (seated, ready, the options as they are)."""
        seats = (HOST.public, *(me.public for me in SEATED))
        return Roster(TABLE_ID, "larry", tuple(sorted(OPTIONS.items())), seats)


def in_phase(phase: LobbyPhase) -> Lobby:
    """A lobby whose host, and first guest, are in `phase` (both are, at each of these points)."""
    lobby = Lobby()
    if phase is LobbyPhase.STARTING:
        sends = lobby.host.start()
        lobby.deliver([send for send in sends if send.to != SECOND.key])
        lobby.deliver([send for send in sends if send.to == SECOND.key], answering=False)
        assert lobby.host.unsigned_seats == [2]  # the second guest's signature is still to come
    elif phase is LobbyPhase.STARTED:
        lobby.deliver(lobby.host.start())
    elif phase is LobbyPhase.CLOSED:
        lobby.deliver(lobby.host.close("the host went home"))
    assert lobby.host.phase is phase and lobby.guests[0].phase is phase
    assert lobby.watcher.phase is phase  # a watcher follows the start without signing
    return lobby


def signed_by(me: Identity, roster: Roster) -> wire.SignRoster:
    return wire.SignRoster(roster.digest, me.sign(roster.canonical_bytes()))


# -- the host ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """How an input the table does not allow is refused: the error and whom it blames (None:
    LocalLobbyError, the host's own call), or no error at all (`ignored`)."""

    error: type[Exception] | None
    culprit: str | None = None

    @property
    def ignored(self) -> bool:
        return self.error is None


IGNORED = Refusal(None)
LOCAL = Refusal(LocalLobbyError)


def blames(me: Identity) -> Refusal:
    return Refusal(LobbyError, str(me.public))


def host_event(event: HostEvent, lobby: Lobby) -> tuple[Callable[[], object], Refusal]:
    """How `event` happens to the host, and how it is refused when the table forbids it."""
    host, roster = lobby.host, lobby.roster()
    signatures = (signed_by(FIRST, roster), signed_by(SECOND, roster))
    happenings: dict[HostEvent, tuple[Callable[[], object], Refusal]] = {
        HostEvent.CONNECTED: (lambda: host.connected(WATCHER.public), IGNORED),
        HostEvent.TAKE_SEAT: (
            lambda: lobby.send(WATCHER, wire.TakeSeat(None, 6000)),
            blames(WATCHER),
        ),
        HostEvent.SEAT_LEFT: (lambda: lobby.send(SECOND, wire.LeaveSeat()), blames(SECOND)),
        HostEvent.READY: (
            lambda: lobby.send(FIRST, wire.SetReady(True, options_digest(roster.options))),
            blames(FIRST),
        ),
        HostEvent.NOT_READY: (
            lambda: lobby.send(FIRST, wire.SetReady(False, bytes(32))),
            blames(FIRST),
        ),
        HostEvent.SIGNATURE: (lambda: lobby.send(FIRST, signatures[0]), blames(FIRST)),
        # Every signature, the second guest's last (in STARTING, the first's came with the start).
        HostEvent.EVERY_SEAT_SIGNED: (
            lambda: [lobby.send(me, sign) for me, sign in zip(SEATED, signatures, strict=True)],
            blames(FIRST),
        ),
        HostEvent.SET_OPTIONS: (lambda: host.set_options({"hands": 2}), LOCAL),
        HostEvent.START: (host.start, LOCAL),
        HostEvent.CALL_OFF_START: (host.call_off_start, LOCAL),
        HostEvent.CLOSE: (host.close, LOCAL),
    }
    happen, refusal = happenings[event]
    if event is HostEvent.EVERY_SEAT_SIGNED and host.phase is LobbyPhase.OPEN:
        refusal = IGNORED  # signatures of a roster that is not out: dropped (they may have crossed)
    return happen, refusal


def host_snapshot(host: HostLobby) -> object:
    return (host.phase, host.state, host.can_start, host.unsigned_seats, host.signed_roster)


@pytest.mark.parametrize(("phase", "event"), list(product(LobbyPhase, HostEvent)))
def test_the_host_lobby_moves_only_as_its_table_says(phase: LobbyPhase, event: HostEvent) -> None:
    lobby = in_phase(phase)
    happen, refusal = host_event(event, lobby)
    target = HOST_TRANSITIONS.get((phase, event))
    if target is not None:
        happen()
        assert lobby.host.phase is target
        return
    before = host_snapshot(lobby.host)
    if refusal.ignored:
        assert happen() in ([], [[], []])  # nothing sent (for each signature)
    else:
        assert refusal.error is not None
        with pytest.raises(refusal.error) as error:
            happen()
        if refusal.culprit is not None:
            assert isinstance(error.value, PeerError) and error.value.culprit == refusal.culprit
    assert host_snapshot(lobby.host) == before


def test_the_wire_shows_a_host_phase_as_open_or_starting_only() -> None:
    shown = {phase: in_phase(phase).host.state.phase for phase in LobbyPhase}
    assert shown == {
        LobbyPhase.OPEN: "open",
        LobbyPhase.STARTING: "starting",
        LobbyPhase.STARTED: "open",
        LobbyPhase.CLOSED: "open",
    }
    assert all(type(words) is str for words in shown.values())  # plain strings, not the enum


# -- a guest -----------------------------------------------------------------------------------


def guest_event(event: GuestEvent, lobby: Lobby) -> tuple[wire.HostMessage, type[PeerError]]:
    """The host's message that is `event` to the first guest, and the error it raises when the
    table forbids it (always blaming the host)."""
    guest, roster = lobby.guests[0], lobby.roster()
    view = guest.view
    assert view is not None
    everyone = (HOST, *SEATED)
    signatures = tuple(me.sign(roster.canonical_bytes()) for me in everyone)
    messages: dict[GuestEvent, tuple[wire.HostMessage, type[PeerError]]] = {
        GuestEvent.STATE_OPEN: (replace(view, phase="open"), LobbyError),
        GuestEvent.STATE_STARTING: (replace(view, phase="starting"), LobbyError),
        GuestEvent.REFUSED: (wire.SeatRefused(2, "seat 2 is taken"), LobbyError),
        GuestEvent.START_TABLE: (wire.StartTable(roster), LobbyError),
        # In OPEN no roster was out for us to sign: a start is one we did not sign.
        GuestEvent.TABLE_STARTED: (
            wire.TableStarted(roster.digest, signatures),
            RosterError if guest.phase is LobbyPhase.OPEN else LobbyError,
        ),
        GuestEvent.TABLE_CLOSED: (wire.TableClosed("the host went home"), LobbyError),
    }
    return messages[event]


def guest_snapshot(guest: GuestLobby) -> object:
    return (guest.phase, guest.view, guest.roster, guest.signed_roster, guest.closed_reason)


@pytest.mark.parametrize(("phase", "event"), list(product(LobbyPhase, GuestEvent)))
def test_a_guest_lobby_moves_only_as_its_table_says(phase: LobbyPhase, event: GuestEvent) -> None:
    lobby = in_phase(phase)
    guest = lobby.guests[0]
    message, error_type = guest_event(event, lobby)
    target = GUEST_TRANSITIONS.get((phase, event))
    if target is not None:
        guest.receive(message)
        assert guest.phase is target
        return
    before = guest_snapshot(guest)
    with pytest.raises(error_type) as error:
        guest.receive(message)
    assert error.value.culprit == f"host {HOST.public}"
    assert guest_snapshot(guest) == before


def test_back_to_open_no_roster_is_out_on_either_side() -> None:
    lobby = in_phase(LobbyPhase.STARTING)
    assert lobby.guests[0].roster is not None
    lobby.send(SECOND, wire.SetReady(False, bytes(32)))  # the second guest changes its mind
    assert lobby.host.phase is LobbyPhase.OPEN and lobby.host.unsigned_seats == []
    assert lobby.guests[0].phase is LobbyPhase.OPEN and lobby.guests[0].roster is None


def test_a_watcher_follows_the_start_without_a_signature_of_its_own() -> None:
    lobby = in_phase(LobbyPhase.STARTED)
    assert lobby.watcher.my_seat is None
    assert lobby.host.signed_roster is not None
    assert lobby.watcher.signed_roster == lobby.host.signed_roster
    assert WATCHER.public not in lobby.host.signed_roster.roster.seats
