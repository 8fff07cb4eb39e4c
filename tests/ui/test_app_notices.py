"""Faults, seats holding up the game and lost connections are shown plainly."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

import fairdeal.ui.games.larry.screen as table_module
from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.p2p.table.core.api import (
    FaultDetected,
    ProofStatus,
    SeatStatus,
    SetupProgress,
    VerifiedCard,
)
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.larry.doubt import DoubtScreen
from fairdeal.ui.games.larry.help import HELP_TEXT
from fairdeal.ui.games.larry.screen import TableScreen
from fairdeal.ui.games.larry.widgets.seat_list import SeatList
from fairdeal.ui.screens.fault import FaultScreen
from fairdeal.ui.table_finder import FixedFinder
from fairdeal.ui.widgets.game_log import GameLog

from .fake_session import ScriptedSession
from .support import PLAYER, static_text


async def caught_up(pilot: Pilot[None], session: ScriptedSession, opening: int = 1) -> TableScreen:
    screen = next(s for s in pilot.app.screen_stack if isinstance(s, TableScreen))
    while screen.events_seen < session.pushed + opening:  # the opening StateChanged, if any
        await pilot.pause()
    await pilot.pause()
    return screen


def app_for(session: ScriptedSession) -> FairdealApp:
    return FairdealApp(PLAYER, session=session, finder=FixedFinder(), reveal_interval=0)


async def test_a_fault_opens_a_screen_naming_the_seat_and_the_evidence() -> None:
    session = ScriptedSession()
    async with app_for(session).run_test(size=(80, 24)) as pilot:
        await caught_up(pilot, session)
        session.push(FaultDetected(1, "wrong decryption share", "slot 12: proof failed"))
        screen = await caught_up(pilot, session)
        fault = pilot.app.screen
        assert isinstance(fault, FaultScreen)
        text = " ".join(static_text(w) for w in fault.query(Static))
        assert "Mallory" in text and "wrong decryption share" in text and "slot 12" in text
        log = screen.query_one(GameLog).lines_written
        assert any(line.startswith("FAULT by Mallory") for line in log)
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, TableScreen)


async def test_a_seat_holding_up_the_game_is_marked_and_announced() -> None:
    session = ScriptedSession()
    async with app_for(session).run_test(size=(80, 24)) as pilot:
        await caught_up(pilot, session)
        session.push(SeatStatus(2, connected=True, waiting_seconds=31.0))
        session.push(SeatStatus(2, connected=True, waiting_seconds=32.0))
        session.push(SeatStatus(1, connected=False))
        screen = await caught_up(pilot, session)
        seats = static_text(screen.query_one(SeatList), width=38)
        assert "WAIT 32s" in seats and "OFFLINE" in seats
        log = screen.query_one(GameLog).lines_written
        assert log.count("Sam is holding up the game (31 s).") == 1  # said once, shown live
        assert "Mallory lost the connection." in log
        assert sum("holding up" in n.message for n in pilot.app._notifications) == 1
        session.push(SeatStatus(2, connected=True))
        session.push(SeatStatus(1, connected=True))
        await caught_up(pilot, session)
        seats = static_text(screen.query_one(SeatList), width=38)
        assert "WAIT" not in seats and "OFFLINE" not in seats
        assert log[-2:] == ["Sam is playing again.", "Mallory is connected again."]


async def test_a_stall_names_the_seat_and_what_it_owes_in_the_log_and_the_hint() -> None:
    """protocol.md 10.6: "waiting for Sam: shares for the doubt", as the peer's silence watch
    reports it (`SeatStatus.owes`, from `TableDriver.owes`)."""
    session = ScriptedSession()
    async with app_for(session).run_test(size=(80, 24)) as pilot:
        await caught_up(pilot, session)
        session.push(SeatStatus(2, True, 31.0, owes=("shares for the doubt",)))
        screen = await caught_up(pilot, session)
        log = screen.query_one(GameLog).lines_written
        assert "Waiting for Sam: shares for the doubt (31 s)." in log
        assert "Waiting for Sam: shares for the doubt" in static_text(screen.query_one("#hint"))
        session.push(SeatStatus(2, connected=True))
        await caught_up(pilot, session)
        assert "Waiting for" not in static_text(screen.query_one("#hint"))


async def test_a_seat_withholding_its_coin_reveal_is_named_as_such() -> None:
    """The table screen says which seat withholds the coin and that the table
    may be ended with that evidence."""
    session = ScriptedSession()
    async with app_for(session).run_test(size=(80, 24)) as pilot:
        await caught_up(pilot, session)
        what = "withheld its reveal of the 'first-player' coin"
        session.push(SeatStatus(2, connected=True, waiting_seconds=31.0, withholding=what))
        screen = await caught_up(pilot, session)
        log = screen.query_one(GameLog).lines_written
        assert f"Sam {what} (31 s): the table may be ended with that evidence." in log
        assert any("withheld its reveal" in n.message for n in pilot.app._notifications)


async def test_setup_progress_names_the_seat_at_work() -> None:
    session = ScriptedSession()
    async with app_for(session).run_test(size=(80, 24)) as pilot:
        await caught_up(pilot, session)
        session.push(SetupProgress("shuffle", 1, 2, 3, 14))
        screen = await caught_up(pilot, session)
        status = static_text(screen.query_one("#status", Static))
        assert "shuffling the deck: Mallory done, 2 of 3 seats · 14 proofs checked" in status


async def test_before_the_table_has_a_state_setup_is_shown_and_keys_are_harmless() -> None:
    session = ScriptedSession(ready=False)
    async with app_for(session).run_test(size=(80, 24)) as pilot:
        session.push(SetupProgress("shuffle", 2, 3, 3, 9))
        screen = await caught_up(pilot, session, opening=0)
        hint = static_text(screen.query_one("#hint", Static))
        assert "Setting up the table: shuffling the deck: Sam done, 3 of 3 seats · 9" in hint
        await pilot.press("right", "enter", "u", "l", "s")
        await pilot.press("escape")  # closes the score table opened by s
        await pilot.press("d")
        assert "Not allowed" in static_text(screen.query_one("#hint", Static))
        session.begin()
        await caught_up(pilot, session, opening=0)
        assert "YOUR TURN" in static_text(screen.query_one("#hint", Static))


def verification(*proofs: ProofStatus) -> DoubtVerification:
    cards = tuple(
        VerifiedCard(slot=10 + i, seat=i % 3, face=i, face_up=False, proof=proof)
        for i, proof in enumerate(proofs)
    )
    return DoubtVerification(
        doubter=0,
        last_player=2,
        cards=cards,
        announced=7,
        true_total=21,
        gloats=0,
        correct=False,
        loser=2,
    )


async def test_the_doubt_view_turns_cards_one_by_one_and_marks_each_proof() -> None:
    session = ScriptedSession()
    app = FairdealApp(PLAYER, session=session, finder=FixedFinder(), reveal_interval=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await caught_up(pilot, session)
        session.push(verification(ProofStatus.VERIFIED, ProofStatus.FAILED, ProofStatus.VERIFIED))
        await caught_up(pilot, session)
        doubt = pilot.app.screen
        assert isinstance(doubt, DoubtScreen) and doubt.shown == 0
        cards = doubt.query_one("#doubt-cards", Static)
        assert static_text(cards).count("??") == 3
        await pilot.press("space")
        assert doubt.shown == 1 and "✓ proved" in static_text(cards)
        # our doubt steps on space, and says so
        assert "Press space" in static_text(doubt.query_one("#doubt-verdict", Static))
        await pilot.press("enter")  # the rest at once
        text = static_text(cards)
        assert text.count("✓ proved") == 2 and text.count("✗ FAILED") == 1
        verdict = static_text(doubt.query_one("#doubt-verdict", Static))
        assert "True total 21, announced 7" in verdict and "WRONG" in verdict
        assert "Sam picks up 2 (L9)" in verdict
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, TableScreen)
        session.push(verification(ProofStatus.VERIFIED, ProofStatus.VERIFIED))
        await caught_up(pilot, session)
        assert isinstance(pilot.app.screen, DoubtScreen) and pilot.app.screen.shown == 0
        await pilot.press("escape")  # close at once, mid-way
        assert isinstance(pilot.app.screen, TableScreen)


def test_the_help_cites_every_larry_ruling() -> None:
    for ruling in range(1, 19):
        assert f"**L{ruling}**" in HELP_TEXT


async def test_a_doubt_between_others_closes_by_itself_ours_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_module, "DOUBT_LINGER_S", 1.0)  # long enough to see it first
    session = ScriptedSession()
    app = FairdealApp(PLAYER, session=session, finder=FixedFinder(), reveal_interval=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await caught_up(pilot, session)
        session.play_for_us()  # Mallory is to act: a doubt between others may show
        await caught_up(pilot, session)
        others = replace(verification(ProofStatus.VERIFIED), doubter=1, last_player=2)
        session.push(others)
        await caught_up(pilot, session)
        assert isinstance(pilot.app.screen, DoubtScreen) and pilot.app.screen.linger == 1.0
        async with asyncio.timeout(10):
            while not isinstance(pilot.app.screen, TableScreen):
                await pilot.pause(0.02)  # re-check: it closes itself after the linger
        session.push(verification(ProofStatus.VERIFIED))  # Tess doubted: stays up
        await caught_up(pilot, session)
        doubt = pilot.app.screen
        assert isinstance(doubt, DoubtScreen) and doubt.linger is None
        assert "Press space" in static_text(doubt.query_one("#doubt-verdict", Static))
        await pilot.press("space")  # ours steps on a key press, never by itself
        assert doubt.shown == 1
        assert pilot.app.screen is doubt
