"""Advertising and browsing tables over mDNS on loopback: added, updated as seats fill, removed."""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from fairdeal.p2p.lobby.discovery import (
    LOOPBACK,
    SERVICE_TYPE,
    DiscoveredTable,
    TableAd,
    TableAdded,
    TableAdvertiser,
    TableBrowser,
    TableEvent,
    TableRemoved,
    TableUpdated,
    open_zeroconf,
)

pytestmark = pytest.mark.timeout(30)
WAIT_S = 10.0
CLI_WINDOW_S = "2.5"  # the command's listening window; generous for a loaded CI machine
REPO_ROOT = Path(__file__).resolve().parents[2]


def fresh_ad(name: str = "Loopback table", seats_taken: int = 1) -> TableAd:
    return TableAd(
        table_id=secrets.token_hex(16),
        name=name,
        game="larry",
        seats_taken=seats_taken,
        seats_total=4,
        host_fingerprint=secrets.token_hex(8),
    )


@pytest.fixture
async def browser() -> AsyncIterator[tuple[TableBrowser, list[TableEvent]]]:
    aiozc = open_zeroconf(LOOPBACK)
    events: list[TableEvent] = []
    table_browser = TableBrowser(aiozc, events.append)
    await table_browser.start()
    yield table_browser, events
    await table_browser.close()
    await aiozc.async_close()


def instance_of(event: TableEvent) -> str:
    return event.instance if isinstance(event, TableRemoved) else event.table.instance


def by_id(table_id: str) -> Callable[[DiscoveredTable], bool]:
    return lambda table: table.ad.table_id == table_id


async def test_table_is_found_updated_and_removed(
    loopback_zc: AsyncZeroconf, browser: tuple[TableBrowser, list[TableEvent]]
) -> None:
    table_browser, events = browser
    ad = fresh_ad()
    advertiser = TableAdvertiser(loopback_zc, ad, port=40123, addresses=LOOPBACK)
    await advertiser.start()

    found = await table_browser.wait_for(by_id(ad.table_id), WAIT_S)
    assert found == DiscoveredTable(
        instance=advertiser.instance, ad=ad, addresses=LOOPBACK, port=40123
    )

    await advertiser.update(ad.with_seats_taken(3))
    updated = await table_browser.wait_for(
        lambda table: by_id(ad.table_id)(table) and table.ad.seats_taken == 3, WAIT_S
    )
    assert updated.ad == ad.with_seats_taken(3)

    await advertiser.close()
    await table_browser.wait_gone(advertiser.instance, WAIT_S)
    assert advertiser.instance not in table_browser.tables
    # Other test runs on this machine may advertise on loopback too: look at ours only.
    ours = [event for event in events if instance_of(event) == advertiser.instance]
    assert ours == [TableAdded(found), TableUpdated(updated), TableRemoved(advertiser.instance)]


async def test_two_tables_are_listed_apart(
    loopback_zc: AsyncZeroconf, browser: tuple[TableBrowser, list[TableEvent]]
) -> None:
    table_browser, _ = browser
    first, second = fresh_ad("Same name"), fresh_ad("Same name")
    advertisers = [
        TableAdvertiser(loopback_zc, ad, port=port, addresses=LOOPBACK)
        for ad, port in ((first, 40001), (second, 40002))
    ]
    await asyncio.gather(*(advertiser.start() for advertiser in advertisers))
    seen = await asyncio.gather(
        table_browser.wait_for(by_id(first.table_id), WAIT_S),
        table_browser.wait_for(by_id(second.table_id), WAIT_S),
    )
    assert [table.port for table in seen] == [40001, 40002]
    assert seen[0].instance != seen[1].instance
    await asyncio.gather(*(advertiser.close() for advertiser in advertisers))


async def test_malformed_advertisement_is_ignored(
    loopback_zc: AsyncZeroconf, browser: tuple[TableBrowser, list[TableEvent]]
) -> None:
    table_browser, events = browser
    bad = AsyncServiceInfo(
        SERVICE_TYPE,
        f"bad-{secrets.token_hex(4)}.{SERVICE_TYPE}",
        addresses=[bytes([127, 0, 0, 1])],
        port=40999,
        properties={"proto": "1", "game": "larry", "seats": "9/4"},
        server="fairdeal-bad.local.",
    )
    await (await loopback_zc.async_register_service(bad))
    good_ad = fresh_ad()
    good = TableAdvertiser(loopback_zc, good_ad, port=40998, addresses=LOOPBACK)
    await good.start()
    # The bad one was published first, so by the time the good one resolves it had its chance.
    await table_browser.wait_for(by_id(good_ad.table_id), WAIT_S)
    assert bad.name not in table_browser.tables
    assert all(
        isinstance(event, TableRemoved) or event.table.instance != bad.name for event in events
    )
    await good.close()
    await (await loopback_zc.async_unregister_service(bad))


async def test_tables_command_lists_table_as_json(loopback_zc: AsyncZeroconf) -> None:
    ad = fresh_ad("CLI table", seats_taken=2)
    advertiser = TableAdvertiser(loopback_zc, ad, port=40555, addresses=LOOPBACK)
    await advertiser.start()
    command = [sys.executable, "-m", "fairdeal", "tables", "--json", "--timeout", CLI_WINDOW_S]
    process = await asyncio.create_subprocess_exec(
        *command, "--interface", "127.0.0.1", cwd=REPO_ROOT, stdout=asyncio.subprocess.PIPE
    )
    stdout, _ = await asyncio.wait_for(process.communicate(), WAIT_S)
    await advertiser.close()
    assert process.returncode == 0
    listed = [entry for entry in json.loads(stdout) if entry["table_id"] == ad.table_id]
    assert listed == [
        {
            "instance": advertiser.instance,
            "table_id": ad.table_id,
            "name": "CLI table",
            "game": "larry",
            "seats_taken": 2,
            "seats_total": 4,
            "host_fingerprint": ad.host_fingerprint,
            "host_code": "",  # this ad carries no code
            "protocol_version": 5,
            "status": "open",
            "addresses": ["127.0.0.1"],
            "port": 40555,
        }
    ]


async def test_tables_command_text_output(loopback_zc: AsyncZeroconf) -> None:
    ad = fresh_ad("Text table", seats_taken=3)
    advertiser = TableAdvertiser(loopback_zc, ad, port=40556, addresses=LOOPBACK)
    await advertiser.start()
    process = await asyncio.create_subprocess_exec(
        *[sys.executable, "-m", "fairdeal", "tables", "--timeout", CLI_WINDOW_S],
        *["--interface", "127.0.0.1"],
        cwd=REPO_ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
    stdout, _ = await asyncio.wait_for(process.communicate(), WAIT_S)
    await advertiser.close()
    lines = stdout.decode().splitlines()
    assert lines[0].split() == ["TABLE", "GAME", "SEATS", "STATUS", "HOST", "KEY", "ADDRESS"]
    row = next(line for line in lines if ad.host_fingerprint in line)
    address = "127.0.0.1:40556"
    assert row.split() == ["Text", "table", "larry", "3/4", "open", ad.host_fingerprint, address]
