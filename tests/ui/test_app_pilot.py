"""Playing through the UI with the keyboard (Pilot): a whole hand with a doubt, errors, pickers."""

from __future__ import annotations

import random
import socket

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from fairdeal.engine.larry import Action, CardKind, LarryOptions, LarryView, Phase, PlayFaceUp
from fairdeal.engine.larry.bots import make_bot
from fairdeal.engine.larry.events import CardGiven
from fairdeal.engine.larry.legal import face_up_actions
from fairdeal.p2p.lobby.discovery import DiscoveredTable, TableAd
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.larry.announce import AnnounceDialog
from fairdeal.ui.games.larry.doubt import DoubtScreen
from fairdeal.ui.games.larry.narrator import card_name
from fairdeal.ui.games.larry.scores import ScoresScreen
from fairdeal.ui.games.larry.screen import TableScreen
from fairdeal.ui.screens.help import HelpScreen
from fairdeal.ui.screens.joining import JoiningScreen
from fairdeal.ui.screens.lobby import LobbyScreen
from fairdeal.ui.screens.open_table import OpenTableDialog
from fairdeal.ui.screens.pick import PickDialog
from fairdeal.ui.table_finder import FixedFinder
from fairdeal.ui.widgets.game_log import GameLog

from .support import engine_events, make_app, settle, static_text, table_screen


async def select_card(pilot: Pilot[None], index: int) -> None:
    screen = table_screen(pilot.app)  # type: ignore[arg-type]
    count = len(screen.session.view().hand)
    steps = (index - screen.selected) % count
    for _ in range(steps):
        await pilot.press("right")
    assert screen.selected == index


async def face_up_with(pilot: Pilot[None], table: LocalTable, kind: CardKind) -> LarryView:
    """Once the table settles, select the first card of `kind` in the human's hand and press
    `u` (play it face-up). Returns the view it was chosen from."""
    await settle(pilot, table)
    view = table.view()
    kinds = [view.deck[face or 0].kind for _, face in view.hand]
    await select_card(pilot, kinds.index(kind))
    await pilot.press("u")
    return view


async def play_turn(pilot: Pilot[None], view: LarryView, want_doubt: bool) -> str:
    """Choose and key in one move for the human seat; returns what was done."""
    deck = view.deck
    hand = [(slot, deck[face]) for slot, face in view.hand if face is not None]
    if view.phase is Phase.GOING_OUT:
        await pilot.press("a")
        return "accept"
    if view.pile and (want_doubt or view.obligated[view.seat]):
        await pilot.press("d")
        return "doubt"
    if view.obligated[view.seat]:
        action = next(a for a in face_up_actions(view) if isinstance(a, PlayFaceUp))
        await select_card(pilot, [slot for slot, _ in hand].index(action.slot))
        if action.larry:
            await pilot.press("l")
        await pilot.press("u")
        while isinstance(pilot.app.screen, PickDialog):
            await pilot.press("enter")  # first target, first card to give
        return "face-up"
    room = view.limit - view.announced
    fitting = [i for i, (_, card) in enumerate(hand) if card.kind is CardKind.NUMBER]
    fitting = [i for i in fitting if hand[i][1].value <= room]
    index = fitting[0] if fitting else 0
    await select_card(pilot, index)
    if len(hand) == 2:
        await pilot.press("l")  # L15
    await pilot.press("enter")
    assert isinstance(pilot.app.screen, AnnounceDialog)
    if not fitting:  # bluff: announce the limit itself
        field = pilot.app.screen.query_one(Input)
        field.value = ""
        await pilot.press(*str(view.limit))
    await pilot.press("enter")
    return "face-down"


async def play_until_scores(
    pilot: Pilot[None], table: LocalTable
) -> tuple[list[str], list[DoubtScreen], ScoresScreen]:
    """Play the human seat by keyboard until a score table shows; close every view on the way."""
    app = pilot.app
    screen = table_screen(app)  # type: ignore[arg-type]
    moves: list[str] = []
    doubts_seen: list[DoubtScreen] = []
    for _ in range(300):
        await settle(pilot, table)
        while not isinstance(app.screen, TableScreen):
            if isinstance(app.screen, ScoresScreen):
                return moves, doubts_seen, app.screen
            if isinstance(app.screen, DoubtScreen):
                doubts_seen.append(app.screen)
                verdict = app.screen.query_one("#doubt-verdict", Static)
                assert "picks up 2" in static_text(verdict)
            await pilot.press("enter")
            await pilot.pause()
        view = table.view()
        assert view.my_turn
        moves.append(await play_turn(pilot, view, want_doubt="doubt" not in moves))
        assert not screen.message.startswith("✗"), screen.message
    raise AssertionError("no score table after 300 moves")


