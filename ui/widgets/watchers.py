"""The line under both games' seats panels: who watches the table, through any seat (name and
key code, protocol.md 4.8). One line, cut short at the panel's width, and none without watchers,
so that the panels keep their height at a table nobody watches.

The panels redraw on every move, the watchers change rarely: `WatchersLine` keeps the line and
writes it again only when the watchers change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.text import Text


def watchers_text(watchers: Sequence[tuple[str, str]]) -> Text | None:
    """'Watching: Ann (K3F-9QX), Bob (…)', or None when nobody watches."""
    if not watchers:
        return None
    text = Text("Watching: ", style="dim", no_wrap=True, overflow="ellipsis")
    for k, (name, code) in enumerate(watchers):
        if k:
            text.append(", ")
        text.append(name, style="italic")
        text.append(f" ({code})", style="dim")
    return text


@dataclass
class WatchersLine:
    """The watchers' line as last written, for a panel to put under its table."""

    watchers: tuple[tuple[str, str], ...] = ()
    line: Text | None = field(default=None)

    def update(self, watchers: Sequence[tuple[str, str]]) -> None:
        self.watchers = tuple(watchers)
        self.line = watchers_text(self.watchers)
