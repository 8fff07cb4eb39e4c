"""Joining a table found on the network checks the host's key against the
advertised fingerprint (protocol.md 2), through the app's join path (ui.table_factory →
p2p.table.tools.session.join_discovered)."""

from __future__ import annotations

from pathlib import Path

from fairdeal.p2p.identity import Identity
from fairdeal.p2p.lobby.discovery import DiscoveredTable, TableAd
from fairdeal.p2p.table.core.api import Notice
from fairdeal.p2p.table.tools.session import NetworkedTable, use_settings
from fairdeal.ui.table_factory import join_discovered

from .loopback import loopback_settings, started_short_host

WAIT_S = 20.0


def found_at(host: NetworkedTable, fingerprint: str) -> DiscoveredTable:
    """The table as a browser would list it: the host's address, with `fingerprint` in `fp`."""
    assert host.address is not None
    address, port = host.address
    ad = TableAd("ab" * 16, "Tess's table", "larry", 1, 2, fingerprint)
    return DiscoveredTable("Tess's table (abababab)._fairdeal._tcp.local.", ad, (address,), port)


def notices(session: NetworkedTable) -> list[str]:
    return [e.text for e in session.history.events if isinstance(e, Notice)]


async def open_host(tmp_path: Path) -> NetworkedTable:
    return await started_short_host(tmp_path / "host", WAIT_S)


async def test_a_host_whose_key_is_not_the_advertised_one_is_refused(tmp_path: Path) -> None:
    host = await open_host(tmp_path)
    # The record names another key (a LAN impostor answering with the same table name).
    advertised = Identity.generate("Tess", lambda n: b"\x07" * n).fingerprint
    previous = use_settings(loopback_settings(tmp_path / "guest"))
    try:
        guest = join_discovered(found_at(host, advertised), "Guy")
        assert isinstance(guest, NetworkedTable)
        await guest.start()
        await guest.wait_for(lambda: any("Could not sit down" in t for t in notices(guest)), WAIT_S)
        assert any("does not match the advertised" in t for t in notices(guest)), notices(guest)
        assert guest.peer is None  # never seated
        assert host.peer is None  # the host's seat is still open
        await guest.close()
    finally:
        use_settings(previous)
        await host.close()


async def test_a_host_proving_the_advertised_key_is_joined(tmp_path: Path) -> None:
    host = await open_host(tmp_path)
    previous = use_settings(loopback_settings(tmp_path / "guest"))
    try:
        guest = join_discovered(found_at(host, host.identity.fingerprint), "Guy")
        assert isinstance(guest, NetworkedTable)
        await guest.start()
        await guest.wait_for(lambda: guest.peer is not None, WAIT_S)
        assert guest.seat == 1
        assert guest.seated is not None and guest.seated.addresses[0] == host.address
        await guest.close()
    finally:
        use_settings(previous)
        await host.close()
