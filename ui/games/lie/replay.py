"""The Lie's replay screen: its table screen with the replay's keys and bar
(ui/screens/replay.py)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import BindingType

from fairdeal.ui.games.lie.screen import LieTableScreen
from fairdeal.ui.screens.replay import REPLAY_BINDINGS, REPLAY_CSS, ReplayControls


class LieReplayScreen(ReplayControls, LieTableScreen, inherit_bindings=False):
    BINDINGS: ClassVar[list[BindingType]] = REPLAY_BINDINGS
    DEFAULT_CSS = REPLAY_CSS

    def refresh_table(self) -> None:
        if not self.drawing_deferred():
            super().refresh_table()

    def _queue_modal(self, make: Any) -> None:
        if not self._history:
            super()._queue_modal(make)
