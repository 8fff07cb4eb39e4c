"""Keys that arrive in one burst take effect in order (a fast typist, a session over SSH).

Textual runs an Input's editing bindings (Backspace, Enter…) only after the key has bubbled up,
so a printable key right behind overtook them: `Backspace 5 Enter` on a pre-filled "2" announced
2. The burst is fed through Textual's own terminal parser, as the terminal driver does.
"""

from __future__ import annotations

from textual._xterm_parser import XTermParser
from textual.pilot import Pilot

from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.games.larry.announce import AnnounceDialog
from fairdeal.ui.screens.connect import ConnectDialog
from fairdeal.ui.widgets.keyed_input import KeyedInput

from .support import PLAYER, make_app, settle, table_screen


def send_burst(pilot: Pilot[None], keys: str) -> None:
    """Hand the app every key of `keys` at once, before it handles the first."""
    app = pilot.app
    assert app._driver is not None
    for event in XTermParser().feed(keys):
        event.set_sender(app)
        app._driver.send_message(event)


async def test_backspace_digit_enter_in_one_burst_announces_the_digit() -> None:
    table = LocalTable(4, seed=3, human_name=PLAYER.name)
    app = make_app(table)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, table)
        await pilot.press("enter")  # the first card face-down: the dialog pre-fills its total
        await pilot.pause()
        assert isinstance(app.screen, AnnounceDialog)
        assert app.screen.query_one(KeyedInput).value == "2"
        send_burst(pilot, "\x7f5\r")
        for _ in range(50):  # the burst is handled within a few messages
            if not isinstance(app.screen, AnnounceDialog):
                break
            await pilot.pause()
        assert not isinstance(app.screen, AnnounceDialog), app.screen.query_one(KeyedInput).value
        await settle(pilot, table)
        log = table_screen(app).query_one("GameLog").lines_written  # type: ignore[attr-defined]
        assert f"{PLAYER.name} played a card face-down and said 5." in log


async def test_a_burst_of_edits_in_the_connect_dialog_keeps_its_order() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ConnectDialog())
        await pilot.pause()
        field = app.screen.query_one(KeyedInput)
        # type …9:1, ⌫ 2 gives …9:2; ← ← ⌫ 3 turns the 9 into a 3
        send_burst(pilot, "10.0.0.9:1\x7f2\x1b[D\x1b[D\x7f3")
        for _ in range(5):
            await pilot.pause()
        assert field.value == "10.0.0.3:2"
