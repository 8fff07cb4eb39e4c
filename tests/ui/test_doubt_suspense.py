"""The doubt view keeps its suspense: while its cards are still to turn, the table above it shows
the table as it was when the doubt was called (card counts, the round), not the result; once they
have all turned, the table as it is now. It used to show the loser's new card count and "a new
round" before any card was turned."""

from __future__ import annotations

from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.larry.doubt import DoubtScreen
from fairdeal.ui.games.larry.widgets.seat_list import SeatList
from fairdeal.ui.games.larry.widgets.table_status import TableStatus
from fairdeal.ui.table_finder import FixedFinder

from .support import PLAYER, play_the_first_card, settle, static_text, table_screen


async def test_the_table_under_a_doubt_view_does_not_tell_its_result() -> None:
    table = LocalTable(4, seed=1, human_name=PLAYER.name)
    app = FairdealApp(PLAYER, session=table, finder=FixedFinder(), reveal_interval=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_the_first_card(pilot, table)
        screen = table_screen(app)
        before_seats = static_text(screen.query_one(SeatList), 38)
        before_status = static_text(screen.query_one(TableStatus), 38)
        await pilot.press("d")
        await settle(pilot, table)
        doubt = app.screen
        assert isinstance(doubt, DoubtScreen) and doubt.shown < len(doubt.verification.cards)
        assert screen.session.view().state != screen.drawn_view.state  # type: ignore[union-attr]
        assert static_text(screen.query_one(SeatList), 38) == before_seats
        assert static_text(screen.query_one(TableStatus), 38) == before_status
        doubt.dismiss(None)  # closed before its last card: the log and the table tell the rest
        await pilot.pause()
        await pilot.pause()
        assert screen.drawn_view == screen.session.view()
        assert static_text(screen.query_one(SeatList), 38) != before_seats
