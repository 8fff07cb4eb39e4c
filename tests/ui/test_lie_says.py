"""What The Lie's table says: the header tells the phase and whose go it is (or that everyone
grabs) from the state; notices name players and cards' backs; the prizes turned over come after
the round's end in the log; prize backs are spaced."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from fairdeal.engine.lie import Phase
from fairdeal.engine.lie.events import RoundEnded
from fairdeal.engine.requests import Arrange
from fairdeal.p2p.games.lie.events import ClaimVoid
from fairdeal.p2p.table.core.api import SetupProgress, StateChanged
from fairdeal.ui.games.lie.narrator import claim_void_text
from fairdeal.ui.games.lie.widgets.players import LiePlayersView
from fairdeal.ui.widgets.game_log import GameLog

from .support import make_app, static_text
from .test_lie_app_pilot import grab_a_hand, lie_screen, lie_table, play_my_goes, settle

SIZE = (80, 24)


def status(app: object) -> str:
    return " ".join(static_text(lie_screen(app).query_one("#lie-status")).split())  # type: ignore[arg-type]


def test_a_void_claim_names_the_players_and_the_cards_back() -> None:
    """The table says a void claim with seat and slot numbers and their meaning (ClaimVoid, from
    p2p/games/lie/table.py); the players read names and the card's back (T3)."""
    names = ["Tess", "Ada", "Ben"]
    backs = {59: 5, 7: 0}  # back 5 is y2 (colour 1, number 2), back 0 is r1
    letters = ("r", "y", "g", "b")
    tie = ClaimVoid("seat 1's claim of slot 7 is void: …", seat=1, slot=7, winner=0)
    assert claim_void_text(tie, names, backs, letters) == (
        "Ada and Tess went for the r1 at the same moment: Tess won the draw (T3)"
    )
    late = ClaimVoid("seat 0's claim of slot 59 is void: …", seat=0, slot=59, winner=None)
    assert claim_void_text(late, names, backs, letters) == (
        "Tess was too late for the y2: someone took it first (T3)"
    )


async def test_the_header_tells_the_phase_and_whose_go_from_the_state() -> None:
    table = lie_table(seed=3, hand_size=4)  # the header's words, not the hands' size, are the point
    async with make_app(table).run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        # the bots (no pace) have filled their hands: the header names who still grabs
        assert "Phase 1: Tess still grabbing" in status(pilot.app)
        screen = lie_screen(pilot.app)  # type: ignore[arg-type]
        states = [e.state for e in table.history if isinstance(e, StateChanged)]
        opened = next(st for st in states if st.claims_open())
        # a networked table waits for the layout's joint coin before anyone grabs (T1)
        laying = replace(opened, pending=(Arrange(1, tuple(opened.table), "layout"),))
        assert "Phase 1 · laying out the cards" in screen.status_text(
            SimpleNamespace(state=laying, seat=0, unplaced=None)  # type: ignore[arg-type]
        )
        assert "Phase 1: everyone grabs at once" in screen.status_text(
            SimpleNamespace(state=opened, seat=0, unplaced=None)  # type: ignore[arg-type]
        )
        # a claim's deal started at a networked table is no setting up (it said "deal 0/3")
        await screen.handle(SetupProgress("deal", None, 0, 3, 51))
        await pilot.pause()
        assert "setting up" not in status(pilot.app) and "0/3" not in status(pilot.app)
        await grab_a_hand(pilot, table)
        await settle(pilot, table)
        assert table.state.phase is Phase.PLAY
        # a play's reveal neither: the header keeps telling the trick and whose go it is
        await screen.handle(SetupProgress("reveal", None, 0, 1, 123))
        await pilot.pause()
        seat = table.state.to_act()
        go = "YOUR GO" if seat == 0 else f"{table.seats[seat].name}'s go"
        assert f"Phase 2: trick {table.state.trick_no} · {go}" in status(pilot.app)
        assert "reveal" not in status(pilot.app)


async def test_between_rounds_the_setup_shows_until_the_state_it_made() -> None:
    table = lie_table(seed=3)
    async with make_app(table).run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        screen = lie_screen(pilot.app)  # type: ignore[arg-type]
        await screen.handle(SetupProgress("arrange", 0, 0, 4, 51))
        await pilot.pause()
        assert "setting up: drawing where the cards lie · 51 proofs checked" in status(pilot.app)
        await pilot.press("enter")  # our claim (T3: Enter takes the card): a new state
        await settle(pilot, table)
        assert "setting up" not in status(pilot.app)


async def test_the_prizes_turned_over_come_after_the_last_trick_and_the_rounds_end() -> None:
    table = lie_table(
        seed=8, players=3, rounds=1, hand_size=4
    )  # small hands: the log's order is the point
    async with make_app(table).run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        await grab_a_hand(pilot, table)
        await play_my_goes(pilot, table, RoundEnded)
        await settle(pilot, table)
        lines = lie_screen(pilot.app).query_one(GameLog).lines_written  # type: ignore[arg-type]
        over = next(i for i, line in enumerate(lines) if line.startswith("Round 1 is over"))
        prizes = [i for i, line in enumerate(lines) if "prizes turned over" in line]
        assert prizes and min(prizes) > over, lines[over - 3 :]


async def test_prize_backs_are_spaced_in_the_players_panel() -> None:
    # small hands: round 1's prizes are the point, and the winner's 3 (T8) make a row to space
    table = lie_table(seed=8, players=3, rounds=2, hand_size=4)
    async with make_app(table).run_test(size=(120, 40)) as pilot:
        await settle(pilot, table)
        await grab_a_hand(pilot, table)
        await play_my_goes(pilot, table, RoundEnded)
        await settle(pilot, table)
        await pilot.press("enter")  # close the round's scores
        await settle(pilot, table)
        panel = lie_screen(pilot.app).query_one(LiePlayersView)  # type: ignore[arg-type]
        text = static_text(panel, width=118)
        rows = [row for row in text.splitlines() if "prizes" in row]
        assert rows, text
        assert any(len(row.split("prizes", 1)[1].split()) >= 2 for row in rows), text
        for row in rows:
            backs = row.split("prizes", 1)[1].split()
            assert all(len(back) == 2 for back in backs), row  # "r1 r1", never "r1r1"


async def test_the_last_player_of_a_small_round_takes_a_place_without_going_out() -> None:
    """T7: with 3 players the round ends when one is left, who takes 3rd place with cards in
    hand; the players panel said "3rd out" of a player who never went out."""
    table = lie_table(seed=8, players=3, rounds=1, hand_size=4)
    async with make_app(table).run_test(size=(120, 40)) as pilot:
        await settle(pilot, table)
        await grab_a_hand(pilot, table)
        await play_my_goes(pilot, table, RoundEnded)
        await settle(pilot, table)
        placement = table.state.placement
        assert len(placement) == 3 and table.state.hands[placement[-1]]  # cards left (T7)
        panel = lie_screen(pilot.app).query_one(LiePlayersView)  # type: ignore[arg-type]
        text = static_text(panel, width=118)
        assert "1st out" in text and "2nd out" in text, text
        assert "3rd place" in text and "3rd out" not in text, text
