"""The Lie at a networked table in the app, over real loopback sockets: the
app hosts the table (a local bot peer takes one seat), a friend's peer joins by HOST:PORT, and
the player grabs and plays with the keyboard. Every claimed front arrives proved, every play and
the prizes carry their proofs, and every transcript audits; a friend whose decryption share for
the player's claim is another card's is shown on the fault screen as the culprit.

Every wait is on the table's events (`NetworkedTable.wait_for`), never a sleep.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from fairdeal.engine.bots import make_bot
from fairdeal.engine.lie import Phase
from fairdeal.engine.lie.events import Played
from fairdeal.engine.lie.state import LieState
from fairdeal.p2p.games.lie.lockstep import Lockstep
from fairdeal.p2p.games.lie.table import LieTable
from fairdeal.p2p.identity import load_or_create_identity
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.table.core.api import FaultDetected, ProofStatus, StateChanged
from fairdeal.p2p.table.runtime.gather import join_lobby
from fairdeal.p2p.table.runtime.peer import TablePeer
from fairdeal.p2p.table.tools.audit import audit_many
from fairdeal.p2p.table.tools.session import NetworkedTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.lie.scores import LieScoresScreen
from fairdeal.ui.games.lie.screen import LieTableScreen
from fairdeal.ui.player import Player
from fairdeal.ui.screens.fault import FaultScreen
from fairdeal.ui.table_factory import TableSpec
from fairdeal.ui.table_finder import FixedFinder
from fairdeal.ui.widgets.game_log import GameLog

from .loopback import loopback_settings, settings_in_use

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]
WAIT_S = 30.0
PLAYER = Player("Tess", "01234 56789 13579 24680 11223", "0123456789abcdef")
SPEC = TableSpec(game="lie", seats=3, bots=1, claim_pace=0.05, bot_delay=0.0).choosing(
    {"rounds": 1, "hand_size": 3}
)


@pytest.fixture
def on_loopback(tmp_path: Path) -> Iterator[None]:
    with settings_in_use(loopback_settings(tmp_path / "me")):
        yield


class ReusedShareLockstep(Lockstep):
    """Answers its second claim with the decryption share it sent for its first: a valid point
    with a proof for another statement, so the claimer's check of it fails (6.5, 10.11.5)."""

    kept: Any = None
    cheated = False

    def sign(self, step: int, answers: bytes | None, state: LieState) -> dict[str, Any]:
        body = super().sign(step, answers, state)
        shares = body["shares"]  # the shares ride in the step envelope (protocol.md 10.11.3)
        if self.cheated or shares is None:
            return body
        share = shares["shares"][0]["share"]
        if self.kept is None:
            self.kept = share
        elif share != self.kept:
            changed = [dict(s) for s in shares["shares"]]
            changed[0]["share"] = self.kept
            body["shares"] = {**shares, "shares": changed}
            self.cheated = True
        return body


class ReusedShareTable(LieTable):
    lockstep_class = ReusedShareLockstep


async def open_with_a_friend(
    app: FairdealApp, tmp_path: Path, table_class: type[LieTable] = LieTable
) -> tuple[LieTableScreen, NetworkedTable, TablePeer]:
    screen = app.screen
    assert isinstance(screen, LieTableScreen)
    session = screen.session
    assert isinstance(session, NetworkedTable) and session.game is not None
    assert session.game.name == "lie"
    await session.wait_for(lambda: session.address is not None, WAIT_S)
    assert session.address is not None
    friend = load_or_create_identity(tmp_path / "friend", "Ben")
    seated = await join_lobby(friend, *session.address, bind="127.0.0.1", timeout=WAIT_S)
    assert seated.game == "lie" and (seated.options.rounds, seated.options.hand_size) == (1, 3)
    peer = TablePeer.for_seated(
        friend,
        seated,
        transcript=tmp_path / "friend" / "table.transcript",
        secrets=SecretStore(tmp_path / "friend" / "secrets"),
        bot=make_bot("heuristic", random.Random(5), "lie"),
        table_class=table_class,
        claim_pace=0.05,
    )
    await peer.start()
    return screen, session, peer


async def caught_up(pilot: Pilot[None], screen: LieTableScreen, session: NetworkedTable) -> None:
    while screen.events_seen < session.event_count:
        await pilot.pause()
    await pilot.pause()


async def play_with_keys(
    pilot: Pilot[None], screen: LieTableScreen, session: NetworkedTable
) -> None:
    """Take the card at the cursor with Enter and place it with →, then play (else pass) at
    every go, until the game is over or stopped (a round's score table can come up before the
    prizes are turned over: play waits behind it)."""

    def table() -> LieTable:
        assert session.peer is not None and isinstance(session.peer.table, LieTable)
        return session.peer.table

    await session.wait_for(lambda: session.peer is not None and table().state is not None, WAIT_S)
    while not table().over and table().fault is None:
        await caught_up(pilot, screen, session)
        seen = session.event_count
        if isinstance(pilot.app.screen, LieScoresScreen | FaultScreen):
            pass  # a round's scores (the prizes are still being turned over) or the fault: wait
        elif table().claiming() and table().can_place():
            await pilot.press("right")  # T3: its front is known, it goes to the right end
        elif table().claiming() and table().can_claim():
            await pilot.press("enter")  # take the card at the cursor
        elif table().state.phase is Phase.PLAY and table().my_turn():
            await pilot.press("enter")
            if session.event_count == seen and table().my_turn():
                await pilot.press("p")
        await session.wait_for(
            lambda seen=seen: (
                session.event_count > seen or table().over or table().fault is not None
            ),
            WAIT_S,
        )
    await caught_up(pilot, screen, session)


