"""Every seat: whose turn (▶), name, card count, score, connection, face-up obligation.

The panel draws itself from what it is given (the view, the seats, who left, who is offline, who
the table waits for, who watches): each is reactive, and a change to any draws it again.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from fairdeal.engine.larry import LarryView
from fairdeal.p2p.table.core.api import SeatInfo
from fairdeal.ui.widgets.watchers import Watchers, watchers_text

NOTES_WIDTH = len("UP! OUT")  # the usual notes; rarer, longer ones may still push the columns
NAME_KEPT = 10  # characters of a name the notes never cut


class SeatList(Static):
    # drawn by `draw` (its size is the top row's, fitted in ui/games/larry/table_core.py: no
    # layout per change)
    view: reactive[LarryView | None] = reactive(None, layout=False, repaint=False)
    seats: reactive[tuple[SeatInfo, ...]] = reactive(tuple, layout=False, repaint=False)
    # the seats that left the table for good (protocol.md 10.12)
    left: reactive[frozenset[int]] = reactive(frozenset, layout=False, repaint=False)
    # the seats with no channel to this one now
    offline: reactive[frozenset[int]] = reactive(frozenset, layout=False, repaint=False)
    # seat -> how long the table has waited for it past the silence limit
    waiting: reactive[Mapping[int, float]] = reactive(dict, layout=False, repaint=False)
    # name and key code of each peer watching the table (protocol.md 4.8)
    watchers: reactive[Watchers] = reactive(tuple, layout=False, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Seats"

    def set_waiting(self, seat: int, waiting: float | None) -> None:
        """How long the table has waited for `seat` past the silence limit (None: it does not)."""
        others = {s: w for s, w in self.waiting.items() if s != seat}
        self.waiting = others if waiting is None else {**others, seat: waiting}

    def draw(self) -> None:
        view, seats = self.view, self.seats
        if view is None:
            return  # no table yet: nothing to draw
        table = Table.grid(padding=(0, 1), expand=True)
        table.add_column(width=1)
        # a name is cut only past NAME_KEPT characters: the notes give way first
        longest = max((len(info.name) for info in seats), default=0)
        table.add_column(
            ratio=1, no_wrap=True, overflow="ellipsis", min_width=min(longest, NAME_KEPT)
        )
        # fixed widths: the columns stay put when a seat's notes (UP!, OUT, WAIT) come and go
        table.add_column(justify="right", no_wrap=True, min_width=len("10 cards"))
        table.add_column(justify="right", no_wrap=True, min_width=len("+10"))
        table.add_column(no_wrap=True, overflow="ellipsis", min_width=NOTES_WIDTH)
        to_act = view.to_act
        for seat, info in enumerate(seats):
            turn = seat == to_act
            marker = Text("▶", style="bold reverse") if turn else Text(" ")
            name = Text(info.name, style="bold" if info.is_me else "")
            count = len(view.state.hands[seat])
            cards = f"{count} card" if count == 1 else f"{count} cards"
            notes: list[str] = []
            # L20: the 'play face-up' cards lie in front of their target, in no pile
            in_front = len(view.in_front[seat])
            if in_front > 1:
                notes.append(f"UP!×{in_front}")
            elif in_front or view.obligated[seat]:
                notes.append("UP!")
            if view.out_seat == seat:
                notes.append("OUT")
            link = Text(" ".join(notes), style="bold red" if notes else "green")
            # the seat's presence beside the game's notes, never hidden by them: our own seat
            # and the bots we run have no connection to tell
            presence = self._presence(seat, info, self.left, self.offline)
            if presence:
                link.append(" " if notes else "")
                link.append(presence, style="green" if presence == "on" else "bold red")
            table.add_row(marker, name, cards, f"{view.scores[seat]:+d}", link)
        line = watchers_text(self.watchers)
        self.update(table if line is None else Group(table, line), layout=False)

    watch_view = watch_seats = watch_left = watch_offline = watch_waiting = draw
    watch_watchers = draw

    def _presence(
        self, seat: int, info: SeatInfo, left: Collection[int], offline: Collection[int]
    ) -> str:
        """LEFT, OFFLINE, WAIT 12s (the table waits for it), or "on"; "" for our own seats."""
        words: list[str] = []
        if seat in left:
            words.append("LEFT")
        elif seat in offline:
            words.append("OFFLINE")
        if seat in self.waiting and seat not in left:
            words.append(f"WAIT {self.waiting[seat]:.0f}s")
        if not words and not (info.is_me or info.is_bot):
            words.append("on")
        return " ".join(words)
