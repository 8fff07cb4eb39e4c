"""The line under both games' seats panels: who watches the table, through any seat (name and
key code, protocol.md 4.8). One line, cut short at the panel's width, and none without watchers,
so that the panels keep their height at a table nobody watches.

Each panel holds the watchers as a reactive `Watchers` and puts this line under its table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from rich.text import Text

# name and key code of each peer watching the table
Watchers: TypeAlias = tuple[tuple[str, str], ...]


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
