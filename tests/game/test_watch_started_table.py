"""A started table stays listed, as playing, with what a watcher needs (protocol.md 2, 4.8): the
lobbies of the LAN and `fairdeal tables` show it, a watcher reaches it at the advertised address,
and it leaves the list when its host closes it. mDNS on loopback only."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from fairdeal.engine.larry import LarryOptions
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.lobby.discovery import LOOPBACK, TableBrowser, open_zeroconf
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.table.runtime.gather import _not_found, join_lobby, open_lobby
from fairdeal.p2p.table.runtime.peer import TablePeer
from fairdeal.p2p.table.tools.watch import WatchClient

pytestmark = [pytest.mark.slow, pytest.mark.timeout(60)]
WAIT_S = 15.0


def named(name: str, byte: int) -> Identity:
    return Identity.generate(name, lambda n: bytes([byte]) * n)


def test_a_started_table_is_listed_as_playing_and_watchable_there(tmp_path: Path) -> None:
    async def run() -> None:
        host, guest = named("Ben", 31), named("Ada", 32)
        address: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
        hosting = asyncio.ensure_future(
            open_lobby(
                host,
                2,
                LarryOptions(short_game=True),
                name="Watch me",
                bind="127.0.0.1",
                interfaces=list(LOOPBACK),
                on_address=address.set_result,
                timeout=WAIT_S,
            )
        )
        at = await address
        seated_guest = await join_lobby(guest, *at, bind="127.0.0.1", timeout=WAIT_S)
        seated = await hosting
        # Only the host's seat plays: its table waits for the guest's keys, deterministically
        # not over while we look, and serves watchers all the same.
        peer = TablePeer.for_seated(
            host,
            seated,
            transcript=tmp_path / "host.transcript",
            secrets=SecretStore(tmp_path / "secrets"),
        )
        await peer.start()
        aiozc = open_zeroconf(LOOPBACK)
        browser = TableBrowser(aiozc)
        watcher = WatchClient(named("Tess", 33))
        try:
            await browser.start()
            table_id = seated.signed.roster.table_id.hex()
            found = await browser.wait_for(lambda t: t.ad.table_id == table_id, WAIT_S)
            assert found.ad.playing and found.ad.status == "playing"
            assert (found.ad.seats_taken, found.ad.seats_total) == (2, 2)
            assert found.to_json()["status"] == "playing"  # `fairdeal tables --json`
            # `fairdeal bot --table NAME` does not sit there (it is full), and says why
            said = _not_found("Watch me", 1.0, [found])
            assert said.startswith(f"the table 'Watch me' has started (`fairdeal watch {at[0]}:")
            # What `w` and `fairdeal watch` do with the listed address: the seat serves us.
            replay = await watcher.connect(found.addresses[0], found.port, timeout=WAIT_S)
            assert replay.live and tuple(replay.names) == ("Ben", "Ada")
            await seated.close()  # the table over or closed: gone from the list
            await browser.wait_gone(found.instance, WAIT_S)
        finally:
            await watcher.close()
            await peer.close()
            await seated.close()
            await seated_guest.close()
            await browser.close()
            await aiozc.async_close()

    asyncio.run(run())
