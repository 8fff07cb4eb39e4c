"""Snapshots (pytest-textual-snapshot) of the lobby, the table, the doubt view and the score table.

Everything shown is deterministic: a seeded local table with no bot delay, a fixed player and key
code, a fixed list of tables, 80×24. Update with `pytest tests/ui --snapshot-update` after an
intended change, and look at the SVGs before committing them.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from fairdeal.p2p.lobby.discovery import DiscoveredTable, TableAd
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.games.larry.doubt import DoubtScreen
from fairdeal.ui.games.larry.scores import ScoresScreen
from fairdeal.ui.table_finder import FixedFinder
from fairdeal.ui.widgets.game_log import GameLog

from .support import PLAYER, make_app, play_the_first_card, settle, table_screen

SIZE = (80, 24)


def seeded_table() -> LocalTable:
    return LocalTable(4, seed=1, human_name=PLAYER.name)


def test_lobby(snap_compare) -> None:  # type: ignore[no-untyped-def]
    tables = [
        DiscoveredTable(
            "Friday night._fairdeal._tcp.local.",
            TableAd(
                "ab" * 16,
                "Friday night",
                "larry",
                2,
                4,
                "fedcba9876543210",
                host_code="0421788310511320096473318",  # shown as compared aloud
            ),
            ("192.168.1.20",),
            45123,
        ),
        DiscoveredTable(
            "Kitchen._fairdeal._tcp.local.",
            TableAd("cd" * 16, "Kitchen", "larry", 5, 5, "0011223344556677"),
            ("192.168.1.31",),
            40007,
        ),
    ]
    app = FairdealApp(PLAYER, finder=FixedFinder(tables), reveal_interval=0)
    assert snap_compare(app, terminal_size=SIZE)


def test_table(snap_compare) -> None:  # type: ignore[no-untyped-def]
    table = seeded_table()

    async def first_moves(pilot: Pilot[None]) -> None:
        await play_the_first_card(pilot, table)
        await pilot.press("right")

    assert snap_compare(make_app(table), terminal_size=SIZE, run_before=first_moves)


def test_table_2_seats(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """The table panel shows all its lines at 2 seats."""
    table = LocalTable(2, seed=1, human_name=PLAYER.name)

    assert snap_compare(
        make_app(table), terminal_size=SIZE, run_before=lambda p: play_the_first_card(p, table)
    )


def test_table_8_seats(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """Every seat is listed at 8 seats, and the hand and log still fit."""
    table = LocalTable(8, seed=1, human_name=PLAYER.name)

    assert snap_compare(
        make_app(table), terminal_size=SIZE, run_before=lambda p: play_the_first_card(p, table)
    )


def test_doubt_view(snap_compare) -> None:  # type: ignore[no-untyped-def]
    table = seeded_table()

    async def doubt(pilot: Pilot[None]) -> None:
        await play_the_first_card(pilot, table)
        await pilot.press("d")
        await settle(pilot, table)
        assert isinstance(pilot.app.screen, DoubtScreen)
        # The doubt's view opens on its verification, before the state that tells the doubt in
        # the log: whether the log behind the view has drawn those lines yet depended on when the
        # screen under it last refreshed. The picture is taken once it has, scrolled to its end.
        log = table_screen(pilot.app).query_one(GameLog)
        log.refresh()
        await pilot.pause()
        for _ in range(100):
            if log.scroll_y >= log.max_scroll_y:
                break
            await pilot.pause()
        assert log.scroll_y >= log.max_scroll_y

    assert snap_compare(make_app(table), terminal_size=SIZE, run_before=doubt)


def test_score_table(snap_compare) -> None:  # type: ignore[no-untyped-def]
    table = seeded_table()

    async def scores(pilot: Pilot[None]) -> None:
        await settle(pilot, table)
        hands = [(2, -3, -5, -1), (-4, 2, -1, -2), (-1, -2, 2, -6)]
        pilot.app.push_screen(ScoresScreen(table.seats, hands, winners=(1,), title="Game over"))
        await pilot.pause()

    assert snap_compare(make_app(table), terminal_size=SIZE, run_before=scores)


def test_the_readme_screenshots_are_the_current_snapshots() -> None:
    """README's SVGs are copies of the snapshots: after `--snapshot-update`, copy them again."""
    root = Path(__file__).resolve().parents[2]
    snapshots = Path(__file__).parent / "__snapshots__" / "test_snapshots"
    for readme_name, snapshot_name in (("table", "test_table"), ("doubt", "test_doubt_view")):
        shown = root / "docs" / "screenshots" / f"{readme_name}.svg"
        assert f"docs/screenshots/{readme_name}.svg" in (root / "README.md").read_text()
        assert shown.read_bytes() == (snapshots / f"{snapshot_name}.svg").read_bytes(), (
            f"cp {snapshots / snapshot_name}.svg {shown}"
        )
