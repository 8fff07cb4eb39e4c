"""A key press that the player's own cards already forbid is refused on the spot, with the reason
and the ruling, and never reaches the table's fault path; no input and no
failure takes the app down."""

from __future__ import annotations

from collections.abc import AsyncIterator

from textual.pilot import Pilot
from textual.widgets import Input, Static

from fairdeal.engine.events import Violation
from fairdeal.engine.larry import Action, LarryOptions, LarryView
from fairdeal.p2p.table.core.api import FaultDetected, StateChanged, TableEvent
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.games.larry.announce import AnnounceDialog
from fairdeal.ui.games.larry.screen import TableScreen
from fairdeal.ui.screens.connect import ConnectDialog
from fairdeal.ui.screens.pick import PickDialog

from .support import engine_events, make_app, settle, static_text, table_screen


def hint(pilot: Pilot[None]) -> str:
    return static_text(table_screen(pilot.app).query_one("#hint", Static))  # type: ignore[arg-type]


def no_fault(table: LocalTable) -> bool:
    """Neither the table nor the engine saw a cheat."""
    faults = [e for e in table.history if isinstance(e, FaultDetected)]
    return not faults and not engine_events(table, Violation)


async def obliged_with_a_gloat(pilot: Pilot[None], table: LocalTable) -> LarryView:
    """The issue's game (`fairdeal play --players 2 --seed 2`): `1 Enter Enter` twice; the bot
    then puts "play face-up" before us (L12) and card 2 of our hand is a gloat."""
    for _ in range(2):
        await settle(pilot, table)
        await pilot.press("1", "enter")
        assert isinstance(pilot.app.screen, AnnounceDialog)
        await pilot.press("enter")
    await settle(pilot, table)
    view = table.view()
    assert view.my_turn and view.obligated[view.seat]
    assert view.deck[view.hand[1][1]].name == "gloat"  # type: ignore[index]
    assert any(view.deck[f].name != "gloat" for _, f in view.hand)  # type: ignore[index]
    return view


async def refused(pilot: Pilot[None], table: LocalTable, *keys: str) -> str:
    """Press `keys`: nothing is sent (the table's state stays the same). Returns the hint."""
    state = table.state
    await pilot.press(*keys)
    await pilot.pause()
    assert table.state is state
    return hint(pilot)


async def test_u_on_a_gloat_under_the_obligation_is_refused_not_a_cheat() -> None:
    table = LocalTable(2, seed=2, human_name="Tess")
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await obliged_with_a_gloat(pilot, table)
        state = table.state
        text = await refused(pilot, table, "2", "u")  # nothing was sent
        assert "Not allowed" in text and "gloat" in text and "L12" in text
        assert no_fault(table)  # and the table never saw a cheat
        await pilot.press("3", "u")  # a number card face-up is the honest play (L12)
        await settle(pilot, table)
        assert table.state is not state and no_fault(table)


async def test_enter_under_the_obligation_is_refused_without_a_dialog() -> None:
    table = LocalTable(2, seed=2, human_name="Tess")
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await obliged_with_a_gloat(pilot, table)
        text = await refused(pilot, table, "1", "enter")
        assert isinstance(pilot.app.screen, TableScreen)  # no announce dialog first
        assert "Not allowed" in text and "face-up" in text and "L12" in text


async def test_give_away_with_fewer_than_3_cards_is_refused_without_a_dialog() -> None:
    # Two-card hands (hand_size is a test option): seed 15 deals us a give-away and a -2.
    table = LocalTable(2, seed=15, human_name="Tess", options=LarryOptions(hand_size=2))
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        view = table.view()
        assert view.deck[view.hand[0][1]].name == "give_away_1"  # type: ignore[index]
        text = await refused(pilot, table, "1", "u")
        assert not isinstance(pilot.app.screen, PickDialog)  # not "against whom?" first
        assert "Not allowed" in text and "L11" in text


