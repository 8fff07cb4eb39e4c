"""The lobby state machines wired together in memory (h11 style), every message through the wire
encoding: seats are taken and left, readiness is agreement to the options, and the start is a
roster signed by every seat. Attacks by a guest and by the host are refused and blamed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from fairdeal.p2p.identity import Identity
from fairdeal.p2p.lobby.machines import (
    OPEN,
    STARTED,
    STARTING,
    GuestLobby,
    HostLobby,
    LobbyError,
    LocalLobbyError,
    Send,
)
from fairdeal.p2p.lobby.messages import (
    GuestMessage,
    HostMessage,
    LobbyMessageError,
    LobbyState,
    SeatRefused,
    SetReady,
    SignRoster,
    StartTable,
    TableClosed,
    TableStarted,
    decode_lobby_message,
    encode_lobby_message,
    parse_signed_roster_record,
)
from fairdeal.p2p.lobby.roster import Roster, RosterError, SignedRoster, options_digest
from fairdeal.p2p.lobby.session import create_transcript
from fairdeal.p2p.log.transcript import load_transcript

OPTIONS = {"hands": 3, "larry_call": True}
TABLE_ID = bytes(range(16))


def identity(index: int) -> Identity:
    return Identity.generate(f"player{index}", random_bytes=lambda n: bytes([index + 1]) * n)


def over_the_wire(message: HostMessage | GuestMessage, culprit: str) -> object:
    return decode_lobby_message(encode_lobby_message(message), culprit)


class Table:
    """A host and guests exchanging lobby messages in memory until nothing is left to send."""

    def __init__(self, seat_count: int = 3, guest_count: int = 2) -> None:
        self.host_identity = identity(0)
        self.host = HostLobby(
            self.host_identity, "larry", OPTIONS, seat_count, ("10.0.0.1", 5000), TABLE_ID
        )
        self.identities = [identity(index) for index in range(1, guest_count + 1)]
        self.guests = [
            GuestLobby(me, self.host_identity.public, port=5000 + index)
            for index, me in enumerate(self.identities, start=1)
        ]
        self.inbox: dict[bytes, list[HostMessage]] = {me.key: [] for me in self.identities}
        for me in self.identities:
            self.deliver(self.host.connected(me.public))

    def guest_of(self, key: bytes) -> GuestLobby:
        return self.guests[[me.key for me in self.identities].index(key)]

    def deliver(self, sends: list[Send]) -> None:
        for send in sends:
            message = over_the_wire(send.message, "host")
            self.inbox[send.to].append(message)  # type: ignore[arg-type]
            answers = self.guest_of(send.to).receive(message)  # type: ignore[arg-type]
            for answer in answers:
                self.from_guest(self.identities.index(self.identity_of(send.to)), answer)

    def identity_of(self, key: bytes) -> Identity:
        return next(me for me in self.identities if me.key == key)

    def from_guest(self, index: int, message: GuestMessage) -> None:
        me = self.identities[index]
        decoded = over_the_wire(message, str(me.public))
        self.deliver(self.host.receive(me.public, f"10.0.0.{index + 2}", decoded))  # type: ignore[arg-type]

    def seat_and_ready_everyone(self) -> None:
        for index, guest in enumerate(self.guests):
            self.from_guest(index, guest.take_seat())
            self.from_guest(index, guest.set_ready())


def test_three_seats_sign_one_roster_and_start() -> None:
    table = Table()
    table.seat_and_ready_everyone()
    assert [guest.my_seat for guest in table.guests] == [1, 2]
    assert table.host.can_start
    table.deliver(table.host.start())

    signed = table.host.signed_roster
    assert signed is not None
    assert table.host.phase == STARTED
    roster = signed.roster
    assert roster.table_id == TABLE_ID
    assert roster.game == "larry"
    assert roster.options_dict == OPTIONS
    assert [seat.key for seat in roster.seats] == [
        table.host_identity.key,
        *(me.key for me in table.identities),
    ]
    for guest in table.guests:
        assert guest.phase == STARTED
        assert guest.signed_roster == signed
    for seat, signature in enumerate(signed.signatures):
        roster.verify_signature(seat, signature)
    # Addresses for the mesh come from where the host saw each guest, with the guest's port.
    state = table.host.state
    assert [(s.host, s.port) for s in state.seats if s] == [
        ("10.0.0.1", 5000),
        ("10.0.0.2", 5001),
        ("10.0.0.3", 5002),
    ]


def test_lobby_state_shows_seats_as_they_fill() -> None:
    table = Table()
    first, second = table.guests
    table.from_guest(0, first.take_seat(2))
    view = second.view
    assert view is not None
    assert view.seats_taken == 2
    assert view.seats[2] is not None and view.seats[2].identity == table.identities[0].public
    assert view.seats[1] is None
    table.from_guest(1, second.take_seat())  # lowest free seat
    assert second.my_seat == 1
    table.from_guest(0, first.leave_seat())
    assert first.my_seat is None
    assert table.host.seats_taken == 2


def test_taken_seat_and_full_table_are_refused() -> None:
    table = Table(seat_count=2, guest_count=2)
    first, second = table.guests
    table.from_guest(0, first.take_seat(1))
    before = table.host.state
    table.from_guest(1, second.take_seat(1))
    assert second.last_refusal == SeatRefused(1, "seat 1 is taken")
    table.from_guest(1, second.take_seat())
    assert second.last_refusal == SeatRefused(None, "the table is full")
    assert table.host.state == before


def test_moving_seats_frees_the_old_one() -> None:
    table = Table(seat_count=4, guest_count=1)
    (guest,) = table.guests
    table.from_guest(0, guest.take_seat(1))
    table.from_guest(0, guest.take_seat(3))
    assert guest.my_seat == 3
    assert table.host.state.seats[1] is None


@pytest.mark.parametrize(
    ("message", "complaint"),
    [
        (SetReady(True, options_digest(tuple(sorted(OPTIONS.items())))), "without a seat"),
        (SignRoster(bytes(32), bytes(64)), "without a seat"),
    ],
)
def test_unseated_peer_cannot_act(message: GuestMessage, complaint: str) -> None:
    table = Table()
    stranger = table.identities[0].public
    before = table.host.state
    with pytest.raises(LobbyError, match=complaint) as error:
        table.host.receive(stranger, "10.0.0.9", message)
    assert error.value.culprit == str(stranger)
    assert table.host.state == before


def test_seat_beyond_the_table_is_a_violation() -> None:
    table = Table(seat_count=3)
    with pytest.raises(LobbyError, match="seat 5 of a 3-seat table"):
        table.host.receive(table.identities[0].public, "10.0.0.2", table.guests[0].take_seat(5))


def test_start_needs_every_seat_taken_and_ready() -> None:
    table = Table()
    first, second = table.guests
    table.from_guest(0, first.take_seat())
    table.from_guest(0, first.set_ready())
    with pytest.raises(LocalLobbyError):
        table.host.start()  # seat 2 is free
    table.from_guest(1, second.take_seat())
    with pytest.raises(LocalLobbyError):
        table.host.start()  # seat 2 is not ready
    assert table.host.phase == OPEN


def test_changing_options_makes_guests_agree_again() -> None:
    table = Table()
    table.seat_and_ready_everyone()
    stale = table.guests[0].set_ready()  # agrees to the old options...
    table.deliver(table.host.set_options({"hands": 5}))
    assert not table.host.can_start
    table.from_guest(0, stale)  # ...and arrives after the change: not counted
    state = table.host.state
    assert state.seats[1] is not None and not state.seats[1].ready
    for index, guest in enumerate(table.guests):
        table.from_guest(index, guest.set_ready())
    table.deliver(table.host.start())
    assert table.host.signed_roster is not None
    assert table.host.signed_roster.roster.options_dict == {"hands": 5}


def test_leaving_while_starting_calls_the_start_off() -> None:
    table = Table()
    table.seat_and_ready_everyone()
    # Hold back the guests' signatures: deliver the start to nobody yet.
    sends = table.host.start()
    assert table.host.phase == STARTING
    table.deliver(table.host.disconnected(table.identities[1].key))
    assert table.host.phase == OPEN
    assert table.host.state.seats[2] is None
    assert any(isinstance(send.message, StartTable) for send in sends)
    # The called-off start's roster is no longer signed by anyone.
    assert table.host.signed_roster is None


def test_forged_roster_signature_is_blamed_on_its_seat() -> None:
    table = Table()
    table.seat_and_ready_everyone()
    start_sends = table.host.start()
    roster = next(s.message.roster for s in start_sends if isinstance(s.message, StartTable))
    liar = table.identities[1]
    forged = SignRoster(roster.digest, liar.sign(b"something else"))
    with pytest.raises(RosterError, match="does not verify") as error:
        table.host.receive(liar.public, "10.0.0.3", forged)
    assert error.value.culprit == "seat 2"
    other_roster = replace(roster, game="lie")
    with pytest.raises(RosterError, match="different roster") as error:
        table.host.receive(
            liar.public,
            "10.0.0.3",
            SignRoster(other_roster.digest, liar.sign(other_roster.canonical_bytes())),
        )
    assert error.value.culprit == "seat 2"
    assert table.host.phase == STARTING
    assert table.host.signed_roster is None


def started_guest_table() -> tuple[Table, Roster]:
    """Everyone seated and ready; the guests have the state but not yet the start."""
    table = Table()
    table.seat_and_ready_everyone()
    sends = table.host.start()
    roster = next(s.message.roster for s in sends if isinstance(s.message, StartTable))
    return table, roster


@pytest.mark.parametrize(
    ("tamper", "complaint"),
    [
        (lambda r: replace(r, options=(("hands", 9),)), "options we did not agree to"),
        (lambda r: replace(r, seats=(r.seats[0], r.seats[2], r.seats[1])), "seats"),
        (lambda r: replace(r, game="lie"), "game"),
        (lambda r: replace(r, table_id=bytes(16)), "table id"),
    ],
)
def test_guest_refuses_to_sign_a_roster_it_did_not_agree_to(tamper, complaint: str) -> None:  # type: ignore[no-untyped-def]
    table, roster = started_guest_table()
    guest = table.guests[0]
    with pytest.raises(RosterError, match=complaint) as error:
        guest.receive(StartTable(tamper(roster)))
    assert error.value.culprit.startswith("host")
    assert guest.phase == OPEN
    assert guest.roster is None


def test_guest_rejects_a_start_with_a_forged_signature() -> None:
    table, roster = started_guest_table()
    guest = table.guests[0]
    (answer,) = guest.receive(StartTable(roster))
    assert isinstance(answer, SignRoster)
    signatures = [
        table.host_identity.sign(roster.canonical_bytes()),
        answer.signature,
        table.host_identity.sign(roster.canonical_bytes()),  # the host signing for seat 2
    ]
    with pytest.raises(RosterError, match="does not verify") as error:
        guest.receive(TableStarted(roster.digest, tuple(signatures)))
    assert error.value.culprit == "seat 2"
    assert guest.phase == STARTING
    assert guest.signed_roster is None


def test_signed_roster_needs_every_signature() -> None:
    table, roster = started_guest_table()
    with pytest.raises(RosterError, match="lacks"):
        SignedRoster.verified(roster, (table.host_identity.sign(roster.canonical_bytes()),))


def test_host_closing_the_table_reaches_every_guest() -> None:
    table = Table()
    table.deliver(table.host.close("host went home"))
    assert all(guest.closed_reason == "host went home" for guest in table.guests)
    assert isinstance(table.inbox[table.identities[0].key][-1], TableClosed)


def test_state_from_an_impostor_host_is_refused() -> None:
    table = Table()
    guest = table.guests[0]
    view = guest.view
    assert isinstance(view, LobbyState)
    impostor_seat = replace(view.seats[0], identity=table.identities[1].public)  # type: ignore[arg-type]
    with pytest.raises(LobbyError, match="without the host"):
        guest.receive(replace(view, seats=(impostor_seat, *view.seats[1:])))
    assert guest.view == view


def test_ready_crossing_a_state_update_still_signs() -> None:
    """A guest's SetReady and a state from before it (another guest sitting down) cross."""
    table = Table()
    first, second = table.guests
    table.from_guest(0, first.take_seat())
    ready = first.set_ready()
    stale_sends = table.host.receive(table.identities[1].public, "10.0.0.3", second.take_seat())
    table.from_guest(0, ready)  # the host applies the ready...
    table.deliver(stale_sends)  # ...and the older state (first not ready) arrives after it
    table.from_guest(1, second.set_ready())
    table.deliver(table.host.start())
    assert first.phase == STARTED


