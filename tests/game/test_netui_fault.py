"""A cheating friend at a table opened in the app: every honest seat stops the hand, and the app
shows who cheated, what, and the evidence."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Select, Static

from fairdeal.engine.bots import make_bot
from fairdeal.p2p.identity import load_or_create_identity
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.table.core.api import FaultDetected
from fairdeal.p2p.table.runtime.gather import join_lobby
from fairdeal.p2p.table.runtime.peer import TablePeer
from fairdeal.p2p.table.tools.session import NetworkedTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.larry.screen import TableScreen
from fairdeal.ui.player import Player
from fairdeal.ui.screens.fault import FaultScreen
from fairdeal.ui.table_factory import TableSpec
from fairdeal.ui.table_finder import FixedFinder

from .cheaters import WrongShareTable
from .loopback import loopback_settings, settings_in_use

WAIT_S = 30.0
PLAYER = Player("Tess", "01234 56789 13579 24680 11223", "0123456789abcdef")


@pytest.fixture
def on_loopback(tmp_path: Path) -> Iterator[None]:
    with settings_in_use(loopback_settings(tmp_path / "me")):
        yield


@pytest.mark.slow
@pytest.mark.usefixtures("on_loopback")
async def test_netui_a_friend_who_sends_a_wrong_share_is_shown_as_the_culprit(
    tmp_path: Path,
) -> None:
    spec = TableSpec(seats=3, bots=1, short_game=True, name=PLAYER.name)
    app = FairdealApp(PLAYER, finder=FixedFinder(), reveal_interval=0, table_defaults=spec)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        assert pilot.app.screen.query_one("#networked", Select).value is False
        await pilot.click("#open")  # a seat for a friend: opened on the network all the same
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        session = screen.session
        assert isinstance(session, NetworkedTable)
        await session.wait_for(lambda: session.address is not None, WAIT_S)
        assert session.address is not None
        mallory = load_or_create_identity(tmp_path / "mallory", "Mallory")
        seated = await join_lobby(mallory, *session.address, bind="127.0.0.1", timeout=WAIT_S)
        cheat = TablePeer.for_seated(
            mallory,
            seated,
            transcript=tmp_path / "mallory" / "table.transcript",
            secrets=SecretStore(tmp_path / "mallory" / "secrets"),
            bot=make_bot("heuristic", random.Random(5)),
            table_class=WrongShareTable,  # one decryption share of the first deal is another's
        )
        try:
            await cheat.start()

            def faulted() -> bool:
                return any(isinstance(e, FaultDetected) for e in session.history.events)

            await session.wait_for(faulted, WAIT_S)
            fault = next(e for e in session.history.events if isinstance(e, FaultDetected))
            assert fault.seat == seated.seat and session.seats[fault.seat].name == "Mallory"
            while screen.events_seen < session.event_count:
                await pilot.pause()
            await pilot.pause()
            shown = app.screen
            assert isinstance(shown, FaultScreen)
            title = shown.query(Static).first()
            assert f"FAULT by seat {seated.seat}: Mallory" in str(title.render())
            assert fault.evidence and fault.evidence in str(shown.query(Static)[2].render())
            peer = session.peer
            assert peer is not None and peer.table is not None and peer.table.fault is not None
        finally:
            await cheat.close()
            await seated.mesh.close()
