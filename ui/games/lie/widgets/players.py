"""Every seat of The Lie: whose go (▶), name, hand as backs in order, count, place, prize cards.

Other hands are only ever backs (T3); prize cards are backs too, unseen even by their owner until
the game ends (T8). The panel draws itself from what it is given (the view, the seats, their
presence, the watchers): each is reactive, and a change to any draws it again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from fairdeal.engine.lie import LieView, Phase
from fairdeal.p2p.table.core.api import SeatInfo
from fairdeal.ui.games.lie.widgets.cards import backs_text, letters_for, ordinal
from fairdeal.ui.widgets.watchers import Watchers, watchers_text


class LiePlayersView(Static):
    view: reactive[LieView | None] = reactive(None, layout=False, repaint=False)
    seats: reactive[tuple[SeatInfo, ...]] = reactive(tuple, layout=False, repaint=False)
    # seat -> its presence at a networked table (OFFLINE, WAIT, LEFT), in words
    marks: reactive[Mapping[int, Sequence[str]]] = reactive(dict, layout=False, repaint=False)
    # name and key code of each peer watching the table (protocol.md 4.8)
    watchers: reactive[Watchers] = reactive(tuple, layout=False, repaint=False)
    # the screen is a watcher's, whose hand below is the watched seat's
    watching: reactive[bool] = reactive(False, layout=False, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Players"

    def draw(self) -> None:
        view, seats, marks = self.view, self.seats, self.marks
        if view is None:
            return  # no table yet: nothing to draw
        state = view.state
        letters = letters_for(state.options.colour_names)
        size = state.options.hand_size
        building = state.phase is Phase.BUILD
        to_act = state.to_act()
        table = Table.grid(padding=(0, 1))
        table.add_column(width=1, no_wrap=True)
        table.add_column(width=11, no_wrap=True, overflow="ellipsis")
        table.add_column(no_wrap=True)
        table.add_column(justify="right", no_wrap=True)
        table.add_column(no_wrap=True)
        for seat, info in enumerate(seats):
            hand = state.hands[seat]
            marker = Text("▶", style="bold reverse") if seat == to_act else Text(" ")
            name = Text(info.name, style="bold" if info.is_me else "")
            if seat == view.seat:
                cards = Text("(hand below)" if self.watching else "(your hand, below)", style="dim")
            else:
                cards = backs_text([state.backs[slot] for slot in hand], letters)
                taken = state.unplaced[seat] if building else None
                if taken is not None:  # T3: taken, its front seen by that seat, not yet placed
                    cards.append(" +", style="dim")
                    cards.append_text(backs_text([state.backs[taken]], letters))
            count = f"{len(hand)}/{size}" if building else f"{len(hand)} left"
            notes = Text()
            presence = marks.get(seat)
            if presence:
                notes.append(" ".join(presence) + " ", style="bold red")
            if seat in state.placement:
                # the last player of a 2-3 seat round takes its place with cards left (T7)
                went = "out" if not hand else "place"
                place = ordinal(state.placement.index(seat) + 1)
                notes.append(f"{place} {went} ", style="bold")
            elif building and state.first_done == seat:
                notes.append("Done! ", style="bold")
            won = state.prizes[seat]
            if won:
                notes.append("prizes ")
                notes.append_text(backs_text([state.backs[s] for s in won], letters))
            table.add_row(marker, name, cards, count, notes)
        line = watchers_text(self.watchers)
        self.update(table if line is None else Group(table, line))

    watch_view = watch_seats = watch_marks = watch_watchers = watch_watching = draw