@pytest.mark.slow
async def test_a_whole_hand_against_bots_with_a_doubt_by_keyboard() -> None:
    table = LocalTable(3, seed=4, human_name="Tess")
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = table_screen(app)
        moves, doubts_seen, scores = await play_until_scores(pilot, table)
        assert "doubt" in moves and moves.count("face-down") >= 3
        assert doubts_seen, "no doubt view was shown"
        mine = [d for d in doubts_seen if d.verification.doubter == table.seat]
        assert mine and mine[0].shown == len(mine[0].verification.cards)
        assert scores.winners is None  # a full game goes on to hand 2
        assert scores.hand_scores == screen.hand_scores[:1]
        assert len(scores.hand_scores[0]) == 3
        log = screen.query_one(GameLog).lines_written
        assert any("Tess doubted" in line for line in log)
        assert any(line.startswith("Hand 1 over") for line in log)


@pytest.mark.slow
async def test_a_short_game_is_finished_and_left_with_the_keyboard_alone() -> None:
    table = LocalTable(3, seed=2, human_name="Tess", options=LarryOptions(short_game=True))
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        _moves, _doubts, scores = await play_until_scores(pilot, table)
        assert scores.winners == table.state.winners and table.state.over  # L18
        assert scores.title_text == "Game over"
        await pilot.press("enter")
        await settle(pilot, table)
        hint = static_text(table_screen(app).query_one("#hint", Static))
        assert "The game is over" in hint
        await pilot.press("n")  # another game, at a fresh table
        await pilot.pause()
        fresh = table_screen(app)
        assert fresh.session is not table and not fresh.session.view().state.over
        await pilot.press("q")
    assert app.return_code == 0


async def test_an_illegal_action_is_explained_and_changes_nothing() -> None:
    table = LocalTable(3, seed=1, human_name="Tess")
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        state = table.state
        await pilot.press("d")  # L7: nothing to doubt on an empty pile
        hint = static_text(pilot.app.screen.query_one("#hint", Static))
        assert "Not allowed" in hint and "L7" in hint
        await pilot.press("u")  # a number card face-up without the L12 obligation
        hint = static_text(pilot.app.screen.query_one("#hint", Static))
        assert "Not allowed" in hint
        await pilot.press("l")  # a "Larry!" call with 6 cards: refused on the key (L15, 14.5)
        hint = static_text(pilot.app.screen.query_one("#hint", Static))
        assert "Not allowed" in hint and "L15" in hint and "[LARRY! armed]" not in hint
        assert not table_screen(pilot.app).larry_armed
        assert table.state is state


async def test_the_announce_dialog_checks_the_limit_and_offers_the_honest_total() -> None:
    table = LocalTable(3, seed=1, human_name="Tess")
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        view = table.view()
        await pilot.press("enter")
        dialog = pilot.app.screen
        assert isinstance(dialog, AnnounceDialog)
        card = view.deck[view.hand[0][1] or 0]
        honest = card.value if card.kind is CardKind.NUMBER else 0
        assert dialog.query_one(Input).value == str(honest)
        dialog.query_one(Input).value = ""
        await pilot.press("9")
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, AnnounceDialog)  # refused: above the limit 7
        assert "above the limit" in static_text(dialog.query_one("#announce-error", Static))
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, TableScreen)
        assert table.state.pile == ()


async def test_a_face_up_action_asks_for_its_target() -> None:
    table = LocalTable(
        3, seed=1, human_name="Tess"
    )  # seat 0 holds a 'play face-up' card as its second card
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await face_up_with(pilot, table, CardKind.FACE_UP)
        picker = pilot.app.screen
        assert isinstance(picker, PickDialog)
        assert [label for label, _ in picker.choices] == ["Ada (bot)", "Ben (bot)"]
        await pilot.press("down", "enter")
        await settle(pilot, table)
        log = table_screen(pilot.app).query_one(GameLog).lines_written  # type: ignore[arg-type]
        assert any("Tess played a 'play face-up' face-up against Ben (bot)" in x for x in log)


async def test_give_away_asks_for_the_target_then_the_card() -> None:
    table = LocalTable(3, seed=0, human_name="Tess")  # seat 0 holds a 'give away 1'
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        view = await face_up_with(pilot, table, CardKind.GIVE_AWAY_1)
        assert isinstance(pilot.app.screen, PickDialog)
        await pilot.press("enter")  # to Ada
        gift_picker = pilot.app.screen
        assert isinstance(gift_picker, PickDialog) and "Give which card to Ada" in (
            gift_picker.question
        )
        assert len(gift_picker.choices) == len(view.hand) - 1  # every other card of the hand
        given_slot = gift_picker.choices[0][1]
        await pilot.press("enter")
        await settle(pilot, table)
        gifts = engine_events(table, CardGiven)
        assert gifts[0] == CardGiven(0, 1, given_slot)  # L11: the chosen card went to Ada
        log = table_screen(pilot.app).query_one(GameLog).lines_written  # type: ignore[arg-type]
        given = card_name(view.deck[dict(view.hand)[given_slot] or 0])
        assert f"Tess gave {given} to Ada (bot) (L11)." in log  # the card is named


class GivingBot:
    """Gives a card to seat 0 with its 'give away 1' on its first turn, then plays heuristic."""

    name = "giver"

    def __init__(self) -> None:
        self.fallback = make_bot("heuristic", random.Random(0))

    def choose(self, view: LarryView) -> Action:
        for action in face_up_actions(view):
            if isinstance(action, PlayFaceUp) and action.give is not None and action.target == 0:
                return action
        return self.fallback.choose(view)


