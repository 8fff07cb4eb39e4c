"""Leaving a networked table is a decision, played in the app over loopback: q and
Ctrl+C ask first; leaving tells the other seat, which shows it by name and ends the table with
the result so far. A local table (only our own bots) still quits at once."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from fairdeal.p2p.table.core.api import SeatLeft, TableEnded
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.p2p.table.tools.session import NetworkedTable, join_table
from fairdeal.ui.games.larry.scores import ScoresScreen
from fairdeal.ui.games.larry.screen import TableScreen
from fairdeal.ui.games.larry.widgets.seat_list import SeatList
from fairdeal.ui.screens.confirm import ConfirmDialog
from fairdeal.ui.widgets.game_log import GameLog
from tests.game.loopback import loopback_settings, started_short_host

from .support import PLAYER, make_app, static_text, table_screen

WAIT_S = 30.0
pytestmark = pytest.mark.slow


def dealt(session: NetworkedTable) -> bool:
    peer = session.peer
    return peer is not None and peer.table is not None and peer.table.state is not None


async def until_screen(pilot: Pilot[None], kind: type) -> None:
    async with asyncio.timeout(WAIT_S):
        while not isinstance(pilot.app.screen, kind):
            await pilot.pause()


@contextlib.asynccontextmanager
async def two_seats(tmp_path: Path) -> AsyncIterator[tuple[NetworkedTable, NetworkedTable]]:
    """Tess hosts a 2-seat table (in the app, seat 0); Ben joins it from another process's
    point of view (a second session in this test). Both wait until the first deal is done;
    both are closed after the block."""
    host = await started_short_host(tmp_path / "tess", WAIT_S, name=PLAYER.name)
    assert host.address is not None
    guest = join_table(
        host=host.address[0], port=host.address[1], name="Ben",
        settings=loopback_settings(tmp_path / "ben"),
    )  # fmt: skip
    try:
        await guest.start()
        await host.wait_for(lambda: dealt(host), WAIT_S)
        await guest.wait_for(lambda: dealt(guest), WAIT_S)
        yield host, guest
    finally:
        await guest.close()
        await host.close()


async def test_q_and_ctrl_c_ask_first_and_leaving_tells_the_other_seat(tmp_path: Path) -> None:
    async with two_seats(tmp_path) as (host, guest):
        app = make_app(host)  # type: ignore[arg-type]
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in ("q", "ctrl+c"):
                await pilot.press(key)
                await until_screen(pilot, ConfirmDialog)
                await pilot.press("q")  # q in the question does not quit past it
                assert isinstance(app.screen, ConfirmDialog) and app.is_running
                await pilot.press("n")  # keep playing
                await until_screen(pilot, TableScreen)
                assert app.is_running
            assert not any(isinstance(e, SeatLeft) for e in guest.history.events)
            await pilot.press("q")
            await until_screen(pilot, ConfirmDialog)
            await pilot.press("y")
            async with asyncio.timeout(WAIT_S):
                while app.is_running:
                    await pilot.pause()
        assert app.return_code == 0
        assert any(isinstance(e, TableEnded) for e in host.history.events)
        await guest.wait_for(
            lambda: any(isinstance(e, SeatLeft) for e in guest.history.events), WAIT_S
        )
        left = [e for e in guest.history.events if isinstance(e, SeatLeft)]
        assert left == [SeatLeft(0, f"{PLAYER.name} left the table")]
        await guest.end_table("Ben ended the table after Tess left")  # the one who stays
        ended = [e for e in guest.history.events if isinstance(e, TableEnded)]
        assert len(ended) == 1 and ended[0].hands == 0


async def test_the_remaining_player_sees_who_left_and_ends_the_table(tmp_path: Path) -> None:
    async with two_seats(tmp_path) as (host, guest):
        app = make_app(host)  # type: ignore[arg-type]
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await guest.end_table("Ben left the table")
            screen = table_screen(app)
            async with asyncio.timeout(WAIT_S):
                while 1 not in screen.left:
                    await pilot.pause()
            await pilot.pause()
            log = screen.query_one(GameLog).lines_written
            # the notice says it once (it used to read "Ben left the table (Ben left the table)")
            assert any(line.startswith("Ben left the table. Press e") for line in log), log
            assert not any("(Ben left the table)" in line for line in log)
            seats = " ".join(static_text(screen.query_one(SeatList)).split())
            assert "LEFT" in seats  # the seats panel marks who left
            hint = " ".join(static_text(screen.query_one("#hint", Static)).split())
            assert "Ben left the table: e ends it with the result so far" in hint
            await pilot.press("e")
            await until_screen(pilot, ConfirmDialog)
            await pilot.press("y")
            await until_screen(pilot, ScoresScreen)
            assert "Table ended after 0 hands" in app.screen.title_text  # type: ignore[attr-defined]
            await pilot.press("enter")
            await until_screen(pilot, TableScreen)
            hint = " ".join(static_text(screen.query_one("#hint", Static)).split())
            assert "The table has ended" in hint
            await pilot.press("q")  # nobody waits any more: quit at once
            async with asyncio.timeout(WAIT_S):
                while app.is_running:
                    await pilot.pause()


async def test_a_local_table_quits_at_once() -> None:
    app = make_app(LocalTable(3, seed=1, human_name="Tess"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app.is_running
