"""What one game adds to its report page, and the default for a game that adds nothing.

A game's app record (ui/screen_game.py) may name a `ReportPart` of its own (`report_part`): how
the timeline is cut into headings (a hand, or a round and its phases), its own words for a table
event the shared story tells with seat numbers, and the sections only that game has (The Lie's
Phase 1 races and its tricks). Everything else on the page is shared."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fairdeal.p2p.table.core.api import TableEvent
from fairdeal.p2p.table.tools.replay import Replay
from fairdeal.ui.report.page import Section
from fairdeal.ui.report.walk import Moment


class ReportPart:
    """The default: the timeline cut by the game's unit ("Hand 2"), no section of its own."""

    def heading(self, round_no: int, trick: int, unit: str) -> str:
        """The timeline heading of a moment; consecutive moments under one heading are one
        group."""
        return f"{unit.capitalize()} {round_no}" if round_no else "Setup"

    def line(self, event: TableEvent, view: Any, names: Sequence[str]) -> str | None:
        """The game's own words for a table event (None: the shared story's)."""
        return None

    def sections(
        self, replay: Replay, names: Sequence[str], moments: Sequence[Moment]
    ) -> list[Section]:
        """The game's own sections, after the shared timeline and before the scores."""
        return []
