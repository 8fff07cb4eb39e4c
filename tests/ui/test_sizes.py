"""Every screen of both games is usable at 80×24 and at 120×40: snapshots at both sizes, and at
80×24 The Lie's Phase 1 keeps its log on screen."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.games.lie.screen import LieTableScreen
from fairdeal.ui.widgets.game_log import GameLog

from .support import PLAYER, make_app, play_the_first_card
from .test_lie_app_pilot import grab_a_hand, lie_table
from .test_lie_app_pilot import settle as lie_settle

SIZES = [(80, 24), (120, 40)]


async def test_the_lie_phase_1_log_is_on_screen_at_80x24() -> None:
    table = lie_table(seed=1)
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await lie_settle(pilot, table)
        await pilot.press("d")
        await lie_settle(pilot, table)
        screen = pilot.app.screen
        assert isinstance(screen, LieTableScreen)
        log = screen.query_one(GameLog)
        assert log.display and log.region.bottom <= 24
        assert log.content_region.height >= 2  # the last two lines at least
        assert log.lines_written


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_larry_table(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    table = LocalTable(4, seed=1, human_name=PLAYER.name)

    assert snap_compare(
        make_app(table), terminal_size=size, run_before=lambda p: play_the_first_card(p, table)
    )


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_lie_phase_1(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    table = lie_table(seed=1)

    async def grab_some(pilot: Pilot[None]) -> None:
        await lie_settle(pilot, table)
        for key in ("d", "right", "a"):
            await pilot.press(key)
            await lie_settle(pilot, table)

    assert snap_compare(make_app(table), terminal_size=size, run_before=grab_some)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_lie_trick(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    table = lie_table(seed=1)

    async def to_a_trick(pilot: Pilot[None]) -> None:
        await lie_settle(pilot, table)
        await grab_a_hand(pilot, table)
        await lie_settle(pilot, table)

    assert snap_compare(make_app(table), terminal_size=size, run_before=to_a_trick)
