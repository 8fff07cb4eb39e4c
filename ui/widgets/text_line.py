"""A line of plain text (the status line, the hint line) that shows whatever its `text` is.

A screen binds `text` to one of its own reactive attributes (`data_bind`): the screen says what
the line should read and the line follows, with no query and no redraw by hand, and it is only
written again when the words change (each update lays the screen out again: its height is
the text's). Plain text: names and reasons come from peers, never markup.
"""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static


class TextLine(Static):
    text: reactive[str] = reactive("", layout=False, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(markup=False, id=id)

    def watch_text(self, text: str) -> None:
        self.update(text)
