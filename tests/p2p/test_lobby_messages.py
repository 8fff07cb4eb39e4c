"""Lobby messages on the wire: every kind round-trips; malformed maps are refused, naming the
culprit; unknown fields are ignored."""

from __future__ import annotations

from typing import Any

import pytest

from fairdeal.p2p.identity import PublicIdentity
from fairdeal.p2p.lobby import messages
from fairdeal.p2p.lobby.roster import Roster

ALICE = PublicIdentity(b"\x01" * 32, "alice")
BOB = PublicIdentity(b"\x02" * 32, "bob")
ROSTER = Roster.build(b"\x07" * 16, "lie", {"rounds": 2, "variant": "x"}, (ALICE, BOB))

EXAMPLES: list[messages.LobbyMessage] = [
    messages.TakeSeat(None, 4000),
    messages.TakeSeat(3, 4000),
    messages.LeaveSeat(),
    messages.SetReady(True, b"\x09" * 32),
    messages.SignRoster(b"\x03" * 32, b"\x04" * 64),
    messages.LobbyState(
        table_id=b"\x07" * 16,
        game="lie",
        options=(("rounds", 2),),
        seats=(messages.SeatView(ALICE, True, "10.0.0.1", 4000), None),
        phase="open",
    ),
    messages.SeatRefused(1, "seat 1 is taken"),
    messages.StartTable(ROSTER),
    messages.TableStarted(b"\x05" * 32, (b"\x06" * 64, b"\x08" * 64)),
    messages.TableClosed("bye"),
]


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: type(m).__name__)
def test_round_trip(message: messages.LobbyMessage) -> None:
    wire = messages.encode_lobby_message(message)
    assert wire["t"].startswith("lobby-")
    assert messages.decode_lobby_message(wire, "peer") == message
    assert messages.decode_lobby_message(wire | {"future_field": [1, 2]}, "peer") == message


def wire_of(index: int, **changes: Any) -> dict[str, Any]:
    return messages.encode_lobby_message(EXAMPLES[index]) | changes


@pytest.mark.parametrize(
    ("wire", "complaint"),
    [
        ({"t": "lobby-dance"}, "unknown lobby message kind"),
        ({"t": 7}, "unknown lobby message kind"),
        (wire_of(0, port=0), "'port' must be an integer"),
        (wire_of(0, port=True), "'port' must be an integer"),
        (wire_of(1, seat=8), "'seat' must be an integer"),
        (wire_of(3, ready="yes"), "true or false"),
        (wire_of(3, options_digest=b"short"), "32 bytes"),
        (wire_of(4, signature=b"\x00" * 63), "64 bytes"),
        (wire_of(5, phase="dancing"), "unknown phase"),
        (wire_of(5, seats=[None] * 9), "at most 8"),
        (wire_of(5, seats=[{"key": b"\x01" * 32, "name": "a", "ready": True}]), "lacks 'port'"),
        (
            wire_of(
                5, seats=[{"key": b"\x01" * 32, "name": "a", "ready": 1, "host": "x", "port": 1}]
            ),
            "true or false",
        ),
        (
            wire_of(
                5,
                seats=[
                    {"key": b"\x01" * 32, "name": "a", "ready": True, "host": "nope", "port": 1}
                ],
            ),
            "IPv4",
        ),
        (wire_of(5, options={"x": 1.5}), "flag, an integer or short text"),
        (wire_of(5, options={"x": 2**40}), "out of range"),
        (wire_of(5, options={f"o{i}": i for i in range(17)}), "at most 16"),
        (wire_of(5, table_id=b"\x00" * 15), "16 bytes"),
        (wire_of(6, reason="x" * 201), "at most 200"),
        (wire_of(7, roster="not a map"), "not a map"),
        (
            wire_of(
                7,
                roster=messages.encode_lobby_message(messages.StartTable(ROSTER))["roster"]
                | {"seats": [{"key": b"\x01" * 32, "name": "a"}] * 2},
            ),
            "distinct",
        ),
        (wire_of(8, signatures=[b"\x00" * 64, b"\x00"]), "every signature"),
        (wire_of(8, signatures="x"), "must be a list"),
    ],
)
def test_malformed_message_is_refused_naming_the_culprit(
    wire: dict[str, Any], complaint: str
) -> None:
    with pytest.raises(messages.LobbyMessageError, match=complaint) as error:
        messages.decode_lobby_message(wire, "seat 3")
    assert error.value.culprit == "seat 3"
