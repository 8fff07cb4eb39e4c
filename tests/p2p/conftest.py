"""Fixtures for the p2p tests: a virtual LAN of network namespaces (root only), and mDNS on
loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator

import pytest
from zeroconf.asyncio import AsyncZeroconf

from fairdeal.p2p.lobby.discovery import LOOPBACK, open_zeroconf
from tests.p2p.netns import VirtualLan


@pytest.fixture
def virtual_lan() -> Iterator[Callable[[int], VirtualLan]]:
    """Build a LAN of N namespaces on a bridge; everything is removed at teardown, pass or fail."""
    made: list[VirtualLan] = []

    def build(host_count: int) -> VirtualLan:
        lan = VirtualLan(host_count)
        made.append(lan.__enter__())
        return lan

    yield build
    for lan in reversed(made):
        lan.close()


@pytest.fixture
async def loopback_zc() -> AsyncIterator[AsyncZeroconf]:
    """mDNS on loopback only, closed after the test."""
    aiozc = open_zeroconf(LOOPBACK)
    yield aiozc
    await aiozc.async_close()
