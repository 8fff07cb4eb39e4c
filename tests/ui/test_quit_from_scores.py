"""q quits from a game's score table too: the table's scores are a modal screen, which stops
the app's own bindings, so q (the footer's "Quit") did nothing while The Lie's "Game over" table
was open, the last screen of every game. q there goes through the app's quit, which still asks
first at a networked game in progress (ui/app.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from textual.screen import Screen

from fairdeal.engine.lie import LieOptions
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.games.larry.scores import ScoresScreen
from fairdeal.ui.games.lie.scores import LieScoresScreen

from .support import PLAYER, make_app

WAIT_S = 10.0


def lie_scores(table: LocalTable) -> Screen[None]:
    return LieScoresScreen(table.seats, [], None, ("A", "B", "C", "D"), "Game over")


def larry_scores(table: LocalTable) -> Screen[None]:
    return ScoresScreen(table.seats, [(1, -1)], [0], "Game over")


@pytest.mark.parametrize(
    ("game", "scores"), [("lie", lie_scores), ("larry", larry_scores)], ids=["lie", "larry"]
)
async def test_q_in_the_score_table_quits_the_app(
    game: str, scores: Callable[[LocalTable], Screen[None]]
) -> None:
    options = LieOptions(rounds=1, hand_size=2) if game == "lie" else None
    table = LocalTable(2, game=game, seed=1, human_name=PLAYER.name, options=options)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.push_screen(scores(table))
        await pilot.pause()
        assert app.screen.is_modal
        await pilot.press("q")
        async with asyncio.timeout(WAIT_S):
            while app.is_running:
                await pilot.pause()
