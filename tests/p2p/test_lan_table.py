"""The acceptance test of the network layer across hosts: three network namespaces on a bridge,
one peer process each; the guests find the host's table by mDNS, join it over the secure
transport, every seat signs the roster, and all three agree on one signed table log."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from fairdeal.p2p.lobby.messages import parse_signed_roster_record
from fairdeal.p2p.log.transcript import load_transcript
from tests.p2p.netns import VirtualLan

pytestmark = [pytest.mark.netns, pytest.mark.timeout(60)]
PEER = Path(__file__).with_name("lan_peer.py")
WAIT_S = 15.0


def test_lan_peers_find_the_table_sign_the_roster_and_agree_on_one_log(
    virtual_lan: Callable[[int], VirtualLan], tmp_path: Path
) -> None:
    name = f"LAN {secrets.token_hex(3)}"
    lan = virtual_lan(3)
    peer = [sys.executable, str(PEER)]
    keep = ["--transcripts", str(tmp_path)]
    host, *guests = lan.hosts
    peers = [lan.spawn(host, [*peer, "host", "--name", name, *keep], name="seat0")] + [
        lan.spawn(guest, [*peer, "guest", "--name", name, *keep], name=f"g{i}")
        for i, guest in enumerate(guests, start=1)
    ]
    hosting = peers[0].expect_json("hosting", WAIT_S)
    for guest_peer in peers[1:]:
        found = guest_peer.expect_json("found", WAIT_S)["table"]
        assert isinstance(found, dict)
        assert found["addresses"] == [host.address]
        assert found["table_id"] == hosting["table_id"]
        assert found["host_fingerprint"] == hosting["fingerprint"]
    seats = sorted(int(str(p.expect_json("seated", WAIT_S)["seat"])) for p in peers[1:])
    assert seats == [1, 2]
    digests = {p.expect_json("started", WAIT_S)["digest"] for p in peers}
    assert len(digests) == 1
    logs = [p.expect_json("log", WAIT_S) for p in peers]
    assert len({str(log["head"]) for log in logs}) == 1
    expected = [
        [0, "roster"],
        [1, "hello"],
        [2, "hello"],
        [0, "hello"],
        [1, "hello"],
        [2, "hello"],
    ]
    assert all(log["entries"] == expected and log["faults"] == 0 for log in logs)

    # Every transcript opens with the roster all seats signed and holds the same log.
    for seat in range(3):
        contents = load_transcript(tmp_path / f"seat{seat}")
        signed = parse_signed_roster_record(contents.extra["signed_roster"], f"seat{seat}")
        assert signed.roster.digest.hex() in digests
        assert [envelope.seat for envelope in contents.applied] == [0, 1, 2, 0, 1, 2]
