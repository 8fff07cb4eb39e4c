"""No stale views: a doubt between other seats never covers YOUR TURN, a hand's
scores never pop up once we have played on, a resumed table does not reopen the views of the
game it replays, and the doubt view says whether it steps on space or plays by itself."""

from __future__ import annotations

from dataclasses import replace

from textual.widgets import Static

from fairdeal.engine.larry import events as ev
from fairdeal.p2p.table.core.api import ProofStatus, ReplayDone, ReplayStarted, StateChanged
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.larry.announce import AnnounceDialog
from fairdeal.ui.games.larry.doubt import DoubtScreen
from fairdeal.ui.games.larry.scores import ScoresScreen
from fairdeal.ui.games.larry.screen import TableScreen
from fairdeal.ui.table_finder import FixedFinder
from fairdeal.ui.widgets.game_log import GameLog

from .fake_session import ScriptedSession
from .support import PLAYER, make_app, settle, static_text, table_screen
from .test_app_notices import caught_up, verification

SLOW = 3600.0  # seconds a card: nothing turns over by itself during a test


def others_doubt() -> object:
    return replace(verification(ProofStatus.VERIFIED, ProofStatus.VERIFIED), doubter=1)


async def test_a_doubt_between_others_closes_when_it_is_our_turn() -> None:
    session = ScriptedSession()
    app = FairdealApp(PLAYER, session=session, finder=FixedFinder(), reveal_interval=SLOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await caught_up(pilot, session)
        session.play_for_us()
        await caught_up(pilot, session)
        session.push(others_doubt())  # type: ignore[arg-type]
        await caught_up(pilot, session)
        doubt = app.screen
        assert isinstance(doubt, DoubtScreen) and doubt.auto_play
        assert "by itself" in static_text(doubt.query_one("#doubt-verdict", Static))
        session.others_play()  # our turn comes while it is still turning cards over
        screen = await caught_up(pilot, session)
        assert app.screen is screen
        assert "YOUR TURN" in static_text(screen.query_one("#hint", Static))
        session.push(others_doubt())  # type: ignore[arg-type]  # one arriving on our turn: log only
        await caught_up(pilot, session)
        assert app.screen is screen


async def test_our_own_doubt_stays_up_on_our_turn_and_steps_on_space() -> None:
    session = ScriptedSession()
    app = FairdealApp(PLAYER, session=session, finder=FixedFinder(), reveal_interval=SLOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await caught_up(pilot, session)
        session.push(verification(ProofStatus.VERIFIED, ProofStatus.VERIFIED))  # Tess doubted
        await caught_up(pilot, session)
        doubt = app.screen
        assert isinstance(doubt, DoubtScreen) and not doubt.auto_play and doubt.shown == 0
        await pilot.press("space")
        assert doubt.shown == 1 and app.screen is doubt


def scored(table: LocalTable) -> StateChanged:
    """A StateChanged saying hand 1 was scored (as the table would after the hand)."""
    return StateChanged(table.state, (ev.HandScored(1, 1, (-2, 2, -1), (-2, 2, -1), ((), (), ())),))


async def test_a_hands_scores_are_dropped_once_we_have_played_on() -> None:
    table = LocalTable(3, seed=1, human_name=PLAYER.name)
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        screen = table_screen(pilot.app)  # type: ignore[arg-type]
        await pilot.press("enter")  # the announce dialog is open: views wait behind it
        assert isinstance(pilot.app.screen, AnnounceDialog)
        await screen.handle(scored(table))
        await pilot.press("enter")  # we play on before the scores could show
        await settle(pilot, table)
        assert not any(isinstance(s, ScoresScreen) for s in pilot.app.screen_stack)
        assert any("Hand 1 over" in line for line in screen.query_one(GameLog).lines_written)


async def test_a_hands_scores_show_when_we_have_not_played_since() -> None:
    table = LocalTable(3, seed=1, human_name=PLAYER.name)
    async with make_app(table).run_test(size=(80, 24)) as pilot:
        await settle(pilot, table)
        screen = table_screen(pilot.app)  # type: ignore[arg-type]
        await pilot.press("enter")
        await screen.handle(scored(table))
        await pilot.press("escape")  # no move made: the scores are still news
        await pilot.pause()
        assert isinstance(pilot.app.screen, ScoresScreen)


async def test_a_resumed_table_logs_the_replayed_game_without_reopening_its_views() -> None:
    session = ScriptedSession()
    app = FairdealApp(PLAYER, session=session, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await caught_up(pilot, session)
        session.push(ReplayStarted("replaying t.transcript…"))
        session.play_for_us()
        session.push(others_doubt())  # type: ignore[arg-type]
        session.push(verification(ProofStatus.VERIFIED))  # even our own old doubt
        session.push(ReplayDone("resumed from t.transcript: 40 entries"))
        screen = await caught_up(pilot, session)
        assert isinstance(app.screen, TableScreen)
        log = screen.query_one(GameLog).lines_written
        assert log.index("replaying t.transcript…") < log.index(
            "resumed from t.transcript: 40 entries"
        )
        session.push(verification(ProofStatus.VERIFIED))  # a live doubt shows again
        await caught_up(pilot, session)
        assert isinstance(app.screen, DoubtScreen)
