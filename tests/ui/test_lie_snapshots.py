"""Snapshots of The Lie's screens (pytest-textual-snapshot): Phase 1, a trick, the final scores.

Deterministic: a seeded local table whose bots act with no delay, a fixed player, 80×24. Update
with `pytest tests/ui/test_lie_snapshots.py --snapshot-update` after an intended change, and
look at the SVGs before committing them.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from fairdeal.engine.lie.events import GameOver
from fairdeal.ui.games.lie.scores import LieScoresScreen, RoundResult

from .support import make_app
from .test_lie_app_pilot import SIZE, grab_a_hand, lie_table, settle


def test_lie_phase_1(snap_compare) -> None:  # type: ignore[no-untyped-def]
    table = lie_table(seed=1)

    async def grab_some(pilot: Pilot[None]) -> None:
        await settle(pilot, table)
        # Take, move, take and place left, move, take: the last card waits beside the hand.
        for key in ("enter", "right", "enter", "left", "down", "enter"):
            await pilot.press(key)
            await settle(pilot, table)

    assert snap_compare(make_app(table), terminal_size=SIZE, run_before=grab_some)


def test_lie_trick(snap_compare) -> None:  # type: ignore[no-untyped-def]
    table = lie_table(seed=1)

    async def to_a_trick(pilot: Pilot[None]) -> None:
        await settle(pilot, table)
        await grab_a_hand(pilot, table)
        await settle(pilot, table)
        await pilot.press("tab")
        await pilot.pause()

    assert snap_compare(make_app(table), terminal_size=SIZE, run_before=to_a_trick)


def test_lie_final_scores(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """A tie on points broken by the number of prize cards (T10)."""
    table = lie_table(seed=1)
    rounds = [
        RoundResult(1, (1, 0, 2), {1: 3, 0: 2, 2: 1}),
        RoundResult(2, (0, 3, 1), {0: 3, 3: 2, 1: 1}),
        RoundResult(3, (2, 0, 1), {2: 3, 0: 2, 1: 1}),
    ]
    final = GameOver(
        winners=(0,),
        scores=(14, 14, 9, 5),
        prize_counts=(7, 5, 4, 2),
        prizes=(
            (0, 6, 12, 30, 48, 54, 60),
            (18, 42, 78, 79, 80),
            (24, 36, 31, 84),
            (7, 37),
        ),
    )

    async def scores(pilot: Pilot[None]) -> None:
        await settle(pilot, table)
        seats = table.seats
        pilot.app.push_screen(
            LieScoresScreen(seats, rounds, final, ("r", "y", "g", "b"), "Game over")
        )
        await pilot.pause()

    from fairdeal.engine.lie.cards import DECK

    assert [sum(DECK[f].number for f in faces) for faces in final.prizes] == list(final.scores)
    assert snap_compare(make_app(table), terminal_size=SIZE, run_before=scores)


def test_the_readme_lie_screenshots_are_the_current_snapshots() -> None:
    """README's Lie SVGs are copies of the snapshots: after `--snapshot-update`, copy them again."""
    root = Path(__file__).resolve().parents[2]
    snapshots = Path(__file__).parent / "__snapshots__" / "test_lie_snapshots"
    for readme_name, snapshot_name in (
        ("lie-phase1", "test_lie_phase_1"),
        ("lie-trick", "test_lie_trick"),
    ):
        shown = root / "docs" / "screenshots" / f"{readme_name}.svg"
        assert f"docs/screenshots/{readme_name}.svg" in (root / "README.md").read_text()
        assert shown.read_bytes() == (snapshots / f"{snapshot_name}.svg").read_bytes(), (
            f"cp {snapshots / snapshot_name}.svg {shown}"
        )
