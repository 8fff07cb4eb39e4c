"""The Lie's replay screen: its table screen with the replay's keys and bar
(ui/screens/replay.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.binding import BindingType
from textual.screen import Screen

from fairdeal.ui.games.lie.screen import LieTableScreen
from fairdeal.ui.screens.replay import REPLAY_BINDINGS, REPLAY_CSS, ReplayControls


class LieReplayScreen(ReplayControls, LieTableScreen, inherit_bindings=False):
    BINDINGS: ClassVar[list[BindingType]] = REPLAY_BINDINGS
    DEFAULT_CSS = REPLAY_CSS

    def refresh_table(self) -> None:
        if not self.drawing_deferred():
            super().refresh_table()

    def queue_modal(
        self,
        make: Callable[[], Screen[None]],
        stale: Callable[[], bool] | None = None,
        on_skip: Callable[[], None] | None = None,
    ) -> None:
        if not self._history:  # the steps before this one open no views
            super().queue_modal(make, stale, on_skip)
