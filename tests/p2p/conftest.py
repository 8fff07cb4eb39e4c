"""Fixtures for the p2p tests that need a virtual LAN of network namespaces (root only)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

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
