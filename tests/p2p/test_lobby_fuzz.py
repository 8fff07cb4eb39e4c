"""Hypothesis fuzzing of the lobby's parsers and state machines: whatever a peer sends, the
result is a parsed message or a LobbyMessageError/PeerError naming that peer, never a crash;
and a refused message leaves the lobby exactly as it was."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.lobby.discovery import BadAdvertisement, TableAd
from fairdeal.p2p.lobby.machines import HostLobby, LocalLobbyError
from fairdeal.p2p.lobby.messages import (
    GUEST_KINDS,
    HOST_KINDS,
    LeaveSeat,
    LobbyMessageError,
    SetReady,
    SignRoster,
    TakeSeat,
    decode_lobby_message,
)
from fairdeal.p2p.lobby.roster import options_digest

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ_SEQUENCES = settings(FUZZ, max_examples=40)  # each example is a whole lobby session

leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(1 << 63), max_value=(1 << 64) - 1)
    | st.text(max_size=12)
    | st.binary(max_size=70)
    | st.sampled_from([b"\x01" * 16, b"\x02" * 32, b"\x03" * 64, "10.0.0.1", "open", 3])
)
values = st.recursive(
    leaves,
    lambda children: (
        st.lists(children, max_size=9) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
field_names = st.sampled_from(
    [
        "seat", "port", "ready", "options_digest", "digest", "signature", "table_id", "game",
        "options", "phase", "seats", "reason", "roster", "signatures", "key", "name", "host",
    ]
)  # fmt: skip
messages = st.builds(
    lambda kind, fields: {**fields, "t": kind},
    st.sampled_from([*sorted(GUEST_KINDS | HOST_KINDS), "lobby-x", "env"]),
    st.dictionaries(field_names, values, max_size=8),
)


@FUZZ
@given(messages)
def test_decoder_parses_or_blames_the_sender(message: dict[str, Any]) -> None:
    try:
        decode_lobby_message(message, "seat 4")
    except LobbyMessageError as error:
        assert error.culprit == "seat 4"


def identity(index: int) -> Identity:
    return Identity.generate(f"p{index}", random_bytes=lambda n: bytes([index + 1]) * n)


HOST = identity(0)
GUEST = identity(1)


@FUZZ_SEQUENCES
@given(st.lists(messages, max_size=4))
def test_host_survives_any_guest_messages(wire_messages: list[dict[str, Any]]) -> None:
    lobby = HostLobby(HOST, "larry", {"hands": 1}, 3, ("10.0.0.1", 5000), bytes(16))
    lobby.connected(GUEST.public)
    for message in wire_messages:
        before = lobby.state
        try:
            decoded = decode_lobby_message(message, str(GUEST.public))
            lobby.receive(GUEST.public, "10.0.0.2", decoded)  # type: ignore[arg-type]
        except PeerError as error:
            assert error.culprit in (str(GUEST.public), "seat 1", "seat 2")
            assert lobby.state == before


@FUZZ
@given(st.dictionaries(st.binary(max_size=8), st.none() | st.binary(max_size=50), max_size=8))
def test_txt_parser_accepts_or_refuses_cleanly(properties: dict[bytes, bytes | None]) -> None:
    try:
        ad = TableAd.from_txt(properties)
    except BadAdvertisement:
        return
    wire = {key.encode(): value.encode() for key, value in ad.to_txt().items()}
    assert TableAd.from_txt(wire) == ad


OTHER = identity(2)
GOOD_DIGEST = options_digest((("hands", 1),))
guest_actions = st.tuples(
    st.sampled_from([GUEST, OTHER]),
    st.one_of(
        st.builds(TakeSeat, st.none() | st.integers(0, 3), st.just(4000)),
        st.just(LeaveSeat()),
        st.builds(SetReady, st.booleans(), st.sampled_from([GOOD_DIGEST, bytes(32)])),
        st.builds(SignRoster, st.binary(min_size=32, max_size=32), st.just(bytes(64))),
        st.just("disconnect"),
        st.just("start"),
    ),
)


@FUZZ_SEQUENCES
@given(st.lists(guest_actions, max_size=12))
def test_host_lobby_invariants_hold_under_any_well_formed_sequence(
    actions: list[tuple[Identity, object]],
) -> None:
    """Host at seat 0, one seat per key, refusals change nothing, start needs a full ready table."""
    lobby = HostLobby(HOST, "larry", {"hands": 1}, 3, ("10.0.0.1", 5000), bytes(16))
    for who in (GUEST, OTHER):
        lobby.connected(who.public)
    for who, action in actions:
        before = lobby.state
        if action == "disconnect":
            lobby.disconnected(who.key)
        elif action == "start":
            ready_table = lobby.can_start
            try:
                lobby.start()
                assert ready_table
            except LocalLobbyError:
                assert not ready_table
                assert lobby.state == before
        else:
            try:
                lobby.receive(who.public, "10.0.0.2", action)  # type: ignore[arg-type]
            except PeerError:
                assert lobby.state == before
        seats = lobby.state.seats
        assert seats[0] is not None and seats[0].identity == HOST.public
        keys = [seat.identity.key for seat in seats if seat is not None]
        assert len(keys) == len(set(keys))
        assert lobby.signed_roster is None  # the forged signatures never complete a start