def test_the_logs_roster_record_must_be_the_signed_roster() -> None:
    table = Table()
    table.seat_and_ready_everyone()
    table.deliver(table.host.start())
    signed = table.host.signed_roster
    assert signed is not None
    signed.check_body(signed.to_body(), "seat 0")
    forged = signed.to_body() | {"signatures": list(reversed(signed.signatures))}
    with pytest.raises(RosterError, match="not the roster we signed") as error:
        signed.check_body(forged, "seat 0")
    assert error.value.culprit == "seat 0"


def test_transcript_header_keeps_the_signed_roster_for_auditors(tmp_path: Path) -> None:
    table = Table()
    table.seat_and_ready_everyone()
    table.deliver(table.host.start())
    signed = table.host.signed_roster
    assert signed is not None
    path = tmp_path / "seat1.transcript"
    create_transcript(path, signed, seat=1).close()
    record = load_transcript(path).extra["signed_roster"]
    assert parse_signed_roster_record(record, "transcript") == signed

    forged = record | {"roster": record["roster"] | {"options": {"hands": 99}}}
    with pytest.raises(RosterError, match="does not verify") as error:
        parse_signed_roster_record(forged, "transcript")
    assert error.value.culprit == "transcript"
    with pytest.raises(LobbyMessageError, match="lacks 'signatures'"):
        parse_signed_roster_record({"roster": record["roster"]}, "transcript")


def test_host_calls_off_a_start_that_a_seat_does_not_sign() -> None:
    table = Table()
    table.seat_and_ready_everyone()
    table.host.start()  # delivered to nobody: no guest signs
    assert table.host.unsigned_seats == [1, 2]
    sends = table.host.call_off_start()
    assert table.host.phase == OPEN
    assert table.host.unsigned_seats == []
    assert {send.to for send in sends} == {me.key for me in table.identities}
    assert all(isinstance(send.message, LobbyState) for send in sends)
    with pytest.raises(LocalLobbyError):
        table.host.call_off_start()
