"""Larry's replay screen: its table screen with the replay's keys and bar
(ui/screens/replay.py)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import BindingType

from fairdeal.ui.games.larry.screen import TableScreen
from fairdeal.ui.replay_session import ReplaySession
from fairdeal.ui.screens.replay import REPLAY_BINDINGS, REPLAY_CSS, ReplayControls


class LarryReplayScreen(ReplayControls, TableScreen, inherit_bindings=False):
    BINDINGS: ClassVar[list[BindingType]] = REPLAY_BINDINGS
    DEFAULT_CSS = REPLAY_CSS

    def __init__(self, session: ReplaySession) -> None:
        # A replay turns a doubt's cards over at once (the user steps); a watcher's screen
        # turns them over as the table does, so that other seats' doubts close by themselves.
        super().__init__(session, reveal_interval=0.4 if session.replay.live else 0.0)

    async def refresh_table(self) -> None:
        if not self.drawing_deferred():
            await super().refresh_table()
