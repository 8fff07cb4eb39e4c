"""The lobby lists a started table as playing (protocol.md 2): `w` watches it, `j` says its seats
are taken; `w` on a table that has not started says so at once instead of dialling a host that
has nothing to show."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from fairdeal.p2p.lobby.discovery import DiscoveredTable, TableAd
from fairdeal.ui.screens.lobby import LobbyScreen
from fairdeal.ui.table_finder import FixedFinder

from .support import make_app, screen_of, static_text

FP = "0123456789abcdef"


def listed(name: str, byte: str, *, playing: bool) -> DiscoveredTable:
    seats = 3 if playing else 1
    ad = TableAd(byte * 32, name, "larry", seats, 3, FP, playing=playing)
    return DiscoveredTable(f"{name}._fairdeal._tcp.local.", ad, ("127.0.0.1",), 9)


async def test_a_started_table_is_listed_as_playing_and_open_to_watchers_only() -> None:
    finder = FixedFinder([listed("Ben", "a", playing=True), listed("Cy", "b", playing=False)])
    app = make_app(finder=finder)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        lobby = screen_of(app, LobbyScreen)
        rows = lobby.query_one(DataTable)
        assert [rows.get_row_at(r)[2] for r in range(rows.row_count)] == ["3/3 playing", "1/3"]
        hint = static_text(lobby.query_one("#lobby-hint", Static), 120)
        assert "plays: w watch" in hint
        await pilot.press("j")  # nobody new sits at a started table: say so, dial nobody
        await pilot.pause()
        assert any("has started" in str(n.message) for n in app._notifications)
        assert app.screen is lobby
        await pilot.press("down", "w")  # the open table: nothing to watch yet
        await pilot.pause()
        messages = [str(n.message) for n in app._notifications]
        assert any("Cy has not started yet: j joins it" in m for m in messages), messages
        assert not any("Cannot watch" in str(n.title) for n in app._notifications)
