"""Both games' table screens close their table when they go (ui/screens/presence.py): the
local table's bots stop with the screen that showed them."""

from __future__ import annotations

import pytest

from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.player import Player
from fairdeal.ui.table_finder import FixedFinder

PLAYER = Player("Tess", "01234 56789 13579 24680 11223", "0123456789abcdef")


@pytest.mark.parametrize("game", ["larry", "lie"])
async def test_leaving_the_table_screen_closes_the_table(game: str) -> None:
    table = LocalTable(3, game=game, seed=2, human_name=PLAYER.name)
    app = FairdealApp(PLAYER, session=table, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await table.wait_idle()
        await pilot.pause()
        assert not table._closed
        await pilot.press("escape")  # only our own bots would wait: no question asked
        await pilot.pause()
        assert len(app.screen_stack) == 2  # back in the lobby
        assert table._closed  # by the screen, not by the app's end
