"""The app offers `fairdeal report`'s page: `f` in the lobby's past tables writes the chosen
table's page beside its transcript, and says where and what it says; `f` at a finished
networked table does the same for the table just played."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.app import App
from textual.widgets import Static

from fairdeal.p2p.table.core.api import SeatInfo, StateChanged
from fairdeal.p2p.table.tools.replay import load_replay
from fairdeal.ui.games.larry.screen import TableScreen
from fairdeal.ui.screens.past_tables import PastTablesScreen
from fairdeal.ui.widgets.game_log import GameLog

from .fake_session import ScriptedSession
from .test_replay import SIZE, data_with_past_tables, owner_copy


def test_f_in_past_tables_writes_the_chosen_tables_page(tmp_path: Path) -> None:
    data = data_with_past_tables(tmp_path)

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(PastTablesScreen(data))

    async def run() -> str:
        app = Host()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("down", "f")  # the older one: the finished Larry table
            await pilot.pause()
            return str(app.screen.query_one("#past-hint", Static).render())

    hint = asyncio.run(run())
    page = data / "tables" / "aa.html"
    assert hint == f"✓ VERIFIED: fairness page written to {page}"
    assert "✓ VERIFIED" in page.read_text(encoding="utf-8")


class FinishedTable(ScriptedSession):
    """A networked table whose game is over, its transcript on disk."""

    def __init__(self, transcript: Path) -> None:
        super().__init__()
        self.transcript_path = transcript
        replay = load_replay(transcript)
        self.final = replay.frames[-1].view
        self.seats_info = tuple(
            SeatInfo(name, code, False, seat == replay.seat)
            for seat, (name, code) in enumerate(zip(replay.names, replay.codes, strict=True))
        )

    @property
    def seat(self) -> int:
        return self.final.seat

    def view(self):  # type: ignore[no-untyped-def]
        return self.final


def test_f_at_a_finished_table_writes_its_page(tmp_path: Path) -> None:
    transcript = owner_copy("larry", tmp_path)
    session = FinishedTable(transcript)

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(TableScreen(session))  # type: ignore[arg-type]

    async def run() -> list[str]:
        app = Host()
        async with app.run_test(size=SIZE) as pilot:
            session.begin()
            session.push(StateChanged(session.final.state, ()))
            await pilot.pause()
            await pilot.press("f")
            await pilot.pause()
            return [str(row) for row in app.screen.query_one(GameLog).rows()]

    said = " ".join(asyncio.run(run()))  # the log's rows, as wrapped at its width
    page = transcript.with_suffix(".html")
    assert "f: this table's fairness page" in said  # offered once the game is over
    assert f"✓ VERIFIED: fairness page written to {page}" in said
    assert "✓ VERIFIED" in page.read_text(encoding="utf-8")
