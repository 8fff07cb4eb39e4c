"""The game in plain words, newest line last."""

from __future__ import annotations

from textual.widgets import RichLog


class GameLog(RichLog):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, max_lines=500)
        self.border_title = "Log"
        self.can_focus = False
        self.lines_written: list[str] = []

    def say(self, line: str) -> None:
        self.lines_written.append(line)
        self.write(line)
