"""The lobby shows a host's key as the same fingerprint code that is compared aloud at the table,
so that friends can compare it before they join."""

from __future__ import annotations

from textual.widgets import DataTable

from fairdeal.p2p.identity import Identity
from fairdeal.p2p.lobby.discovery import DiscoveredTable, TableAd
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.table_factory import TableSpec, open_table
from fairdeal.ui.table_finder import FixedFinder

from .support import PLAYER


async def test_the_lobby_lists_the_host_key_as_its_code() -> None:
    host = Identity.generate("Ben", lambda n: bytes([7]) * n)
    ad = TableAd(
        "ab" * 16,
        "Ben's table",
        "larry",
        1,
        3,
        host.fingerprint,
        host_code=host.code.replace(" ", ""),
    )
    found = DiscoveredTable("Ben._fairdeal._tcp.local.", ad, ("127.0.0.1",), 45000)
    app = FairdealApp(PLAYER, finder=FixedFinder([found]), reveal_interval=0)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        row = [str(cell) for cell in table.get_row_at(0)]
        assert host.code in row  # "01234 56789 …", as the table's seat notices print it
        assert host.fingerprint not in row


def test_a_local_table_shows_the_player_by_the_same_code() -> None:
    app_spec = FairdealApp(PLAYER, finder=FixedFinder()).table_defaults
    session = open_table(
        TableSpec(seats=2, bots=1, name=PLAYER.name, fingerprint=app_spec.fingerprint)
    )
    assert isinstance(session, LocalTable)
    assert session.seats[0].fingerprint == PLAYER.code
