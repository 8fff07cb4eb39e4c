"""The lobby as two sans-IO state machines: `HostLobby` (authoritative) and `GuestLobby`.

The host opens a table (game, options, seat count) and sits at seat 0. Guests connect to it,
take and leave seats and mark themselves ready; the host starts when every seat is taken and
every guest is ready. Starting fixes a `Roster`, which every seat signs (the host first); when
the host holds every signature it sends them all, and each peer verifies them into a
`SignedRoster` before the first game message (protocol.md section 5).

Like h11, nothing here does I/O: the host's methods take what arrived and return the `Send`s to
perform; the guest's return the messages for the host. Bad input raises a `PeerError` that names
the culprit and leaves the state exactly as it was. Each machine's phase moves only through its
transition table (p2p/lobby/phases.py), applied by one method, `_move`, which refuses an event the
table does not allow in the current phase with the lobby's error and changes nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import Identity, PublicIdentity
from fairdeal.p2p.lobby.messages import (
    MAX_SEATS,
    GuestMessage,
    HostMessage,
    LeaveSeat,
    LobbyState,
    SeatRefused,
    SeatView,
    SetReady,
    SignRoster,
    StartTable,
    TableClosed,
    TableStarted,
    TakeSeat,
)
from fairdeal.p2p.lobby.phases import (
    GUEST_TRANSITIONS,
    HOST_TRANSITIONS,
    GuestEvent,
    HostEvent,
    LobbyPhase,
    guest_event_of,
    host_event_of,
    next_phase,
)
from fairdeal.p2p.lobby.roster import (
    TABLE_ID_SIZE,
    OptionValue,
    Roster,
    RosterError,
    SignedRoster,
    options_digest,
)

# The phases by their short names (the lobby's callers and tests use them).
OPEN, STARTING, STARTED, CLOSED = (
    LobbyPhase.OPEN,
    LobbyPhase.STARTING,
    LobbyPhase.STARTED,
    LobbyPhase.CLOSED,
)
HOST_SEAT = 0
NOT_OUR_ROSTER = "announced the start of a roster we did not sign"

# The host's own calls the table refuses, in the words `LocalLobbyError` says.
REFUSED_CALLS: Mapping[HostEvent, str] = {
    HostEvent.SET_OPTIONS: "options are fixed once the table starts",
    HostEvent.START: "every seat must be taken and every guest ready to start",
    HostEvent.CALL_OFF_START: "no start to call off",
}


class LobbyError(PeerError):
    """A lobby message that is not allowed now (wrong phase, not seated, bad roster)."""

    code = "lobby-violation"


class LocalLobbyError(Exception):
    """This peer asked for something the lobby does not allow (like h11's LocalProtocolError)."""


@dataclass(frozen=True)
class Send:
    """Deliver `message` to the peer with identity key `to`."""

    to: bytes
    message: HostMessage


def new_table_id(random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> bytes:
    return random_bytes(TABLE_ID_SIZE)


class HostLobby:
    """The table's lobby as its host keeps it. Every change is broadcast as a `LobbyState`."""

    def __init__(
        self,
        identity: Identity,
        game: str,
        options: Mapping[str, OptionValue],
        seat_count: int,
        address: tuple[str, int],
        table_id: bytes | None = None,
    ) -> None:
        if not 2 <= seat_count <= MAX_SEATS:
            raise LocalLobbyError(f"a table has 2 to {MAX_SEATS} seats, not {seat_count}")
        self._identity = identity
        self.table_id = table_id if table_id is not None else new_table_id()
        self.game = game
        self._options = tuple(sorted(options.items()))
        host_view = SeatView(identity.public, ready=True, host=address[0], port=address[1])
        self._seats: list[SeatView | None] = [host_view] + [None] * (seat_count - 1)
        self._watchers: dict[bytes, PublicIdentity] = {}
        self._phase = OPEN
        self._roster: Roster | None = None
        self._signatures: dict[int, bytes] = {}
        self.signed_roster: SignedRoster | None = None

    # -- queries -------------------------------------------------------------------------------

    @property
    def phase(self) -> LobbyPhase:
        return self._phase

    @property
    def state(self) -> LobbyState:
        shown = STARTING if self._phase is STARTING else OPEN  # the wire knows only these two
        return LobbyState(
            table_id=self.table_id,
            game=self.game,
            options=self._options,
            seats=tuple(self._seats),
            phase=shown.value,
        )

    @property
    def seats_taken(self) -> int:
        return sum(seat is not None for seat in self._seats)

    @property
    def can_start(self) -> bool:
        ready = all(seat is not None and seat.ready for seat in self._seats)
        return ready and self._takes(HostEvent.START)

    def _seat_of(self, key: bytes) -> int | None:
        return self.state.seat_of(key)

    # -- events from the network ---------------------------------------------------------------

    def connected(self, peer: PublicIdentity) -> list[Send]:
        """A peer opened a channel to us: it watches the lobby from now on (once the table has
        started, p2p/table/runtime/watchers.py serves watchers instead)."""
        if not self._takes(HostEvent.CONNECTED):
            return []
        self._watchers[peer.key] = peer
        return [Send(peer.key, self.state)]

    def disconnected(self, peer_key: bytes) -> list[Send]:
        """A peer's channel went down: it leaves its seat (and a pending start is called off)."""
        self._watchers.pop(peer_key, None)
        if not self._takes(HostEvent.SEAT_LEFT) or self._seat_of(peer_key) is None:
            return []
        return self._vacate(peer_key)

    def receive(self, peer: PublicIdentity, peer_host: str, message: GuestMessage) -> list[Send]:
        """Apply one message from `peer` (seen at `peer_host`); raises LobbyError if illegal."""
        event = host_event_of(message)
        if event is None:
            raise LobbyError(str(peer), f"{type(message).__name__} is not a guest message")
        self._check(event, str(peer))
        self._watchers.setdefault(peer.key, peer)
        match message:
            case TakeSeat(seat, port):
                return self._take(peer, peer_host, seat, port)
            case LeaveSeat():
                if self._seat_of(peer.key) is None:
                    raise LobbyError(str(peer), "left a seat it does not hold")
                return self._vacate(peer.key)
            case SetReady(ready, digest):
                return self._set_ready(peer, ready, digest)
            case SignRoster(digest, signature):
                return self._sign(peer, digest, signature)
        raise AssertionError(f"{type(message).__name__} has an event but no handler")

    # -- the host's own actions ----------------------------------------------------------------

    def set_options(self, options: Mapping[str, OptionValue]) -> list[Send]:
        """Change the options while the table is open; every guest must mark ready again."""
        self._move(HostEvent.SET_OPTIONS)
        self._options = tuple(sorted(options.items()))
        self._seats = [
            seat if seat is None or index == HOST_SEAT else replace(seat, ready=False)
            for index, seat in enumerate(self._seats)
        ]
        return self._broadcast_state()

    def start(self) -> list[Send]:
        """Fix the roster and ask every seat to sign it (the host signs at once)."""
        if not self.can_start:
            raise LocalLobbyError(REFUSED_CALLS[HostEvent.START])
        roster = Roster(
            table_id=self.table_id,
            game=self.game,
            options=self._options,
            seats=tuple(seat.identity for seat in self._seats if seat is not None),
        )
        self._move(HostEvent.START)
        self._roster = roster
        self._signatures = {HOST_SEAT: self._identity.sign(roster.canonical_bytes())}
        return [*self._broadcast_state(), *self._broadcast(StartTable(roster))]

    @property
    def unsigned_seats(self) -> list[int]:
        """While starting: the seats whose roster signature has not arrived yet."""
        if self._roster is None:
            return []
        return [seat for seat in range(len(self._roster.seats)) if seat not in self._signatures]

    def call_off_start(self) -> list[Send]:
        """Give up a start that some seat does not sign (e.g. on a timeout): back to open."""
        self._move(HostEvent.CALL_OFF_START)
        return self._broadcast_state()

    def close(self, reason: str = "the host closed the table") -> list[Send]:
        # The seats of a started table hear of its end on the table's own channels.
        sends = self._broadcast(TableClosed(reason)) if self._phase is not STARTED else []
        self._move(HostEvent.CLOSE)
        return sends

    # -- the phase, moved only by the transition table -----------------------------------------

    def _takes(self, event: HostEvent) -> bool:
        return next_phase(HOST_TRANSITIONS, self._phase, event) is not None

    def _check(self, event: HostEvent, culprit: str | None = None) -> LobbyPhase:
        """Where `event` takes the lobby; refused (LobbyError blaming `culprit`, whose message it
        is, or LocalLobbyError for the host's own call) if the table does not allow it now."""
        target = next_phase(HOST_TRANSITIONS, self._phase, event)
        if target is not None:
            return target
        if culprit is not None:
            raise LobbyError(culprit, f"lobby message after the table {self._phase}")
        raise LocalLobbyError(REFUSED_CALLS.get(event, f"{event} while {self._phase}"))

    def _move(self, event: HostEvent) -> None:
        target = self._check(event)
        self._phase = target
        if target is OPEN:  # back to open (or still open): no roster is out for signature
            self._roster = None
            self._signatures = {}

    # -- what each message does ----------------------------------------------------------------

    def _take(
        self, peer: PublicIdentity, peer_host: str, wanted: int | None, port: int
    ) -> list[Send]:
        if self._phase is not OPEN:
            return [Send(peer.key, SeatRefused(wanted, "the table is starting"))]
        current = self._seat_of(peer.key)
        if wanted is not None and wanted >= len(self._seats):
            seats = len(self._seats)
            raise LobbyError(str(peer), f"asked for seat {wanted} of a {seats}-seat table")
        if wanted is None:
            if current is not None:
                return [Send(peer.key, self.state)]
            free = [index for index, seat in enumerate(self._seats) if seat is None]
            if not free:
                return [Send(peer.key, SeatRefused(None, "the table is full"))]
            wanted = free[0]
        if wanted == current:
            return [Send(peer.key, self.state)]
        if self._seats[wanted] is not None:
            return [Send(peer.key, SeatRefused(wanted, f"seat {wanted} is taken"))]
        if current is not None:
            self._seats[current] = None  # moving seats
        self._seats[wanted] = SeatView(peer, ready=False, host=peer_host, port=port)
        return self._broadcast_state()

    def _vacate(self, key: bytes) -> list[Send]:
        seat = self._seat_of(key)
        assert seat is not None
        self._move(HostEvent.SEAT_LEFT)  # a start in progress is called off
        self._seats[seat] = None
        return self._broadcast_state()

    def _set_ready(self, peer: PublicIdentity, ready: bool, digest: bytes) -> list[Send]:
        seat = self._seat_of(peer.key)
        if seat is None:
            raise LobbyError(str(peer), "marked ready without a seat")
        if ready and digest != options_digest(self._options):
            return [Send(peer.key, self.state)]  # it agreed to options that have since changed
        if ready and self._phase is STARTING:
            return []  # every seat was ready to start: nothing changes
        view = self._seats[seat]
        assert view is not None
        self._move(HostEvent.READY if ready else HostEvent.NOT_READY)  # not ready: start called off
        self._seats[seat] = replace(view, ready=ready)
        return self._broadcast_state()

    def _sign(self, peer: PublicIdentity, digest: bytes, signature: bytes) -> list[Send]:
        seat = self._seat_of(peer.key)
        if seat is None:
            raise LobbyError(str(peer), "signed a roster without a seat")
        if self._roster is None:
            return []  # a signature that crossed a called-off start: harmless, dropped
        if digest != self._roster.digest:
            raise RosterError(f"seat {seat}", "signed a different roster")
        self._roster.verify_signature(seat, signature)
        self._signatures[seat] = signature
        if len(self._signatures) < len(self._roster.seats):
            return []
        signatures = tuple(self._signatures[index] for index in range(len(self._roster.seats)))
        self.signed_roster = SignedRoster.verified(self._roster, signatures)
        self._move(HostEvent.EVERY_SEAT_SIGNED)
        return self._broadcast(TableStarted(self._roster.digest, signatures))

    def _broadcast_state(self) -> list[Send]:
        return self._broadcast(self.state)

    def _broadcast(self, message: HostMessage) -> list[Send]:
        return [Send(key, message) for key in self._watchers]


class GuestLobby:
    """A guest's view of one table's lobby, kept from the host's messages."""

    def __init__(self, identity: Identity, host: PublicIdentity, port: int) -> None:
        self._identity = identity
        self.host = host
        self.port = port  # our mesh listener, announced with TakeSeat
        self.view: LobbyState | None = None
        self._phase = OPEN
        self.roster: Roster | None = None
        self.signed_roster: SignedRoster | None = None
        self.last_refusal: SeatRefused | None = None
        self.closed_reason: str | None = None
        self._agreed_options: tuple[tuple[str, OptionValue], ...] | None = None

    @property
    def phase(self) -> LobbyPhase:
        return self._phase

    @property
    def my_seat(self) -> int | None:
        return None if self.view is None else self.view.seat_of(self._identity.key)

    # -- our actions (each returns the message to send to the host) ----------------------------

    def take_seat(self, seat: int | None = None) -> TakeSeat:
        return TakeSeat(seat, self.port)

    def leave_seat(self) -> LeaveSeat:
        if self.my_seat is None:
            raise LocalLobbyError("not seated")
        return LeaveSeat()

    def set_ready(self, ready: bool = True) -> SetReady:
        if self.view is None or self.my_seat is None:
            raise LocalLobbyError("take a seat before marking ready")
        # Readiness is agreement to these options: the roster must carry exactly them.
        self._agreed_options = self.view.options if ready else None
        return SetReady(ready, options_digest(self.view.options))

    # -- messages from the host ----------------------------------------------------------------

    def receive(self, message: HostMessage) -> list[GuestMessage]:
        """Apply one message from the host; returns what to answer (a roster signature)."""
        culprit = f"host {self.host}"
        event = guest_event_of(message)
        if event is None:
            raise LobbyError(culprit, f"{type(message).__name__} is not a host message")
        self._check(event)
        match message:
            case LobbyState():
                return self._apply_state(message, event)
            case SeatRefused():
                self._move(event)
                self.last_refusal = message
                return []
            case StartTable(roster):
                return self._sign(culprit, roster)
            case TableStarted(digest, signatures):
                self._started(culprit, digest, signatures)
                return []
            case TableClosed(reason):
                self._move(event)
                self.closed_reason = reason
                return []
        raise AssertionError(f"{type(message).__name__} has an event but no handler")

    # -- the phase, moved only by the transition table -----------------------------------------

    def _check(self, event: GuestEvent) -> LobbyPhase:
        """Where `event` takes the lobby; refused, blaming the host, if the table does not allow
        it now."""
        target = next_phase(GUEST_TRANSITIONS, self._phase, event)
        if target is not None:
            return target
        culprit = f"host {self.host}"
        if self._phase is OPEN:  # only a start can come out of turn here: no roster was out
            raise RosterError(culprit, NOT_OUR_ROSTER)
        raise LobbyError(culprit, f"lobby message after the table {self._phase}")

    def _move(self, event: GuestEvent) -> None:
        target = self._check(event)
        self._phase = target
        if target is OPEN:  # back to open (or still open): no roster is out for signature
            self.roster = None

    def _apply_state(self, state: LobbyState, event: GuestEvent) -> list[GuestMessage]:
        if self.view is not None and state.table_id != self.view.table_id:
            raise LobbyError(f"host {self.host}", "changed the table id")
        host_view = state.seats[HOST_SEAT] if state.seats else None
        if host_view is None or host_view.identity.key != self.host.key:
            raise LobbyError(f"host {self.host}", "lobby state without the host at seat 0")
        self._move(event)
        self.view = state
        # _agreed_options stays as we last set it: a state that still shows us not ready may
        # simply have crossed our SetReady on the way.
        return []

    def _sign(self, culprit: str, roster: Roster) -> list[GuestMessage]:
        """Sign only the table we watched, with us where we sat and the options we agreed to."""
        view = self.view
        if view is None:
            raise LobbyError(culprit, "started a table we never saw")
        if self.my_seat is None:  # a watcher signs nothing but may follow the start
            self._move(GuestEvent.START_TABLE)
            self.roster = roster
            return []
        expected = tuple(seat.identity for seat in view.seats if seat is not None)
        mismatch = (
            (roster.table_id != view.table_id and "table id")
            or (roster.game != view.game and "game")
            or (roster.options != self._agreed_options and "options we did not agree to")
            or (roster.seats != expected and "seats")
            or (len(expected) != len(view.seats) and "a seat still free")
        )
        if mismatch:
            raise RosterError(culprit, f"roster differs from the lobby: {mismatch}")
        self._move(GuestEvent.START_TABLE)
        self.roster = roster
        return [SignRoster(roster.digest, self._identity.sign(roster.canonical_bytes()))]

    def _started(self, culprit: str, digest: bytes, signatures: tuple[bytes, ...]) -> None:
        if self.roster is None or digest != self.roster.digest:
            raise RosterError(culprit, NOT_OUR_ROSTER)
        signed = SignedRoster.verified(self.roster, signatures)
        self._move(GuestEvent.TABLE_STARTED)
        self.signed_roster = signed
