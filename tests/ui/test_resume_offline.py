"""After a crash, `fairdeal resume` while the other seat is still down: that seat shows OFFLINE
at once (its channel is closed; the silence limit is far away), the hint says the moves wait for
it instead of "YOUR TURN", and a card played says it is kept. It used to show "on" and take the
card in silence for as long as the other seat was away (protocol.md 4.6)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from fairdeal.engine.bots import make_bot
from fairdeal.engine.larry import LarryOptions, LarryView
from fairdeal.p2p.identity import load_or_create_identity
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.table.runtime.gather import open_lobby
from fairdeal.p2p.table.runtime.peer import TablePeer
from fairdeal.p2p.table.tools.session import (
    NetworkedTable,
    NetworkSettings,
    join_table,
    resume_table,
)
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.larry.announce import AnnounceDialog
from fairdeal.ui.games.larry.key_checks import face_down_action, face_up_action, refusal
from fairdeal.ui.games.larry.screen import TableScreen
from fairdeal.ui.games.larry.widgets.seat_list import SeatList
from fairdeal.ui.player import Player
from fairdeal.ui.screens.pick import PickDialog
from fairdeal.ui.table_finder import FixedFinder
from fairdeal.ui.widgets.game_log import GameLog

from .support import static_text, table_screen

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]
WAIT_S = 60.0


async def test_a_resumed_seat_shows_the_seat_still_down_offline_and_its_moves_waiting(
    tmp_path: Path,
) -> None:
    # A long silence limit: whatever is shown comes from the closed channel, not from it.
    settings = NetworkSettings(
        data_dir=tmp_path / "ada", bind="127.0.0.1", advertise=False, silence_limit=600.0
    )
    host_dir = tmp_path / "hal"
    hal = load_or_create_identity(host_dir, "Hal")
    address: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    hosting = asyncio.ensure_future(
        open_lobby(
            hal,
            2,
            LarryOptions(short_game=True),
            name="resume",
            bind="127.0.0.1",
            advertise=False,
            on_address=address.set_result,
        )
    )
    session = join_table(host="127.0.0.1", port=(await address)[1], name="Ada", settings=settings)
    await session.start()
    seated = await hosting
    host = TablePeer.for_seated(
        hal,
        seated,
        transcript=host_dir / "hal.transcript",
        secrets=SecretStore(host_dir / "secrets"),
        bot=make_bot("heuristic", random.Random(3), "larry"),
        silence_limit=600.0,
    )
    await host.start()
    resumed: NetworkedTable | None = None
    try:

        def my_turn() -> bool:
            table = None if session.peer is None else session.peer.table
            return table is not None and table.state is not None and table.my_turn()

        await session.wait_for(my_turn, WAIT_S)
        assert session.peer is not None
        transcript = session.peer.transcript_path
        await host.close()  # both die: the host first, then the app, with no goodbye
        await seated.mesh.close()
        await session.close()

        resumed = resume_table(transcript, settings)
        app = FairdealApp(Player("Ada", "", ""), session=resumed, finder=FixedFinder())
        async with app.run_test(size=(100, 32)) as pilot:

            def hint() -> str:
                return static_text(table_screen(app).query_one("#hint", Static), 100)

            async with asyncio.timeout(WAIT_S):
                while "wait for Hal" not in hint():
                    await pilot.pause(0.05)
            screen = table_screen(app)
            seats = static_text(screen.query_one(SeatList), 100)
            hal_row = next(line for line in seats.splitlines() if "Hal" in line)
            assert "OFFLINE" in hal_row and " on" not in hal_row, seats
            assert "Your moves wait for Hal (offline)" in hint()
            assert "YOUR TURN" not in hint()
            log = screen.query_one(GameLog).lines_written
            assert "Hal is offline." in log
            assert any(line.startswith("Your moves wait for Hal (offline)") for line in log)
            view = resumed.view()
            assert view.my_turn

            def kept() -> bool:
                return any(line.startswith("Your move is kept") for line in log)

            async with asyncio.timeout(WAIT_S):
                await key_in_a_play(pilot, screen, view, until=kept)  # kept, and said so
            assert resumed.view().state == view.state  # nothing was played for all to see
    finally:
        await host.close()
        await seated.mesh.close()
        await session.close()
        if resumed is not None:
            await resumed.close()


async def key_in_a_play(
    pilot: Pilot[None], screen: TableScreen, view: LarryView, until: Callable[[], bool]
) -> None:
    """Play a card the rules allow by its keys, as a player would, until `until()`: face-down
    (Enter) with the total the dialog offers; or face-up (u) when the deal made Hal start (L5)
    with a "play face-up" against this seat, which must then play face-up (L12). A dialog is
    answered (Enter) once it is up with its field focused, never with keys pressed blindly."""
    plays = [
        (index, key)
        for key, play in (("enter", face_down_action), ("u", face_up_action))
        for index, (slot, face) in enumerate(view.hand)
        if face is not None and refusal(view, play(view, slot, view.deck[face], False)) is None
    ]
    assert plays, f"no card of {view.hand} may be played: {view.obligated}"
    index, key = plays[0]
    while screen.selected != index:
        await pilot.press("right")
    await pilot.press(key)
    app = pilot.app
    while not until():
        dialog = app.screen  # the announce dialog; the card to give
        if isinstance(dialog, AnnounceDialog | PickDialog) and dialog.focused is not None:
            await pilot.press("enter")  # the honest total (or the limit); the first card
            while app.screen is dialog:
                await pilot.pause(0.05)
        else:
            await pilot.pause(0.05)