@pytest.mark.usefixtures("on_loopback")
async def test_netui_lie_fronts_plays_and_prizes_carry_their_proofs(tmp_path: Path) -> None:
    app = FairdealApp(PLAYER, table=SPEC, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, session, friend = await open_with_a_friend(app, tmp_path)
        try:
            await play_with_keys(pilot, screen, session)
            assert session.peer is not None and session.peer.table is not None
            lie = session.peer.table
            assert lie.over and lie.fault is None
            lines = screen.query_one(GameLog).lines_written
            assert any(line.startswith("Setup: ") for line in lines)  # keys, shuffles, layout
            arrived = [line for line in lines if line.startswith("Your ") and "✓ proved" in line]
            assert len(arrived) == 3  # T3: each front we claimed, proved, known to us alone
            played = [
                slot
                for event in session.history.events
                if isinstance(event, StateChanged)
                for step in event.events
                if isinstance(step, Played)
                for slot in step.slots
            ]  # T5: every front played was opened for all, and the screen holds its proof
            assert played and all(screen.proofs.get(s) is ProofStatus.VERIFIED for s in played)
            assert any("prizes turned over" in line and "✓" in line for line in lines)
            await friend.finished(WAIT_S)
        finally:
            await friend.close()
    transcripts = [session.peer.transcript_path, friend.transcript_path]
    reports, disagreement = audit_many(transcripts)
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]


@pytest.mark.usefixtures("on_loopback")
async def test_netui_lie_a_friend_whose_share_fails_its_proof_is_the_culprit(
    tmp_path: Path,
) -> None:
    app = FairdealApp(PLAYER, table=SPEC, finder=FixedFinder(), reveal_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, session, friend = await open_with_a_friend(app, tmp_path, ReusedShareTable)
        try:
            await play_with_keys(pilot, screen, session)

            def faulted() -> bool:
                return any(isinstance(e, FaultDetected) for e in session.history.events)

            await session.wait_for(faulted, WAIT_S)
            await caught_up(pilot, screen, session)
            fault = next(e for e in session.history.events if isinstance(e, FaultDetected))
            assert session.seats[fault.seat].name == "Ben"
            shown = pilot.app.screen
            assert isinstance(shown, FaultScreen) and shown.seat_name == "Ben"
            assert "✗ stopped: FAULT by Ben" in str(screen.status_text(screen.current_view()))
        finally:
            await friend.close()


@pytest.mark.usefixtures("on_loopback")
async def test_netui_joining_a_lie_table_by_address_opens_the_lie_screen(tmp_path: Path) -> None:
    """`c` HOST:PORT: the game is unknown until the lobby answers; the joining screen then hands
    over to The Lie's table screen, where the player plays the game to its end."""
    import asyncio

    from fairdeal.engine.lie import LieOptions
    from fairdeal.p2p.table.runtime.gather import open_lobby
    from fairdeal.p2p.table.runtime.headless import play_headless
    from fairdeal.ui.screens.joining import JoiningScreen

    host_id = load_or_create_identity(tmp_path / "host", "Hal")
    address: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    lobby = asyncio.ensure_future(
        open_lobby(
            host_id,
            2,
            LieOptions(rounds=1, hand_size=2),
            name="Hal's table",
            bind="127.0.0.1",
            advertise=False,
            on_address=address.set_result,
            timeout=WAIT_S,
        )
    )

    async def host_plays() -> dict[str, Any]:
        seated = await lobby
        try:
            return await play_headless(host_id, seated, tmp_path / "host", timeout=WAIT_S)
        finally:
            await seated.mesh.close()

    hosting = asyncio.ensure_future(host_plays())
    app = FairdealApp(PLAYER, finder=FixedFinder(), reveal_interval=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            host, port = await asyncio.wait_for(address, WAIT_S)
            await pilot.press("c", *f"{host}:{port}", "enter")
            await pilot.pause()
            for _ in range(1000):  # the lobby answers over the socket: wait for the hand-over
                if isinstance(pilot.app.screen, LieTableScreen):
                    break
                if isinstance(pilot.app.screen, JoiningScreen):
                    joining = pilot.app.screen
                    await asyncio.wait_for(joining.session.history.changed(), WAIT_S)
                await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, LieTableScreen)
            session = screen.session
            assert isinstance(session, NetworkedTable)
            await play_with_keys(pilot, screen, session)
            assert session.peer is not None and session.peer.table is not None
            assert session.peer.table.over and session.peer.table.fault is None
            result = await asyncio.wait_for(hosting, WAIT_S)
            assert result["over"] and result["fault"] is None and result["game"] == "lie"
    finally:
        hosting.cancel()
        lobby.cancel()
        await asyncio.gather(hosting, lobby, return_exceptions=True)
