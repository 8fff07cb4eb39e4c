"""The polish: each point as a new player meets it."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Markdown, OptionList, Select, Static
from textual.widgets._select import SelectOverlay

from fairdeal.engine.larry import CardKind, LarryOptions, build_deck
from fairdeal.engine.larry.events import PlayedFaceUp
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.p2p.table.runtime.local_bots import bot_identity
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.larry.narrator import card_label
from fairdeal.ui.games.larry.widgets.hand import CardBox
from fairdeal.ui.games.larry.widgets.seat_list import SeatList
from fairdeal.ui.screens.help import HelpScreen
from fairdeal.ui.screens.lobby import LobbyScreen
from fairdeal.ui.screens.pick import PickDialog
from fairdeal.ui.table_finder import FixedFinder

from .fake_session import ScriptedSession
from .support import PLAYER, engine_events, make_app, settle, static_text, table_screen
from .test_app_notices import caught_up
from .test_app_pilot import face_up_with


async def test_no_on_badge_for_our_seat_or_local_bots_but_for_other_peers() -> None:
    table = LocalTable(3, seed=1, human_name=PLAYER.name)
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        seats = static_text(table_screen(pilot.app).query_one(SeatList))  # type: ignore[arg-type]
        assert " on" not in seats, seats
    session = ScriptedSession()  # Mallory and Sam are people on other laptops
    app = FairdealApp(PLAYER, session=session, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await caught_up(pilot, session)
        lines = static_text(screen.query_one(SeatList)).splitlines()
        assert not lines[0].rstrip().endswith(" on")  # Tess: ourselves
        assert lines[1].rstrip().endswith(" on") and lines[2].rstrip().endswith(" on")


def test_the_pick_up_2_card_does_not_read_like_a_number() -> None:
    deck = build_deck(LarryOptions())
    pick = next(card for card in deck if card.kind is CardKind.PICK_UP_2)
    numbers = {card_label(card) for card in deck if card.kind is CardKind.NUMBER}
    assert card_label(pick) not in numbers and not card_label(pick).lstrip("+-").isdigit()


async def test_cards_10_to_12_of_a_long_hand_are_numbered() -> None:
    table = LocalTable(2, seed=1, human_name=PLAYER.name)  # 12 cards each (L3)
    async with make_app(table).run_test(size=(100, 24)) as pilot:
        await settle(pilot, table)
        boxes = list(table_screen(pilot.app).query(CardBox))  # type: ignore[arg-type]
        assert len(boxes) >= 10
        assert [str(box.border_title) for box in boxes] == [str(i + 1) for i in range(len(boxes))]
        for box in boxes:  # wide enough to show it: corners, a line and a space each side
            assert box.outer_size.width >= len(str(box.border_title)) + 6, box.border_title


async def test_one_opponent_is_the_target_without_asking() -> None:
    table = LocalTable(2, seed=1, human_name=PLAYER.name)
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await face_up_with(pilot, table, CardKind.FACE_UP)
        assert not isinstance(pilot.app.screen, PickDialog)  # no "Against whom?"
        await settle(pilot, table)
        played = [e for e in engine_events(table, PlayedFaceUp) if e.seat == 0]
        assert played and played[0].target == 1


async def test_the_highlighted_choice_is_marked_in_text() -> None:
    table = LocalTable(3, seed=1, human_name=PLAYER.name)
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        pilot.app.push_screen(PickDialog("Against whom?", [("Ada (bot)", 1), ("Ben (bot)", 2)]))
        await pilot.pause()
        options = pilot.app.screen.query_one(OptionList)

        def prompts() -> list[str]:
            return [str(options.get_option_at_index(i).prompt) for i in range(2)]

        assert prompts() == ["▶ Ada (bot)", "  Ben (bot)"]
        await pilot.press("down")
        assert prompts() == ["  Ada (bot)", "▶ Ben (bot)"]


async def test_the_lobby_help_lists_the_lobby_keys() -> None:
    app = FairdealApp(PLAYER, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        first = app.screen.query(Markdown).first()
        assert "Keys in the lobby" in first.source and "HOST:PORT" in first.source


async def test_without_discovery_the_lobby_does_not_say_it_is_looking() -> None:
    app = FairdealApp(PLAYER, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        hint = static_text(app.screen.query_one("#lobby-hint", Static))
        assert "still looking" not in hint and "Not looking" in hint


def test_bots_are_named_one_way_however_they_joined(tmp_path: Path) -> None:
    local = LocalTable(3, seed=1, human_name=PLAYER.name)
    networked = [bot_identity(tmp_path, index).name for index in range(2)]
    assert [seat.name for seat in local.seats[1:]] == networked == ["Ada (bot)", "Ben (bot)"]


async def test_the_open_table_dropdown_is_framed_and_the_fields_keep_their_row() -> None:
    """The Seats field was drawn as an empty box (the table's #seats style reached it) and an
    open list showed the rows below through it."""
    app = FairdealApp(PLAYER, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        fields = [dialog.query_one(f"#{name}", Select) for name in ("game", "seats", "bots")]
        assert [field.size.height for field in fields] == [1, 1, 1]
        assert len({field.size.width for field in fields}) == 1
        seats = fields[1]
        seats.focus()
        await pilot.press("enter")
        await pilot.pause()
        overlay = seats.query_one(SelectOverlay)
        assert overlay.display and overlay.styles.border_top[0] != ""
        assert overlay.outer_size.width == seats.size.width
        bots = fields[2]
        covered = overlay.region.overlaps(bots.region)
        assert covered and overlay.styles.background.a == 1  # over the row, not see-through
