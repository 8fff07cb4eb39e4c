"""The Lie's networked display, driven by a table that reports what a networked
seat does (tests/ui/lie_network_fake.py): setup progress, claimed fronts arriving, each play's
proof ✓ or ✗ and the fault screen, the prizes with their proofs, waiting and departed seats, and
leaving; at 80×24. The real thing over loopback sockets is tests/game/test_netui_lie.py.

Bots move with no delay and every wait is on the table being idle and the screen having handled
every event: no sleeps.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from fairdeal.engine.lie import Phase
from fairdeal.engine.lie.events import GameOver, Played
from fairdeal.p2p.table.core.api import SeatLeft, SeatStatus, StateChanged
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.lie.scores import LieScoresScreen
from fairdeal.ui.games.lie.screen import LieTableScreen
from fairdeal.ui.games.lie.widgets.hand import LieHandView
from fairdeal.ui.games.lie.widgets.players import LiePlayersView
from fairdeal.ui.games.lie.widgets.trick import LieTrickView
from fairdeal.ui.screens.confirm import ConfirmDialog
from fairdeal.ui.screens.fault import FaultScreen
from fairdeal.ui.widgets.game_log import GameLog

from .lie_network_fake import NetworkLikeLieTable
from .support import make_app, static_text
from .test_lie_app_pilot import grab_a_hand, lie_screen, settle

SIZE = (80, 24)
pytestmark = pytest.mark.timeout(60)


def text_of(widget: object) -> str:
    return static_text(widget)  # type: ignore[arg-type]


def logged(app: FairdealApp) -> list[str]:
    return lie_screen(app).query_one(GameLog).lines_written


def played(table: LocalTable) -> list[Played]:
    return [
        e
        for ev in table.history
        if isinstance(ev, StateChanged)
        for e in ev.events
        if isinstance(e, Played)
    ]


def assert_usable_at_80x24(screen: LieTableScreen, *, building: bool) -> None:
    """At 80×24 the status, the players (every seat), the hand, the hint and, in
    Phase 2, the trick are all on screen, each at least one line tall."""
    parts: list[object] = ["#lie-status", LiePlayersView, LieHandView, "#lie-hint"]
    if not building:
        parts.append(LieTrickView)
    for part in parts:
        region = screen.query_one(part).region  # type: ignore[call-overload]
        assert region.height >= 1 and region.bottom <= SIZE[1] and region.right <= SIZE[0], part
    players = screen.query_one(LiePlayersView).region
    assert players.height >= len(screen.session.seats)


async def caught_up(pilot: Pilot[None], table: LocalTable) -> None:
    """The screen has handled every event so far (the bots, on a slow pace, are never idle)."""
    screen = lie_screen(pilot.app)  # type: ignore[arg-type]
    while screen.events_seen < table.event_count or screen.current_view() is None:
        await pilot.pause()
    await pilot.pause()


async def until_played(pilot: Pilot[None], table: LocalTable, count: int = 1) -> None:
    """Phase 2: play (else pass) at our goes until `count` combinations are on the table, the
    game is over or it stopped."""
    while len(played(table)) < count and not table.state.over and not table._stopped:
        await settle(pilot, table)
        if isinstance(pilot.app.screen, LieScoresScreen | FaultScreen):
            return
        view = table.view()
        if view.phase is Phase.PLAY and view.my_turn:
            before = table.event_count
            await pilot.press("enter")
            if table.event_count == before:
                await pilot.press("p")
        await settle(pilot, table)


async def test_the_seats_keying_and_shuffling_show_before_the_first_state() -> None:
    table = NetworkLikeLieTable(3, hold_setup=True, rounds=1, hand_size=3)
    async with make_app(table).run_test(size=SIZE) as pilot:
        screen = lie_screen(pilot.app)  # type: ignore[arg-type]
        while screen.events_seen < table.event_count or not screen.events_seen:
            await pilot.pause()
        hint = text_of(screen.query_one("#lie-hint"))
        assert (
            "Setting up the table: shuffling the deck: Ben done, 1 of 3 seats · 7 proofs checked"
            in " ".join(hint.split())
        )
        assert "Setup: keys done" not in " ".join(logged(pilot.app))  # a seat still at work
        table.go.set()
        await settle(pilot, table)
        assert any("Setup: every seat's shuffle is done" in line for line in logged(pilot.app))
        assert "Phase 1" in text_of(screen.query_one("#lie-status"))
        assert_usable_at_80x24(screen, building=True)


async def test_a_claimed_front_shows_as_dots_until_its_shares_arrive_then_proved() -> None:
    table = NetworkLikeLieTable(3, hold_fronts=True, rounds=1, hand_size=4)
    async with make_app(table).run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        await pilot.press("enter")
        await settle(pilot, table)
        hand = lie_screen(pilot.app).query_one(LieHandView)  # type: ignore[arg-type]
        assert [face for face, _ in hand.cards] == [-1]  # T3: claimed, its front on the way
        assert "··" in str(hand.render()) and "1 front(s) on the way" in str(hand.border_title)
        table.arrive()
        await settle(pilot, table)
        (slot,) = table.state.hands[0]
        face = table._driver.knowledge[0][slot]
        assert [f for f, _ in hand.cards] == [face] and "on the way" not in str(hand.border_title)
        assert any(line.startswith("Your ") and "✓ proved" in line for line in logged(pilot.app))
        # T3: a second card waits beside the hand, unplaceable, until its front is known.
        screen = lie_screen(pilot.app)  # type: ignore[arg-type]
        await pilot.press("enter")
        await settle(pilot, table)
        taken = table.state.unplaced[0]
        assert taken is not None and hand.new_card == (-1, table.state.backs[taken])
        assert "front is on its way" in text_of(screen.query_one("#lie-status"))
        await pilot.press("left")
        await settle(pilot, table)
        assert table.state.unplaced[0] == taken  # not placed blind
        assert "still on its way" in " ".join(text_of(screen.query_one("#lie-hint")).split())
        table.arrive()
        await settle(pilot, table)
        assert "place the" in text_of(screen.query_one("#lie-status"))
        await pilot.press("left")
        await settle(pilot, table)
        assert table.state.hands[0] == (taken, slot) and hand.new_card is None


async def test_a_claim_that_loses_its_race_is_said_void_with_the_winner() -> None:
    """T3 at a networked table: a claim takes effect once settled; when another seat's claim of
    the same card wins the race, the player is told who won and that theirs is void."""
    table = NetworkLikeLieTable(3, defer_claims=True, claim_pace=60.0, rounds=1, hand_size=3)
    async with make_app(table).run_test(size=SIZE) as pilot:
        await table.go.wait()
        await caught_up(pilot, table)
        await pilot.press("enter")
        await caught_up(pilot, table)
        (claim,) = table.pending
        assert claim.slot not in table.view().table and table.state.hands[0] == ()
        table.lose_race(1)
        await caught_up(pilot, table)
        assert claim.slot in table.state.hands[1] and table.state.hands[0] == ()
        hint = " ".join(text_of(lie_screen(pilot.app).query_one("#lie-hint")).split())
        assert "✗ Ben won the race for the" in hint and "your claim is void" in hint


async def test_every_played_combination_carries_its_proof_and_the_prizes_theirs() -> None:
    table = NetworkLikeLieTable(3, seed=2, rounds=1, hand_size=3)
    async with make_app(table).run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        await grab_a_hand(pilot, table)
        await until_played(pilot, table, 2)
        screen = lie_screen(pilot.app)  # type: ignore[arg-type]
        trick = text_of(screen.query_one(LieTrickView))
        assert trick.count("✓") >= 1 and "✗" not in trick  # T5: each proved play is marked
        assert_usable_at_80x24(screen, building=False)
        await until_played(pilot, table, 99)  # to the end of the game
        await settle(pilot, table)
        assert table.state.over
        over = next(
            e
            for ev in table.history
            if isinstance(ev, StateChanged)
            for e in ev.events
            if isinstance(e, GameOver)
        )
        winners = [s for s, count in enumerate(over.prize_counts) if count]
        lines = logged(pilot.app)
        assert any("prizes turned over" in line and "✓ proved" in line for line in lines)
        scores = pilot.app.screen
        assert isinstance(scores, LieScoresScreen)  # T10: the prizes turned over, each proved
        assert set(scores.prize_proofs) >= set(winners)
        assert "✓" in str(scores.score_table().columns[-2]._cells)


async def test_a_failed_proof_is_a_cross_and_the_fault_screen_names_the_cheat() -> None:
    table = NetworkLikeLieTable(3, seed=2, cheat_seat=1, rounds=1, hand_size=3)
    async with make_app(table).run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        await grab_a_hand(pilot, table)
        await until_played(pilot, table, 99)
        await settle(pilot, table)
        assert table._stopped
        fault = pilot.app.screen
        assert isinstance(fault, FaultScreen)
        assert fault.fault.seat == 1 and fault.seat_name == "Ben"
        await pilot.press("enter")
        await pilot.pause()
        screen = lie_screen(pilot.app)  # type: ignore[arg-type]
        assert "✗" in text_of(screen.query_one(LieTrickView))  # the play whose proof failed
        assert "✗ stopped: FAULT by Ben" in text_of(screen.query_one("#lie-status"))
        assert "Ben broke the rules" in text_of(screen.query_one("#lie-hint"))
        assert any(line.startswith("✗ FAULT by Ben") for line in logged(pilot.app))


async def test_a_local_table_shows_no_proof_marks() -> None:
    from .test_lie_app_pilot import lie_table

    table = lie_table(seed=2, players=3, rounds=1, hand_size=3)
    async with make_app(table).run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        await grab_a_hand(pilot, table)
        await until_played(pilot, table, 2)
        trick = text_of(lie_screen(pilot.app).query_one(LieTrickView))  # type: ignore[arg-type]
        assert len(played(table)) >= 1 and "✓" not in trick and "✗" not in trick
        assert any("no proofs are needed" in line for line in logged(pilot.app))


async def test_waiting_offline_and_departed_seats_and_leaving_ask_first() -> None:
    table = NetworkLikeLieTable(3, rounds=1, hand_size=3)
    async with make_app(table).run_test(size=SIZE) as pilot:
        await settle(pilot, table)
        screen = lie_screen(pilot.app)  # type: ignore[arg-type]
        table._emit(SeatStatus(1, connected=False, waiting_seconds=31.0))
        await settle(pilot, table)
        players = text_of(screen.query_one(LiePlayersView))
        assert "OFFLINE" in players and "WAIT" in players
        assert_usable_at_80x24(screen, building=True)
        assert any("Ben is holding up the game (31 s)" in line for line in logged(pilot.app))
        table._emit(SeatStatus(1, False, 33.0, owes=("its next envelope",)))
        await settle(pilot, table)
        assert "Waiting for Ben: its next envelope" in text_of(screen.query_one("#lie-hint"))
        table._emit(SeatStatus(1, connected=True))
        await settle(pilot, table)
        assert "OFFLINE" not in text_of(screen.query_one(LiePlayersView))
        assert "Waiting for" not in text_of(screen.query_one("#lie-hint"))
        assert any("Ben is connected again" in line for line in logged(pilot.app))
        table._emit(SeatLeft(2, "Cleo left the table"))
        await settle(pilot, table)
        assert "LEFT" in text_of(screen.query_one(LiePlayersView))
        assert "Cleo left the table: e ends it" in text_of(screen.query_one("#lie-hint"))
        await pilot.press("escape")  # a networked game in progress: asks first
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        await pilot.press("escape")  # keep playing
        await pilot.pause()
        assert isinstance(pilot.app.screen, LieTableScreen)
        await pilot.press("e")  # end the table Cleo left, with the result so far
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        await pilot.press("enter")
        await settle(pilot, table)
        ended = screen.ended
        assert ended is not None and "ended the table after Cleo left" in ended.reason
        # The Lie's result so far: rounds played, prize cards won; unseen points lead nobody (T8)
        assert (ended.hands, ended.scores, ended.leaders) == (0, (0, 0, 0), ())
        assert any("nobody leads: T8" in line for line in logged(pilot.app))