async def test_larry_is_armed_only_when_a_play_can_leave_one_card() -> None:
    table = LocalTable(2, seed=15, human_name="Tess", options=LarryOptions(hand_size=2))
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        await pilot.press("l")  # two cards: any play leaves one (L15)
        assert table_screen(pilot.app).larry_armed  # type: ignore[arg-type]
        assert "[LARRY! armed]" in hint(pilot)
        await pilot.press("l")  # pressed again: disarmed, never refused
        assert not table_screen(pilot.app).larry_armed  # type: ignore[arg-type]


# -- nothing takes the app down (14.2) -------------------------------------------------------------
ABSURD_ANNOUNCEMENTS = [
    "-99999999999999999999",  # the number: 64-bit overflow on the wire
    "99999999999999999999",
    "-100",  # just below the L6 floor
    "8",  # above the limit (L6)
    "",
    "-",
    "9" * 5000,  # longer than Python's int() accepts
]


async def test_absurd_announcements_are_refused_in_the_dialog() -> None:
    table = LocalTable(3, seed=1, human_name="Tess")
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        state = table.state
        await pilot.press("enter")
        dialog = pilot.app.screen
        assert isinstance(dialog, AnnounceDialog)
        field = dialog.query_one("#announce", Input)
        for text in ABSURD_ANNOUNCEMENTS:
            field.value = text
            await field.action_submit()
            await pilot.pause()
            assert pilot.app.screen is dialog, text  # still asking
            error = static_text(dialog.query_one("#announce-error"))
            assert error.strip().startswith("✗"), (text, error)
        assert table.state is state
        field.value = "-99"  # the lowest announcement is accepted (L6)
        await field.action_submit()
        await settle(pilot, table)
        assert table.state is not state and pilot.app.is_running


async def test_bad_addresses_are_refused_in_the_connect_dialog() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        dialog = pilot.app.screen
        assert isinstance(dialog, ConnectDialog)
        field = dialog.query_one("#address", Input)
        for text in (
            "",
            ":",
            "host",
            "host:",
            "host:0",
            "host:65536",
            "host:-1",
            "h:" + "9" * 5000,
        ):
            field.value = text
            await field.action_submit()
            await pilot.pause()
            assert pilot.app.screen is dialog, text
            assert "✗" in static_text(dialog.query_one("#connect-error")), text
        assert pilot.app.is_running


class FailingSession(LocalTable):
    """A table whose network fails under the player (a bug, a dead socket): not an IllegalAction."""

    async def act(self, action: Action) -> None:
        raise RuntimeError("the socket is gone")


async def test_a_failure_while_sending_is_shown_and_the_table_goes_on() -> None:
    table = FailingSession(3, seed=1, human_name="Tess")
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        await pilot.press("d")
        await pilot.pause()
        assert "socket is gone" in hint(pilot)
        assert pilot.app.is_running and isinstance(pilot.app.screen, TableScreen)


class BrokenEventSession(LocalTable):
    """Emits one event the screen cannot show (as a buggy or hostile peer's data might be)."""

    def events(self) -> AsyncIterator[TableEvent]:
        inner = super().events()

        async def with_garbage() -> AsyncIterator[TableEvent]:
            yield StateChanged(None, ())  # type: ignore[arg-type]
            async for event in inner:
                yield event

        return with_garbage()


async def test_an_event_that_cannot_be_shown_is_logged_and_the_table_goes_on() -> None:
    table = BrokenEventSession(3, seed=1, human_name="Tess")
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await table.wait_idle()
        screen = table_screen(pilot.app)  # type: ignore[arg-type]
        while screen.events_seen < table.event_count + 1:
            await pilot.pause()
        assert "YOUR TURN" in hint(pilot)
        await pilot.press("d")  # the table still answers keys
        assert "L7" in hint(pilot)


async def test_a_key_whose_action_raises_is_reported_not_fatal() -> None:
    app = make_app(LocalTable(3, seed=1, human_name="Tess"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = table_screen(app)

        def broken() -> None:
            raise ValueError("a bug behind a key")

        screen.action_scores = broken  # type: ignore[method-assign]
        await pilot.press("s")
        await pilot.pause()
        assert app.is_running and [str(e) for e in app.failures] == ["a bug behind a key"]
        await pilot.press("d")
        assert "L7" in hint(pilot)
