"""The game in plain words, newest line last.

The log keeps what was said and wraps it itself, at the width it has now: when the panel narrows
or widens (The Lie's log moves beside the trick for Phase 2; a terminal is resized) every line is
wrapped again, so nothing stays cut at an old width. A key code that players compare aloud
("04217 88310 …") is never split over two lines.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.text import Text
from textual.events import Resize
from textual.widgets import RichLog

MAX_LINES = 500
# p2p/identity.py's fingerprint_code: five groups of five digits
KEY_CODE = re.compile(r"\d{5}(?: \d{5}){4}")
_JOINED = "\0"  # stands for a space that must not break while a line is wrapped


def wrap_line(line: str, width: int) -> list[str]:
    """`line` in rows of at most `width` cells, broken at spaces, never inside a key code; a
    word wider than a row is folded."""
    if width <= 0:
        return [line]
    rows: list[str] = []
    for paragraph in line.split("\n"):
        joined = KEY_CODE.sub(lambda match: match.group().replace(" ", _JOINED), paragraph)
        row = ""
        for word in joined.split(" "):
            candidate = f"{row} {word}" if row else word
            if cell_len(candidate) <= width:
                row = candidate
                continue
            if row:
                rows.append(row)
            while cell_len(word) > width:
                rows.append(word[:width])
                word = word[width:]
            row = word
        rows.append(row)
    return [row.replace(_JOINED, " ") for row in rows]


class GameLog(RichLog):
    DEFAULT_CSS = """
    GameLog {
        scrollbar-gutter: stable;  /* the wrapping width does not change when lines overflow */
        overflow-x: hidden;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=False, markup=False, max_lines=None, min_width=1)
        self.border_title = "Log"
        self.can_focus = False
        self.lines_written: list[str] = []
        self._width = 0  # the width the shown rows were wrapped at (0: not laid out yet)

    def say(self, line: str) -> None:
        self.lines_written.append(line)
        del self.lines_written[:-MAX_LINES]
        if self._width and not self.holding:
            self._write_rows(line)

    holding = False  # lines said are kept, not shown, until `release` (a replay's history)

    def forget(self) -> None:
        """Empty the log and hold what is said next until `release` (a replay starts again)."""
        self.lines_written.clear()
        self.clear()
        self.holding = True

    def release(self) -> None:
        """Show what was said while holding, at once."""
        if self.holding:
            self.holding = False
            self._rewrap()

    def rows(self) -> list[str]:
        """What the log shows, row by row (for tests)."""
        return [strip.text.rstrip() for strip in self.lines]

    def on_resize(self, _event: Resize) -> None:
        width = self.scrollable_content_region.width
        if width and width != self._width:
            self._width = width
            self._rewrap()

    def _rewrap(self) -> None:
        self.clear()
        if self._width and not self.holding and self.lines_written:
            # one write of every row: a write per row costs its own render, ~0.3 ms each
            rows = [row for line in self.lines_written for row in wrap_line(line, self._width)]
            self.write(Text("\n".join(rows)), width=self._width)

    def _write_rows(self, line: str) -> None:
        for row in wrap_line(line, self._width):
            self.write(Text(row), width=self._width)