async def test_a_received_gift_names_the_giver_and_the_card() -> None:
    """The giver and the card are named: "Ada (bot) gave a 7 to Tess", not only "gave a card"."""
    bot = GivingBot()
    table = LocalTable(2, seed=0, human_name="Tess", bots={1: bot})  # seat 1 holds a give-away
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        await pilot.press("enter", "enter")  # play a card face-down; Ada gives one back
        await settle(pilot, table)
        gifts = engine_events(table, CardGiven)
        assert gifts and gifts[0].target == 0
        view = table.view()
        face = dict(view.hand)[gifts[0].slot]
        assert face is not None
        log = table_screen(pilot.app).query_one(GameLog).lines_written  # type: ignore[arg-type]
        assert f"Ada (bot) gave {card_name(view.deck[face])} to Tess (L11)." in log


async def test_help_and_scores_open_from_the_table() -> None:
    table = LocalTable(3, seed=1, human_name="Tess")
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        await pilot.press("question_mark")
        assert isinstance(pilot.app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("s")
        assert isinstance(pilot.app.screen, ScoresScreen)
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, TableScreen)


def found_table(name: str, port: int) -> DiscoveredTable:
    ad = TableAd("ab" * 16, name, "larry", 2, 4, "fedcba9876543210")
    return DiscoveredTable(f"{name}._fairdeal._tcp.local.", ad, ("127.0.0.1",), port)


def dead_port() -> int:
    """A loopback port nobody listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def assert_the_table_says_nobody_answered(pilot: Pilot[None], port: int) -> None:
    """The player reads what happened, not "the table closed before it began"."""
    await pilot.app.workers.wait_for_complete()  # the table's worker ends with its session
    screen = table_screen(pilot.app)  # type: ignore[arg-type]
    assert any("Could not sit down" in line for line in screen.query_one(GameLog).lines_written)
    hint = static_text(screen.query_one("#hint", Static))
    assert f"nothing is listening at 127.0.0.1:{port}" in " ".join(hint.split())
    assert "closed before the game began" not in hint
    await pilot.press("escape")
    assert isinstance(pilot.app.screen, LobbyScreen)


async def test_the_lobby_lists_tables_and_says_when_one_does_not_answer() -> None:
    port = dead_port()
    app = FairdealApp(
        make_app().player, finder=FixedFinder([found_table("Friday", port)]), reveal_interval=0
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = pilot.app.screen
        assert isinstance(lobby, LobbyScreen)
        assert list(lobby.tables) == ["Friday._fairdeal._tcp.local."]
        await pilot.press("j")
        await assert_the_table_says_nobody_answered(pilot, port)


async def test_opening_a_table_with_bots_from_the_lobby_starts_play() -> None:
    app = FairdealApp(make_app().player, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        assert isinstance(pilot.app.screen, OpenTableDialog)
        await pilot.click("#open")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, TableScreen)
        assert len(screen.session.seats) == 4
        await pilot.press("escape")  # back to the lobby; the table closes
        assert isinstance(pilot.app.screen, LobbyScreen)


async def test_connect_by_hand_checks_the_address_then_says_when_nobody_answers() -> None:
    app = FairdealApp(make_app().player, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await pilot.press(*"nonsense", "enter")
        assert "HOST:PORT" in static_text(pilot.app.screen.query_one("#connect-error", Static))
        pilot.app.screen.query_one(Input).value = ""
        port = dead_port()
        await pilot.press(*f"127.0.0.1:{port}", "enter")
        # The game of a table typed in as HOST:PORT is known only once its lobby answers: the
        # joining screen waits for it, and says why nobody ever did.
        await pilot.app.workers.wait_for_complete()
        screen = pilot.app.screen
        assert isinstance(screen, JoiningScreen)
        news = " ".join(screen.news.split())
        assert "Could not sit down" in news and f"nothing is listening at 127.0.0.1:{port}" in news
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, LobbyScreen)


async def test_clicking_a_card_selects_it_and_a_second_click_plays_it() -> None:
    table = LocalTable(3, seed=1, human_name="Tess")
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        screen = table_screen(pilot.app)  # type: ignore[arg-type]
        assert screen.selected == 0
        await pilot.click(list(screen.query("CardBox"))[2])
        await pilot.pause()
        assert screen.selected == 2
        await pilot.click(list(screen.query("CardBox"))[2])
        await pilot.pause()
        assert isinstance(pilot.app.screen, AnnounceDialog)


class BrokenFinder(FixedFinder):
    async def start(self, on_event: object) -> None:
        raise OSError("no multicast here")


async def test_the_lobby_survives_a_network_without_discovery() -> None:
    app = FairdealApp(make_app().player, finder=BrokenFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = pilot.app.screen
        assert isinstance(lobby, LobbyScreen)
        await pilot.app.workers.wait_for_complete()
        hint = static_text(lobby.query_one("#lobby-hint", Static))
        assert "Discovery unavailable: no multicast here" in hint
        await pilot.press("n")
        assert isinstance(pilot.app.screen, OpenTableDialog)  # the rest of the lobby still works
