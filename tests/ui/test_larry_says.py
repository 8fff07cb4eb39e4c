"""What the Larry table says: the announce dialog's pre-fill, the seats' columns, the doubt's
result after its cards are turned, L6's reason, the hint after game over."""

from __future__ import annotations

from textual.app import App

from fairdeal.ui.screens.announce import AnnounceDialog
from fairdeal.ui.widgets.keyed_input import KeyedInput


async def test_the_announce_dialog_pre_fills_a_total_enter_accepts_when_honest_is_over() -> None:
    """L6: any total not above the limit; an honest 9 over the limit 7 pre-fills 7, not 9."""
    answers: list[int | None] = []
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(AnnounceDialog("a 5", 9, 7), callback=answers.append)
        await pilot.pause()
        assert app.screen.query_one(KeyedInput).value == "7"
        await pilot.press("enter")
        await pilot.pause()
    assert answers == [7]
