"""The lobby over real sockets on loopback: a hosted table is found by mDNS, joined over the
secure transport, its TXT record follows the seats, every seat signs the roster, the seats form a
full mesh and agree on one signed log."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
from zeroconf.asyncio import AsyncZeroconf

from fairdeal.p2p.errors import HandshakeError
from fairdeal.p2p.lobby.discovery import LOOPBACK, DiscoveredTable, TableBrowser
from fairdeal.p2p.lobby.messages import SetReady, encode_lobby_message
from fairdeal.p2p.lobby.roster import options_digest
from fairdeal.p2p.lobby.session import (
    HostedTable,
    JoinedTable,
    LobbyClosed,
    form_mesh,
    log_roster,
    seat_addresses,
    start_table_log,
)
from fairdeal.p2p.log.tablelog import seat_order
from tests.p2p.core_support import FAST, make_identity

pytestmark = pytest.mark.timeout(30)
WAIT_S = 10.0


@contextlib.asynccontextmanager
async def guest_table(number: int) -> AsyncIterator[JoinedTable]:
    """A guest on loopback with the `number`th test identity, closed after the block."""
    guest = JoinedTable(make_identity(number), "127.0.0.1", config=FAST)
    try:
        yield guest
    finally:
        await guest.close()


@pytest.fixture
async def browser(loopback_zc: AsyncZeroconf) -> AsyncIterator[TableBrowser]:
    table_browser = TableBrowser(loopback_zc)
    await table_browser.start()
    yield table_browser
    await table_browser.close()


@pytest.fixture
async def hosted(loopback_zc: AsyncZeroconf) -> AsyncIterator[HostedTable]:
    table = HostedTable(
        make_identity(0, "host"),
        loopback_zc,
        name="Loop table",
        game="larry",
        options={"hands": 1},
        seat_count=3,
        addresses=LOOPBACK,
        listen_host="127.0.0.1",
        config=FAST,
    )
    await table.open()
    yield table
    await table.close()


async def find(browser: TableBrowser, hosted: HostedTable, seats_taken: int) -> DiscoveredTable:
    table_id = hosted.ad.table_id
    return await browser.wait_for(
        lambda t: t.ad.table_id == table_id and t.ad.seats_taken == seats_taken, WAIT_S
    )


async def test_found_joined_signed_meshed_and_one_log(
    hosted: HostedTable, browser: TableBrowser
) -> None:
    found = await find(browser, hosted, seats_taken=1)
    guests = [JoinedTable(make_identity(i), "127.0.0.1", config=FAST) for i in (1, 2)]
    watcher = JoinedTable(make_identity(3), "127.0.0.1", config=FAST)
    try:
        for guest in guests:
            await guest.join(found, WAIT_S)
        await watcher.join(found, WAIT_S)
        assert [await guest.take_seat(timeout=WAIT_S) for guest in guests] == [1, 2]
        # The TXT record follows the seats.
        assert (await find(browser, hosted, seats_taken=3)).ad.seats_total == 3
        for guest in guests:
            await guest.set_ready(timeout=WAIT_S)
        await hosted.wait_until(lambda: hosted.lobby is not None and hosted.lobby.can_start, WAIT_S)

        signed = await hosted.start(WAIT_S)
        assert [await guest.wait_started(WAIT_S) for guest in guests] == [signed, signed]
        assert [seat.name for seat in signed.roster.seats] == ["host", "peer1", "peer2"]
        # Someone who only watched the lobby is told, and the host lets it go.
        with pytest.raises(LobbyClosed, match="without us"):
            await watcher.wait_started(WAIT_S)
        await hosted.mesh.wait_until(lambda: watcher.identity.key not in hosted.mesh.peers, WAIT_S)
        # A started table takes nobody new, but stays listed as playing, so that watchers
        # find it (protocol.md 2, 4.8), until its host closes it.
        playing = await browser.wait_for(
            lambda t: t.instance == found.instance and t.ad.playing, WAIT_S
        )
        assert playing.ad.status == "playing" and playing.ad.seats_taken == 3
        assert (playing.addresses, playing.port) == (found.addresses, found.port)

        assert hosted.lobby is not None
        meshes = [hosted.mesh, *(guest.mesh for guest in guests)]
        addresses = seat_addresses(hosted.lobby)
        await asyncio.gather(*(form_mesh(mesh, signed, addresses, WAIT_S) for mesh in meshes))

        syncs = [start_table_log(mesh, signed, seat_order([0, 1, 2])) for mesh in meshes]
        assert [sync.seat for sync in syncs] == [0, 1, 2]
        assert log_roster(signed).keys == tuple(mesh.identity.key for mesh in meshes)
        for seat, sync in reversed(list(enumerate(syncs))):  # arrival out of turn is buffered
            sync.publish("hello", {"seat": seat})
        await asyncio.gather(*(sync.wait_for_length(3, WAIT_S) for sync in syncs))
        heads = {sync.log.head for sync in syncs}
        assert len(heads) == 1
        assert [entry.seat for entry in syncs[2].log.entries] == [0, 1, 2]
        await hosted.close()
        await browser.wait_gone(found.instance, WAIT_S)
    finally:
        for guest in [*guests, watcher]:
            await guest.close()


# A LAN impostor's record: the host's key is pinned by the fingerprint, and by the code the lobby
# shows, each refused with what the record advertised.
SPOOFED_ADS = {
    "fingerprint": ({"host_fingerprint": "0123456789abcdef"}, "advertised 0123456789abcdef"),
    "code": ({"host_code": "0" * 25}, "advertised code 00000 00000"),
}


@pytest.mark.parametrize("pinned", SPOOFED_ADS)
async def test_guest_refuses_a_host_whose_key_is_not_the_advertised_one(
    hosted: HostedTable, browser: TableBrowser, pinned: str
) -> None:
    changes, complaint = SPOOFED_ADS[pinned]
    found = await find(browser, hosted, seats_taken=1)
    assert found.ad.host_key_text == hosted.identity.code  # what the lobby shows
    spoofed = replace(found, ad=replace(found.ad, **changes))
    async with guest_table(1) as guest:
        with pytest.raises(HandshakeError, match=complaint):
            await guest.join(spoofed, WAIT_S)


async def test_a_guest_leaving_frees_its_seat_and_the_txt_record_says_so(
    hosted: HostedTable, browser: TableBrowser
) -> None:
    found = await find(browser, hosted, seats_taken=1)
    stays, leaves = (JoinedTable(make_identity(i), "127.0.0.1", config=FAST) for i in (1, 2))
    try:
        await stays.join(found, WAIT_S)
        await leaves.join(found, WAIT_S)
        await stays.take_seat(2, WAIT_S)
        with pytest.raises(LobbyClosed, match="seat 2 is taken"):
            await leaves.take_seat(2, WAIT_S)
        assert await leaves.take_seat(timeout=WAIT_S) == 1
        await find(browser, hosted, seats_taken=3)
        await leaves.close()  # gone without a word: the host frees the seat
        await find(browser, hosted, seats_taken=2)
        assert stays.lobby is not None
        await stays.wait_until(
            lambda: (
                stays.lobby is not None
                and stays.lobby.view is not None
                and stays.lobby.view.seats[1] is None
            ),
            WAIT_S,
        )
    finally:
        await stays.close()
        await leaves.close()


async def test_guests_learn_when_the_host_closes_the_table(
    hosted: HostedTable, browser: TableBrowser
) -> None:
    found = await find(browser, hosted, seats_taken=1)
    async with guest_table(1) as guest:
        await guest.join(found, WAIT_S)
        await guest.take_seat(timeout=WAIT_S)
        await hosted.close()
        with pytest.raises(LobbyClosed):
            await guest.wait_started(WAIT_S)
        await browser.wait_gone(found.instance, WAIT_S)


async def test_a_start_that_a_seat_will_not_sign_is_called_off(
    hosted: HostedTable, browser: TableBrowser
) -> None:
    found = await find(browser, hosted, seats_taken=1)
    guests = [JoinedTable(make_identity(i), "127.0.0.1", config=FAST) for i in (1, 2)]
    try:
        for guest in guests:
            await guest.join(found, WAIT_S)
            await guest.take_seat(timeout=WAIT_S)
        await guests[0].set_ready(timeout=WAIT_S)
        # Seat 2's software says "ready" without its user having agreed to anything: it will
        # refuse to sign the roster, and the host must not hang on it.
        assert hosted.lobby is not None and guests[1].lobby is not None
        view = guests[1].lobby.view
        assert view is not None
        digest = options_digest(view.options)
        guests[1].mesh.send(hosted.identity.key, encode_lobby_message(SetReady(True, digest)))
        await hosted.wait_until(lambda: hosted.lobby is not None and hosted.lobby.can_start, WAIT_S)
        with pytest.raises(LobbyClosed, match="seat 2 did not sign"):
            await hosted.start(timeout=2.0)
        assert hosted.lobby.phase == "open"
        assert any("options we did not agree to" in str(error) for error in guests[1].mesh.errors)
        await guests[0].wait_until(
            lambda: guests[0].lobby is not None and guests[0].lobby.phase == "open", WAIT_S
        )
    finally:
        for guest in guests:
            await guest.close()


async def test_guest_tries_each_advertised_address(
    hosted: HostedTable, browser: TableBrowser
) -> None:
    found = await find(browser, hosted, seats_taken=1)
    # 127.0.0.2 is loopback too, but nothing listens there on the table's port.
    with_dead_first = replace(found, addresses=("127.0.0.2", *found.addresses))
    async with guest_table(1) as guest:
        await guest.join(with_dead_first, WAIT_S)
        assert await guest.take_seat(timeout=WAIT_S) == 1
    nowhere = replace(found, addresses=("127.0.0.2",))
    async with guest_table(2) as lost:
        with pytest.raises(LobbyClosed, match=r"nothing is listening at 127\.0\.0\.2:"):
            await lost.join(nowhere, WAIT_S)


async def test_a_watcher_before_the_start_is_told_the_table_has_not_started(
    hosted: HostedTable,
) -> None:
    """Nothing is played yet: the host refuses with the reason rather than leaving the watcher
    to time out, or closing it at the start (protocol.md 4.8)."""
    from fairdeal.p2p.table.tools.watch import WatchClient, WatchRefused

    watcher = WatchClient(make_identity(5, "early"))
    assert hosted.address is not None
    try:
        with pytest.raises(WatchRefused, match="has not started yet"):
            await watcher.connect(*hosted.address, timeout=WAIT_S)
    finally:
        await watcher.close()
