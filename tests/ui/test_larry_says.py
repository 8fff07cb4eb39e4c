"""What the Larry table says: the announce dialog's pre-fill, the seats' columns, the doubt's
result after its cards are turned, L6's reason, the hint after game over."""

from __future__ import annotations

from types import SimpleNamespace

from textual.app import App

from fairdeal.p2p.table.core.api import SeatInfo, SetupProgress
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.larry.announce import AnnounceDialog
from fairdeal.ui.games.larry.doubt import DoubtScreen
from fairdeal.ui.games.larry.scores import ScoresScreen
from fairdeal.ui.games.larry.widgets.seat_list import SeatList
from fairdeal.ui.games.larry.widgets.table_status import TableStatus, total_text
from fairdeal.ui.table_finder import FixedFinder
from fairdeal.ui.widgets.game_log import GameLog
from fairdeal.ui.widgets.keyed_input import KeyedInput
from fairdeal.ui.widgets.setup_progress import setup_text

from .support import PLAYER, make_app, settle, static_text, table_screen


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


def log_lines(app: FairdealApp) -> list[str]:
    return table_screen(app).query_one(GameLog).lines_written


async def test_a_doubts_result_reaches_the_log_once_its_cards_are_turned() -> None:
    """L9: the doubt view turns the pile over card by card; the log behind it must not tell the
    result first (it did: "The pile adds up to …" was in the log before the first card turned)."""
    table = LocalTable(4, seed=1, human_name=PLAYER.name)
    app = FairdealApp(PLAYER, session=table, finder=FixedFinder(), reveal_interval=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, table)
        await pilot.press("enter", "enter")
        await settle(pilot, table)
        await pilot.press("d")
        await settle(pilot, table)
        assert isinstance(app.screen, DoubtScreen) and app.screen.shown == 0
        assert any("doubted" in line for line in log_lines(app))
        assert not any("adds up to" in line for line in log_lines(app))
        await pilot.press("enter")  # turn every card over
        await pilot.pause()
        assert any("adds up to" in line for line in log_lines(app))
        picked = [i for i, line in enumerate(log_lines(app)) if "picked up 2" in line]
        result = [i for i, line in enumerate(log_lines(app)) if "adds up to" in line]
        assert picked and result[0] < picked[-1]  # in the order the game went


def seat_rows(in_front: tuple[int, ...], out_seat: int | None) -> list[str]:
    """The seats panel's rows, 38 columns wide, for four seats of 7 cards."""
    seats = [
        SeatInfo("Tess", "", False, True),
        SeatInfo("Ada (bot)", "", True, False),
        SeatInfo("Ben", "01234 56789 13579 24680 11223", False, False),
        SeatInfo("Cleo (bot)", "", True, False),
    ]
    view = SimpleNamespace(
        to_act=0,
        state=SimpleNamespace(hands=[(1,) * 7] * 4),
        in_front=[(0,) * n for n in in_front],
        obligated=[False] * 4,
        out_seat=out_seat,
        scores=[0, -3, 12, 0],
    )
    widget = SeatList()
    widget.seats = tuple(seats)
    widget.view = view  # type: ignore[assignment]
    return static_text(widget, width=38).splitlines()


def test_the_seats_columns_stay_put_when_up_and_out_appear() -> None:
    plain = seat_rows((0, 0, 0, 0), None)
    noted = seat_rows((0, 1, 0, 0), 3)
    assert "UP!" in noted[1] and "OUT" in noted[3]
    for before, after in zip(plain, noted, strict=True):
        assert before.index("cards") == after.index("cards"), (before, after)


async def test_the_table_panel_says_why_a_doubt_goes_to_a_face_up_player() -> None:
    """L6: a face-up action card makes its player the last player, whom a doubt is against."""
    seats = [SeatInfo(n, "", False, n == "Tess") for n in ("Tess", "Ada", "Cleo")]
    view = SimpleNamespace(
        pile=[(5, None), (9, None)],
        pile_seats=[1, 1],
        state=SimpleNamespace(revealed=frozenset()),
        announced=4,
        last_player=2,
    )
    text = total_text(view, seats).plain  # type: ignore[arg-type]
    assert text == "Announced 4 (by Ada); doubt goes to Cleo, who played last (L6)"


async def test_no_card_hint_after_the_game_is_over() -> None:
    table = LocalTable(2, seed=1, human_name=PLAYER.name)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        screen = table_screen(app)
        view = screen.current_view()
        assert view is not None and "Card 1 of" in screen.hint_text(view)
        # the same hand, once the game is over (L18): nothing is left to play
        over = SimpleNamespace(hand=view.hand, deck=view.deck, state=SimpleNamespace(over=True))
        hint = screen.hint_text(over)  # type: ignore[arg-type]
        assert hint == "The game is over. s: scores · n: new game · Esc: lobby · q: quit"


def test_setup_progress_reads_in_words() -> None:
    seats = [SeatInfo(n, "", False, n == "Tess") for n in ("Tess", "Ada", "Ben")]
    assert setup_text(SetupProgress("deal", None, 0, 3, 12), seats) == (
        "dealing the cards · 12 proofs checked"
    )
    assert setup_text(SetupProgress("reveal", None, 0, 1, 0), seats) == "turning cards over"
    assert setup_text(SetupProgress("shuffle", 1, 2, 3, 4), seats) == (
        "shuffling the deck: Ada done, 2 of 3 seats · 4 proofs checked"
    )
    assert setup_text(SetupProgress("deal", None, 3, 3, 0), seats) == "the cards are dealt"


async def test_a_networked_deals_progress_clears_once_the_cards_are_dealt() -> None:
    """The driver says when a deal or a doubt's reveal starts, not when it ends ("deal 0/3, 12
    proofs ok" stayed in the table panel all hand): the next state ends it."""
    table = LocalTable(3, seed=1, human_name=PLAYER.name)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        screen = table_screen(app)
        status = screen.query_one(TableStatus)
        await screen.handle(SetupProgress("reveal", None, 0, 1, 12))
        await pilot.pause()
        assert "turning cards over" in static_text(status)
        await pilot.press("enter", "enter")  # our play: a new state
        await settle(pilot, table)
        assert "turning cards over" not in static_text(status)
        assert "proofs" not in static_text(status) and " 0/" not in static_text(status)


async def test_the_scores_before_any_hand_say_that_no_hand_has_ended() -> None:
    """`s` in the first hand showed "Scores after hand 0"."""
    table = LocalTable(4, seed=1, human_name=PLAYER.name)
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        await pilot.press("s")
        await pilot.pause()
        scores = pilot.app.screen
        assert isinstance(scores, ScoresScreen), scores
        assert "hand 0" not in scores.title_text
        assert scores.title_text == "Scores: no hand has ended yet (L18)"


async def test_a_refusal_names_the_player_and_the_keys_words() -> None:
    """L16's refusal read "seat 2 went out: doubt or accept": a seat number where the table shows
    names, and "accept" where the key bar says "Let go"."""
    table = LocalTable(3, seed=1, human_name=PLAYER.name)
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        screen = table_screen(pilot.app)
        await screen.refuse("seat 1 went out: doubt or let it go, nothing else (L16)")
        assert screen.message.startswith(f"✗ Not allowed: {screen.names[1]} went out"), (
            screen.message
        )
