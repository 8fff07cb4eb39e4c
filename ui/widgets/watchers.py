"""The line under both games' seats panels: who watches the table, through any seat (name and
key code, protocol.md 4.8). One line, cut short at the panel's width, and none without watchers,
so that the panels keep their height at a table nobody watches."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
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


def with_watchers(panel: RenderableType, watchers: Sequence[tuple[str, str]]) -> RenderableType:
    """The seats panel with the watchers' line beneath it (the panel alone without watchers)."""
    line = watchers_text(watchers)
    return panel if line is None else Group(panel, line)
