"""A standard mDNS browser sees our table: avahi-browse, in another namespace, resolves it."""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.p2p.netns import VirtualLan, start_avahi

pytestmark = [pytest.mark.netns, pytest.mark.avahi, pytest.mark.timeout(60)]
PEER = Path(__file__).with_name("lan_peer.py")
WAIT_S = 15.0


def avahi_unescape(text: str) -> str:
    """avahi-browse -p writes unsafe characters as a backslash and three decimal digits."""
    return re.sub(r"\\(\d{3})", lambda match: chr(int(match.group(1))), text)


def resolved_records(lan: VirtualLan, env: dict[str, str]) -> list[list[str]]:
    """avahi-browse's resolved ('=') lines for our service type, split into fields."""
    browse = subprocess.run(
        lan.hosts[1].argv(["avahi-browse", "-r", "-p", "-t", "_fairdeal._tcp"]),
        capture_output=True,
        text=True,
        timeout=WAIT_S,
        env=env,
    )
    return [line.split(";") for line in browse.stdout.splitlines() if line.startswith("=;")]


def test_avahi_browse_resolves_table_with_txt_fields(
    tmp_path: Path, virtual_lan: Callable[[int], VirtualLan]
) -> None:
    table_id = secrets.token_hex(16)
    lan = virtual_lan(2)
    host = lan.hosts[0]
    env = start_avahi(lan, lan.hosts[1], tmp_path)
    command = [sys.executable, str(PEER), "advertise", "--table-id", table_id]
    advertiser = lan.spawn(
        host,
        [*command, "--name", "Avahi table", "--port", "47002", "--fingerprint", "ab12cd34ab12cd34"],
        name="host",
    )
    advertiser.expect_json("advertised", WAIT_S)

    deadline = time.monotonic() + WAIT_S
    ours: list[list[str]] = []
    while not ours and time.monotonic() < deadline:
        ours = [r for r in resolved_records(lan, env) if f'"tid={table_id}"' in r[9]]
    assert ours, "avahi-browse never resolved the table"
    interface, protocol, instance, service_type, domain = ours[0][1:6]
    assert (interface, protocol) == ("eth0", "IPv4")
    assert (service_type, domain) == ("_fairdeal._tcp", "local")
    assert avahi_unescape(instance) == f"Avahi table ({table_id[:8]})"
    address, port, txt = ours[0][7:10]
    assert (address, port) == (host.address, "47002")
    for field in ("proto=5", "game=larry", "table=Avahi table", "seats=1/3", "fp=ab12cd34ab12cd34"):
        assert f'"{field}"' in txt
