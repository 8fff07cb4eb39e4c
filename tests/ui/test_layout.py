"""The table's panels are laid out by their own content: at 2 and 3 seats the table
panel still shows every line (the total, the piles, the hand and the setup progress), at 8 seats
every seat is listed, in 80×24 and 100×30."""

from __future__ import annotations

import pytest
from textual.geometry import Size
from textual.widget import Widget

from fairdeal.p2p.table.core.api import SetupProgress
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.games.larry.widgets.seat_list import SeatList
from fairdeal.ui.games.larry.widgets.table_status import TableStatus

from .support import PLAYER, make_app, settle, static_text, table_screen


def cut_lines(panel: Widget) -> int:
    """How many lines of the panel's content do not fit in its content region."""
    width = panel.content_region.width
    needed = panel.get_content_height(Size(width, 1000), Size(width, 1000), width)
    return max(0, needed - panel.content_region.height)


@pytest.mark.parametrize("seats", [2, 3, 8])
@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_no_panel_line_is_cut_off(seats: int, size: tuple[int, int]) -> None:
    table = LocalTable(seats, seed=1, human_name=PLAYER.name)
    app = make_app(table)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, table)
        screen = table_screen(app)
        # a later hand's shuffle in progress adds a line to the table panel
        await screen.handle(SetupProgress("shuffle", 1, 2, seats, 12))
        await pilot.pause()
        status = screen.query_one(TableStatus)
        seat_list = screen.query_one(SeatList)
        assert cut_lines(status) == 0, static_text(status)
        assert cut_lines(seat_list) == 0, static_text(seat_list)
        text = static_text(status, width=status.content_region.width)
        assert "Pick-up" in text and "Hand 1" in text and "2 of" in " ".join(text.split())
