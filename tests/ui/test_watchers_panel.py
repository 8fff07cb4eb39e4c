"""The players see who watches through their seat in the seats panel (name and key code,
protocol.md 4.8), both games, at 80×24 too; a watcher that leaves is gone from the panel."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from fairdeal.p2p.table.core.api import WatchersChanged
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.games.larry.widgets.seat_list import SeatList
from fairdeal.ui.games.lie.widgets.players import LiePlayersView
from fairdeal.ui.widgets.game_log import GameLog

from .support import PLAYER, make_app, settle, static_text, table_screen
from .test_lie_app_pilot import lie_screen, lie_table
from .test_lie_app_pilot import settle as lie_settle

ANN = ("Ann", "K3F-9QX")
BO = ("Bo", "7TR-2MC")


def watchers(*who: tuple[str, str]) -> WatchersChanged:
    return WatchersChanged("Watching the table: …", tuple(who))


def larry_table() -> LocalTable:
    return LocalTable(4, seed=1, human_name=PLAYER.name)


async def test_larrys_seats_panel_lists_the_watchers_and_drops_one_that_left() -> None:
    table = larry_table()
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        table._emit(watchers(ANN, BO))
        await settle(pilot, table)
        screen = table_screen(pilot.app)  # type: ignore[arg-type]
        shown = static_text(screen.query_one(SeatList), width=80)
        assert "Watching: Ann (K3F-9QX), Bo (7TR-2MC)" in shown
        seats_panel = screen.query_one(SeatList)
        assert seats_panel.region.bottom <= screen.query_one("#pile").region.y  # not cut off
        table._emit(watchers(BO))
        await settle(pilot, table)
        shown = static_text(screen.query_one(SeatList), width=80)
        assert "Bo (7TR-2MC)" in shown and "Ann" not in shown
        assert any("Ann (K3F-9QX) stopped watching." in line for line in log_lines(screen))
        table._emit(watchers())
        await settle(pilot, table)
        assert "Watching" not in static_text(screen.query_one(SeatList), width=80)


async def test_the_lies_players_panel_lists_the_watchers_and_drops_one_that_left() -> None:
    table = lie_table(seed=1)
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await lie_settle(pilot, table)
        table._emit(watchers(ANN))
        await lie_settle(pilot, table)
        screen = lie_screen(pilot.app)  # type: ignore[arg-type]
        shown = static_text(screen.query_one(LiePlayersView), width=80)
        assert "Watching: Ann (K3F-9QX)" in shown
        assert any("Ann (K3F-9QX) is watching" in line for line in log_lines(screen))
        table._emit(watchers())
        await lie_settle(pilot, table)
        assert "Ann" not in static_text(screen.query_one(LiePlayersView), width=80)


def log_lines(screen: object) -> list[str]:
    return [str(line) for line in screen.query_one(GameLog).lines_written]  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["larry", "lie"])
def test_the_watchers_line_at_80x24(snap_compare, game: str) -> None:  # type: ignore[no-untyped-def]
    table = larry_table() if game == "larry" else lie_table(seed=1)
    wait = settle if game == "larry" else lie_settle

    async def watched(pilot: Pilot[None]) -> None:
        await wait(pilot, table)
        table._emit(watchers(ANN, BO))
        await wait(pilot, table)
        # The panel grew a line, so the log shrank and wrote its rows again; RichLog scrolls to
        # the end only after a refresh: the picture is taken once it has (both lines said).
        log = pilot.app.screen.query_one(GameLog)
        for _ in range(100):
            if log.scroll_y >= log.max_scroll_y:
                break
            await pilot.pause()
        assert log.scroll_y >= log.max_scroll_y

    assert snap_compare(make_app(table), terminal_size=(80, 24), run_before=watched)
