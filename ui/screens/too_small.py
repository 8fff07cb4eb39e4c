"""A screen that cannot be shown whole in the terminal says what size it needs, rather than wrap
its table, hide rows and let the cursor walk into them.

`SizeGuard` is mixed into a Screen with a `MIN_SIZE` (columns, rows): whenever the terminal is
smaller while that screen is on top (it resumes, or the terminal shrinks), `TooSmallScreen` covers
it and takes the keys (q still quits); it goes as soon as the terminal is large enough again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

DEFAULT_MIN_SIZE = (80, 24)  # the size both games' tables are laid out for (tests/ui/test_sizes.py)


def too_small_text(needed: tuple[int, int], size: tuple[int, int]) -> str:
    (columns, rows), (have_columns, have_rows) = needed, size
    return (
        f"This screen needs a terminal of at least {columns}×{rows}; this one is "
        f"{have_columns}×{have_rows}.\nMake the window larger (or the font smaller): the "
        "screen comes back as soon as it fits. q quits."
    )


def fits(size: tuple[int, int], needed: tuple[int, int]) -> bool:
    return size[0] >= needed[0] and size[1] >= needed[1]


class TooSmallScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    TooSmallScreen > Static {
        width: 100%;
        height: 100%;
        padding: 0 1;
        background: $background;
        content-align: center middle;
        text-align: center;
        color: $warning;
    }
    """

    def __init__(self, needed: tuple[int, int]) -> None:
        super().__init__()
        self.needed = needed
        self._leaving = False  # dismissed: several resizes may arrive before it is gone

    def compose(self) -> ComposeResult:
        size = (self.app.size.width, self.app.size.height)
        yield Static(too_small_text(self.needed, size), markup=False)

    def on_screen_resume(self) -> None:  # the terminal grew under a dialog shown above this
        self._follow((self.app.size.width, self.app.size.height))

    def on_resize(self, event: events.Resize) -> None:
        self._follow((event.size.width, event.size.height))

    def _follow(self, size: tuple[int, int]) -> None:
        if self._leaving or not self.is_active:  # going already, or covered by a dialog
            return
        if fits(size, self.needed):
            self._leaving = True
            self.dismiss()
        else:
            self.query_one(Static).update(too_small_text(self.needed, size))


class SizeGuard:
    """Mixed into a Screen: covered by `TooSmallScreen` while the terminal is below `MIN_SIZE`."""

    MIN_SIZE: ClassVar[tuple[int, int]] = DEFAULT_MIN_SIZE

    if TYPE_CHECKING:
        app: Any

        @property
        def is_active(self) -> bool: ...

    # Textual calls the handler of every class in the screen's MRO: a screen's own on_resize
    # (or on_screen_resume) does not hide these.
    def on_resize(self) -> None:
        self.guard_size()

    def on_screen_resume(self) -> None:
        self.guard_size()

    def too_small_now(self) -> bool:
        """Whether the terminal is below `MIN_SIZE`: a view the screen would open (a doubt, the
        scores) waits, to open once the terminal fits (the screen resumes then)."""
        return not fits((self.app.size.width, self.app.size.height), self.MIN_SIZE)

    def guard_size(self) -> None:
        size = (self.app.size.width, self.app.size.height)
        if self.is_active and not fits(size, self.MIN_SIZE):
            self.app.push_screen(TooSmallScreen(self.MIN_SIZE))
