"""A seat that left and came back (`fairdeal resume`) is no longer shown as gone: its LEFT mark,
the "e ends it" hint and `e` itself no longer apply, and the log says it is back (protocol.md
10.12). It used to stay "left" for the rest of the game, and `e` still ended the table under it."""

from __future__ import annotations

from fairdeal.p2p.table.core.api import SeatLeft, SeatReturned
from fairdeal.ui.games.lie.widgets.players import LiePlayersView

from .lie_network_fake import NetworkLikeLieTable
from .support import make_app
from .test_lie_app_pilot import lie_screen, settle
from .test_lie_network_display import SIZE, logged, text_of


async def test_a_seat_that_comes_back_is_no_longer_left() -> None:
    table = NetworkLikeLieTable(3, rounds=1, hand_size=3)
    async with make_app(table).run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        screen = lie_screen(pilot.app)  # type: ignore[arg-type]
        table._emit(SeatLeft(2, "Cleo left the table"))
        await settle(pilot, table)
        assert "LEFT" in text_of(screen.query_one(LiePlayersView))
        assert any(line.startswith("Cleo left the table. Press e") for line in logged(pilot.app))
        table._emit(SeatReturned(2))
        await settle(pilot, table)
        assert "LEFT" not in text_of(screen.query_one(LiePlayersView))
        assert "e ends it" not in text_of(screen.query_one("#lie-hint"))
        assert any("Cleo is back at the table." in line for line in logged(pilot.app))
        await pilot.press("e")  # nobody is gone: the table goes on
        await settle(pilot, table)
        assert screen.ended is None and pilot.app.screen is screen  # no "end the table?" dialog
