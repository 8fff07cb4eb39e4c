"""The lobby follows real mDNS on loopback: a table appears, its seats update, it goes away."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from fairdeal.p2p.lobby.discovery import (
    LOOPBACK,
    DiscoveredTable,
    TableAd,
    TableAdvertiser,
    open_zeroconf,
)
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.screens.lobby import LobbyScreen
from fairdeal.ui.table_finder import ZeroconfFinder

from .support import PLAYER

pytestmark = [pytest.mark.slow, pytest.mark.timeout(60)]
WAIT_S = 15.0


async def until(pilot: Pilot[None], condition: Callable[[], bool]) -> None:
    """Let the app run until `condition` holds (bounded), re-checking after each pause."""
    async with asyncio.timeout(WAIT_S):
        while not condition():
            await pilot.pause(0.05)


async def test_tables_appear_update_and_vanish_live() -> None:
    ad = TableAd(secrets.token_hex(16), "Loopback night", "larry", 1, 4, "0123456789abcdef")
    host = open_zeroconf(LOOPBACK)
    advertiser = TableAdvertiser(host, ad, 45999, LOOPBACK)
    app = FairdealApp(PLAYER, finder=ZeroconfFinder(LOOPBACK), reveal_interval=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = pilot.app.screen
            assert isinstance(lobby, LobbyScreen)
            await advertiser.start()

            def ours() -> list[DiscoveredTable]:
                """Only this test's table: other tables may share loopback (other tests, runs)."""
                return [t for t in lobby.tables.values() if t.ad.table_id == ad.table_id]

            await until(pilot, lambda: len(ours()) == 1)
            (found,) = ours()
            assert found.ad.name == "Loopback night" and found.port == 45999
            await advertiser.update(ad.with_seats_taken(3))
            await until(pilot, lambda: ours()[0].ad.seats_taken == 3)
            await advertiser.close()
            await until(pilot, lambda: not ours())
    finally:
        await advertiser.close()
        await host.async_close()
