"""The app of `fairdeal replay`: the replay screen alone (Esc or q ends it)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from fairdeal.p2p.table.tools.replay import Replay
from fairdeal.ui.screen_game import app_styles
from fairdeal.ui.screens.replay import replay_screen


class ViewerApp(App[None]):
    """An app of one table screen that only looks (a replay, a watcher): the app's styles, q and
    Ctrl+C quit, no command palette."""

    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(self) -> None:
        super().__init__(css_path=app_styles())


class ReplayApp(ViewerApp):
    TITLE = "fairdeal replay"

    def __init__(self, replay: Replay, position: int = 0) -> None:
        super().__init__()
        self.replay = replay
        self.position = position

    def on_mount(self) -> None:
        self.push_screen(replay_screen(self.replay, self.position))
