"""Networked play from the app over loopback: open a table with bot peers, doubt, see proofs;
join a hosted table by HOST:PORT or from the lobby list; every seat sees the same game."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Select, Static

from fairdeal.engine.bots import make_bot
from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.p2p.lobby.discovery import LOOPBACK, DiscoveredTable
from fairdeal.p2p.table.core.api import ProofStatus, StateChanged
from fairdeal.p2p.table.tools.audit import audit_transcript
from fairdeal.p2p.table.tools.session import NetworkedTable, use_settings
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.larry.doubt import DoubtScreen
from fairdeal.ui.games.larry.scores import ScoresScreen
from fairdeal.ui.games.larry.screen import TableScreen
from fairdeal.ui.games.larry.widgets.table_status import TableStatus
from fairdeal.ui.screens.lobby import LobbyScreen
from fairdeal.ui.table_factory import TableSpec
from fairdeal.ui.table_finder import ZeroconfFinder
from fairdeal.ui.widgets.game_log import GameLog
from tests.game.loopback import loopback_settings, started_short_host

from .support import PLAYER, make_app, static_text, table_screen
from .test_app_pilot import play_turn

WAIT_S = 30.0  # a bound on every wait below, never a pause that stands in for one


def playing(session: NetworkedTable) -> bool:
    """The table has a state, and it is this seat's turn or the game is over."""
    peer = session.peer
    if peer is None or peer.table is None or peer.table.state is None:
        return False
    view = session.view()
    return view.my_turn or view.state.over


async def settle(pilot: Pilot[None], session: NetworkedTable) -> None:
    """Wait until the human is to act (or the game is over) and the UI has seen every event."""
    await session.wait_for(lambda: playing(session), WAIT_S)
    screen = table_screen(pilot.app)  # type: ignore[arg-type]
    async with asyncio.timeout(WAIT_S):
        while screen.events_seen < session.event_count:
            await pilot.pause()
    await pilot.pause()


def states(session: NetworkedTable) -> list[object]:
    return [e.state for e in session.history.events if isinstance(e, StateChanged)]


async def play_with_bot(session: NetworkedTable, seed: int) -> None:
    """Play `session`'s seat with a heuristic bot until the game is over."""
    bot = make_bot("heuristic", random.Random(seed))
    while True:
        await session.wait_for(lambda: playing(session), WAIT_S)
        view = session.view()
        if view.state.over:
            return
        await session.act(bot.choose(view))


@pytest.mark.slow
async def test_netui_open_a_networked_table_with_bots_and_doubt_with_proofs(
    tmp_path: Path,
) -> None:
    """The lobby's "open a table" on the network (mDNS on loopback): bot peers take the other
    seats, every card is dealt by the fair-deck protocol, and a doubt keyed in shows each pile
    card's proof ✓."""
    spec = TableSpec(seats=3, bots=2, short_game=True, name=PLAYER.name, networked=False)
    app = FairdealApp(PLAYER, finder=None, reveal_interval=0, table_defaults=spec)
    use_settings(loopback_settings(tmp_path / "me", advertise=True))  # (the fixture restores)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        dialog = pilot.app.screen
        dialog.query_one("#networked", Select).value = True
        await pilot.click("#open")
        await pilot.pause()
        screen = table_screen(app)
        session = screen.session
        assert isinstance(session, NetworkedTable)
        assert app.table_defaults.networked  # the next table (or new game) is opened alike
        doubts: list[DoubtScreen] = []
        moves: list[str] = []
        for _ in range(200):
            await settle(pilot, session)
            while not isinstance(app.screen, TableScreen):
                if isinstance(app.screen, DoubtScreen):
                    doubts.append(app.screen)
                    cards = static_text(app.screen.query_one("#doubt-cards", Static))
                    count = len(app.screen.verification.cards)
                    assert cards.count("✓ proved") == count, cards
                if isinstance(app.screen, ScoresScreen):
                    break
                await pilot.press("enter")
                await pilot.pause()
            mine = [d for d in doubts if d.verification.doubter == session.seat]
            if mine or session.view().state.over:
                break
            moves.append(await play_turn(pilot, session.view(), want_doubt=True))
            assert not screen.message.startswith("✗"), screen.message
        assert "doubt" in moves
        assert mine, f"no doubt of ours was shown (moves {moves})"
        verification = mine[0].verification
        assert all(card.proof is ProofStatus.VERIFIED for card in verification.cards)
        assert [s.is_bot for s in session.seats] == [False, True, True]
        log = screen.query_one(GameLog).lines_written
        assert any(line.startswith("Table open at 127.0.0.1:") for line in log)
        progress = screen.last_setup  # what the setup progress showed last
        assert progress is not None and progress.proofs_verified > 0
        assert screen.query_one(TableStatus).setup is None  # and the panel cleared it since
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen)


