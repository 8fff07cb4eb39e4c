"""A give-away's forward travels the way envelopes do (protocol.md 10.8): sealed to its receiver
and passed on by any seat, so a cut link between giver and receiver stalls nobody, while the seat
that carries it learns nothing of the card. It used to go over the giver's own channel only: with
that link silently cut, the table waited for the gift until the link healed."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from nacl.exceptions import CryptoError

from fairdeal.engine.larry import LarryOptions
from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.table.core.forwards import sign_forward
from fairdeal.p2p.table.core.sealed import ForwardRelay, parse_sealed, seal_forward
from fairdeal.p2p.table.tools.audit import audit_many

from .cheaters import GiverBot, bogus_forward
from .support import LocalTable, identity, open_table, play_to_end
from .test_gift_forwards import gifts_seen

pytestmark = pytest.mark.timeout(180)
GIVER, CARRIER, RECEIVER = 0, 1, 2


def cut_link(table: LocalTable, a: int, b: int) -> None:
    """Everything seat a sends seat b, and b sends a, is dropped; the channels stay up (a
    partition nobody has noticed yet)."""
    for me, other in ((a, b), (b, a)):
        mesh, key = table.meshes[me], table.roster.keys[other]
        queue = mesh._queue

        def dropping(channel: Any, payload: bytes, queue: Any = queue, key: bytes = key) -> None:
            if channel.peer.key != key:
                queue(channel, payload)

        mesh._queue = dropping  # type: ignore[method-assign]


def carried(mesh: Mesh, to: bytes) -> list[Mapping[str, Any]]:
    """The `fwd` messages `mesh` sends to `to`."""
    sent: list[Mapping[str, Any]] = []
    send = mesh.send

    def spy(peer: bytes, message: Mapping[str, Any]) -> bool:
        if peer == to and message["t"] == "fwd":
            sent.append(message)
        return send(peer, message)

    mesh.send = spy  # type: ignore[method-assign]
    return sent


async def test_a_gift_across_a_cut_link_is_carried_sealed_by_another_seat(tmp_path: Path) -> None:
    wrap = {GIVER: lambda bot: GiverBot(bot, RECEIVER)}
    options = LarryOptions(short_game=True)
    table = await open_table(3, tmp_path, options, wrap=wrap, seed=3)
    try:
        cut_link(table, GIVER, RECEIVER)
        via_carrier = carried(table.meshes[CARRIER], table.roster.keys[RECEIVER])
        await play_to_end(table, timeout=90)
        for peer in table.peers:
            assert peer.table.fault is None, peer.table.fault
            assert peer.table.state.over
    finally:
        await table.close()
    gifts = [g for g in gifts_seen(table.peers[RECEIVER]) if g.seat == GIVER]
    assert gifts, "no gift from the giver to the receiver with this seed"
    assert {m["from"] for m in via_carrier} == {GIVER}  # the carrier passed the giver's on
    for message in via_carrier:  # and could not read one
        with pytest.raises(CryptoError):
            identity(CARRIER).unseal(message["box"])
    reports, disagreement = audit_many([table.transcript(s) for s in range(3)])
    assert disagreement is None and all(r.verified and r.over for r in reports)


ROSTER = Roster(b"t" * 16, tuple(identity(s).key for s in range(3)))


def sealed_wire(signer: int, claimed: int, transfer: int = 5) -> dict[str, Any]:
    forward = sign_forward(
        identity(claimed).sign, ROSTER.table, transfer, 7, bogus_forward(claimed, 2), game="larry"
    )
    sealed = seal_forward(identity(signer), claimed, ROSTER, "larry", forward)
    return sealed.to_wire(ROSTER.table)


def test_only_the_receiver_opens_a_sealed_forward_and_it_is_the_givers() -> None:
    sealed = parse_sealed(sealed_wire(0, 0), ROSTER, "larry", "seat 1")
    assert sealed.open(identity(2))["m"] == bogus_forward(0, 2)
    with pytest.raises(PeerError, match="does not open"):
        sealed.open(identity(1))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({}, "not signed by seat 0"),  # sealed and signed by seat 1 in seat 0's name
        ({"box": b"x" * 80}, "not signed by seat 0"),
        ({"transfer": 6}, "not signed by seat 0"),
        ({"to": 1}, "not signed by seat 0"),
        ({"box": b""}, 'field "box"'),
        ({"from": 3}, 'field "from"'),
        ({"sig": b"s"}, 'field "sig"'),
    ],
)
def test_a_forged_or_tampered_sealed_forward_is_refused_naming_who_delivered_it(
    change: dict[str, Any], words: str
) -> None:
    """A relay checks the giver's signature before passing anything on: nobody makes the
    honest seats carry a forward in another seat's name, and the deliverer is named."""
    wire = sealed_wire(1, 0) if not change else {**sealed_wire(0, 0), **change}
    with pytest.raises(PeerError, match=words) as refused:
        parse_sealed(wire, ROSTER, "larry", "seat 1 (peer1)")
    assert refused.value.culprit == "seat 1 (peer1)"


def test_a_relay_passes_on_one_forward_per_gift_and_keeps_the_newest_for_its_receiver() -> None:
    relay = ForwardRelay(1)
    first = parse_sealed(sealed_wire(0, 0, transfer=5), ROSTER, "larry", "seat 0")
    again = parse_sealed(sealed_wire(0, 0, transfer=5), ROSTER, "larry", "seat 0")  # resealed
    older = parse_sealed(sealed_wire(0, 0, transfer=4), ROSTER, "larry", "seat 0")
    later = parse_sealed(sealed_wire(0, 0, transfer=9), ROSTER, "larry", "seat 0")
    assert relay.take(first)
    assert not relay.take(first) and not relay.take(again) and not relay.take(older)
    assert relay.take(later)
    assert relay.kept_for(2) == [later] and relay.kept_for(0) == []
    mine = parse_sealed(sealed_wire(0, 0), Roster(ROSTER.table, ROSTER.keys), "larry", "seat 0")
    assert not ForwardRelay(2).take(mine)  # its receiver opens it, never passes it on
