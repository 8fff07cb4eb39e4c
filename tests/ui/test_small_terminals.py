"""Small terminals: a table that cannot be shown whole says what size it needs (and takes the
keys, so that no cursor walks into rows nobody sees) until the terminal is large enough; a hand
wider than the screen shows whole cards with a mark for those beyond the edge, never half a card.
At 60×20 The Lie's table used to wrap its 16 columns into 14+2 and show 3 of its 6 rows, and a
12-card hand at 80 columns cut its last card to a lone `╭`."""

from __future__ import annotations

from textual.widgets import Static

from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.games.larry.widgets.hand import CardBox, HandView, HiddenCards, hand_window
from fairdeal.ui.games.lie.screen import LieTableScreen
from fairdeal.ui.screens.too_small import TooSmallScreen

from .support import PLAYER, make_app, screen_of, settle, static_text, table_screen
from .test_lie_app_pilot import lie_table
from .test_lie_app_pilot import settle as lie_settle


async def test_the_lie_at_60x20_says_what_size_it_needs_and_comes_back_when_it_fits() -> None:
    table = lie_table(seed=1)
    async with make_app(table).run_test(size=(60, 20)) as pilot:
        await lie_settle(pilot, table)
        await pilot.pause()
        shown = pilot.app.screen
        assert isinstance(shown, TooSmallScreen)
        text = " ".join(static_text(shown.query_one(Static), 60).split())
        assert "needs a terminal of at least 80×24; this one is 60×20" in text
        screen = screen_of(pilot.app, LieTableScreen)  # type: ignore[arg-type]
        cursor = screen.cursor if hasattr(screen, "cursor") else None
        await pilot.press("down", "down", "down", "enter")  # covered: nothing moves or is taken
        await pilot.pause()
        assert (screen.cursor if hasattr(screen, "cursor") else None) == cursor
        assert not screen.session.view().state.unplaced[screen.session.seat]
        await pilot.resize_terminal(70, 22)
        await pilot.pause()
        text = " ".join(static_text(pilot.app.screen.query_one(Static), 70).split())
        assert "this one is 70×22" in text  # it follows the terminal
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert pilot.app.screen is screen, pilot.app.screen_stack  # the table is back, whole


async def test_larry_at_60x20_says_what_size_it_needs() -> None:
    table = LocalTable(4, seed=1, human_name=PLAYER.name)
    async with make_app(table).run_test(size=(60, 20)) as pilot:
        await settle(pilot, table)
        assert isinstance(pilot.app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert pilot.app.screen is table_screen(pilot.app)  # type: ignore[arg-type]


async def test_a_view_the_table_opens_while_too_small_waits_for_the_terminal_to_fit() -> None:
    from fairdeal.ui.screens.help import HelpScreen

    table = lie_table(seed=1)
    async with make_app(table).run_test(size=(60, 20)) as pilot:
        await lie_settle(pilot, table)
        await pilot.pause()
        screen = screen_of(pilot.app, LieTableScreen)  # type: ignore[arg-type]
        screen.queue_modal(lambda: HelpScreen("lie"))  # as the round's scores would be
        await pilot.pause()
        assert isinstance(pilot.app.screen, TooSmallScreen)  # not a view cut to 60×20
        await pilot.resize_terminal(80, 24)
        for _ in range(20):
            await pilot.pause()
            if isinstance(pilot.app.screen, HelpScreen):
                break
        assert isinstance(pilot.app.screen, HelpScreen)


def test_a_hand_window_holds_the_selected_card_and_moves_only_as_it_must() -> None:
    widths = [7] * 9 + [8] * 3  # 12 cards: 87 columns
    assert hand_window(widths, 0, 0, 100) == (0, 12)  # it fits: all of them, no marks
    start, end = hand_window(widths, 0, 0, 78)
    assert start == 0 and sum(widths[:end]) + 4 <= 78 and end < 12
    last = hand_window(widths, 11, start, 78)
    assert last[1] == 12 and last[0] > 0 and sum(widths[last[0] :]) + 4 <= 78
    assert hand_window(widths, 10, last[0], 78) == last  # a step back: the window stays
    assert hand_window(widths, 5, 0, 5) == (5, 6)  # too narrow for one: one card all the same


async def test_a_12_card_hand_at_80_columns_shows_whole_cards_and_marks_the_rest() -> None:
    table = LocalTable(2, seed=1, human_name=PLAYER.name)
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        screen = table_screen(pilot.app)  # type: ignore[arg-type]
        hand = screen.query_one(HandView)
        assert len(screen.session.view().hand) == 12

        def whole() -> bool:
            return all(box.region.right <= hand.region.right for box in hand.query(CardBox))

        await pilot.pause()
        marks = [static_text(m, 10).strip() for m in hand.query(HiddenCards)]
        assert whole() and marks and marks[-1].endswith("▶"), marks
        for _ in range(11):  # to the last card
            await pilot.press("right")
        await pilot.pause()
        await pilot.pause()
        boxes = list(hand.query(CardBox))
        assert boxes[-1].index == 11 and "-selected" in boxes[-1].classes and whole()
        marks = [static_text(m, 10).strip() for m in hand.query(HiddenCards)]
        assert marks[0].startswith("◀"), marks