@pytest.mark.slow
async def test_netui_a_second_session_joins_by_host_port_and_both_see_the_same_game(
    tmp_path: Path,
) -> None:
    """The app's "connect HOST:PORT" sits at a table hosted elsewhere (one bot peer there);
    both humans play (their moves made by bots here) and every state agrees, seat by seat."""
    host = await started_short_host(tmp_path / "ben", WAIT_S, seats=3, bots=1, name="Ben")
    assert host.address is not None
    address = f"{host.address[0]}:{host.address[1]}"
    hosting = asyncio.ensure_future(play_with_bot(host, seed=1))
    app = make_app()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("c", *address, "enter")
            await pilot.pause()
            guest = table_screen(app).session
            assert isinstance(guest, NetworkedTable)
            await asyncio.wait_for(play_with_bot(guest, seed=2), WAIT_S)
            await asyncio.wait_for(hosting, WAIT_S)
            await settle(pilot, guest)
            assert guest.view().state.over and host.view().state.over
            assert states(guest) == states(host) and len(states(host)) > 10
            assert [s.name for s in guest.seats] == [s.name for s in host.seats]
            assert guest.seats[0].name == "Ben" and guest.seats[guest.seat].name == PLAYER.name
            assert guest.seats[0].fingerprint == host.identity.code
            log = table_screen(app).query_one(GameLog).lines_written
            assert f"Seat 0: Ben (player), key code {host.identity.code}" in log
            for session in (guest, host):  # each seat's record of the game audits offline
                assert session.peer is not None
                report = audit_transcript(session.peer.transcript_path)
                assert report.verified, report.result_text()
            guest_doubts = [e for e in guest.history.events if isinstance(e, DoubtVerification)]
            host_doubts = [e for e in host.history.events if isinstance(e, DoubtVerification)]
            assert guest_doubts == host_doubts
    finally:
        hosting.cancel()
        await host.close()


@pytest.mark.slow
async def test_netui_join_a_table_found_in_the_lobby(tmp_path: Path) -> None:
    """A table advertised by mDNS (loopback) appears in the lobby with its seats taken (live:
    the bot peer's seat shows); j sits down at it."""
    host = await started_short_host(
        tmp_path / "ben", WAIT_S, seats=3, bots=1, name="Ben", advertise=True
    )
    app = FairdealApp(PLAYER, finder=ZeroconfFinder(LOOPBACK), reveal_interval=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen) and host.address is not None

            def ours() -> DiscoveredTable | None:  # other tests may advertise on loopback too
                for found in lobby.tables.values():
                    ad = found.ad
                    if found.port == host.address[1] and ad.name == "Ben's table":  # type: ignore[index]
                        return found if ad.seats_taken == 2 else None  # the bot has sat down
                return None

            async with asyncio.timeout(WAIT_S):
                while ours() is None:
                    await pilot.pause()
            row = sorted(lobby.tables).index(ours().instance)  # type: ignore[union-attr]
            lobby.query_one(DataTable).move_cursor(row=row)
            assert lobby.selected_table() == ours()
            await pilot.press("j")
            await pilot.pause()
            guest = table_screen(app).session
            assert isinstance(guest, NetworkedTable)
            await guest.wait_for(lambda: guest.peer is not None, WAIT_S)
            await host.wait_for(lambda: host.peer is not None, WAIT_S)
            names = [s.name for s in guest.seats]
            assert guest.seat == 2 and names == ["Ben", "Ada (bot)", "Tess"]  # one way (14.12)
            assert [s.is_bot for s in host.seats] == [False, True, False]
    finally:
        await host.close()
