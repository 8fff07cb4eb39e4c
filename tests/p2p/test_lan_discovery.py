"""Discovery between hosts: three network namespaces on one bridge find a table by mDNS."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.p2p.netns import VirtualLan, namespaces_with_prefix

pytestmark = [pytest.mark.netns, pytest.mark.timeout(60)]
PEER = Path(__file__).with_name("lan_peer.py")
WAIT_S = 15.0


def test_lan_hosts_find_a_table_by_mdns(virtual_lan: Callable[[int], VirtualLan]) -> None:
    table_id = secrets.token_hex(16)
    lan = virtual_lan(3)
    host, *guests = lan.hosts
    advertiser = lan.spawn(
        host,
        [sys.executable, str(PEER), "advertise", "--table-id", table_id, "--port", "47001"],
        name="host",
    )
    browsers = [
        lan.spawn(
            guest,
            [sys.executable, str(PEER), "browse", "--table-id", table_id],
            name=f"guest{index}",
        )
        for index, guest in enumerate(guests, start=1)
    ]
    advertised = advertiser.expect_json("advertised", WAIT_S)
    assert advertised["addresses"] == [host.address]
    for browser in browsers:
        found = browser.expect_json("found", WAIT_S)["table"]
        assert isinstance(found, dict)
        assert found["addresses"] == [host.address]
        assert found["port"] == 47001
        assert found["seats_taken"] == 1
        assert found["seats_total"] == 3


def test_virtual_lan_is_removed_even_when_the_test_fails() -> None:
    with pytest.raises(RuntimeError), VirtualLan(2) as lan:
        prefix = lan.prefix
        sleeper = lan.spawn(lan.hosts[0], ["sleep", "600"], name="sleeper")
        assert len(namespaces_with_prefix(prefix)) == 3
        raise RuntimeError("the test body failed")
    assert namespaces_with_prefix(prefix) == []
    assert sleeper.popen.poll() is not None
