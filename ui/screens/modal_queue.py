"""The views a table screen opens over itself (a doubt's cards, the scores, a fault, help), one at
a time, in the order the table asked for them.

`ModalQueue` owns the waiting views and the one open; it opens nothing itself: `take` says which
view to push next (skipping those the game has moved past), and the screen pushes it and calls
`closed` when it goes. So the queue needs no app and no screen (ui/screens/table.py wires it).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from textual.screen import Screen


@dataclass(frozen=True)
class QueuedView:
    """A view waiting its turn: how to build it once its turn comes; `stale`, a test that says it
    has become old news (None: it never does); `on_skip`, called when it is skipped as stale."""

    make: Callable[[], Screen[None]]
    stale: Callable[[], bool] | None = None
    on_skip: Callable[[], None] | None = None

    def is_stale(self) -> bool:
        return self.stale is not None and self.stale()


class ModalQueue:
    """The views waiting to open over a table screen, and the one open now."""

    def __init__(self) -> None:
        self._waiting: deque[QueuedView] = deque()
        self._open: tuple[Screen[None], QueuedView] | None = None

    def add(self, view: QueuedView) -> None:
        self._waiting.append(view)

    @property
    def is_open(self) -> bool:
        return self._open is not None

    @property
    def open_view(self) -> Screen[None] | None:
        """The view open now, if any."""
        return self._open[0] if self._open is not None else None

    def take(self) -> Screen[None] | None:
        """The next view to open, built now, if none is open: the first that is not stale (each
        stale one skipped is told so); None if nothing waits."""
        if self._open is not None:
            return None
        while self._waiting:
            view = self._waiting.popleft()
            if view.is_stale():
                if view.on_skip is not None:
                    view.on_skip()
                continue  # the game moved on while it waited its turn
            screen = view.make()
            self._open = (screen, view)
            return screen
        return None

    def stale_open_view(self) -> Screen[None] | None:
        """The open view, if it has become old news (it should close)."""
        if self._open is None:
            return None
        screen, view = self._open
        return screen if view.is_stale() else None

    def closed(self) -> Screen[None] | None:
        """The open view went; returns it."""
        screen = self.open_view
        self._open = None
        return screen
