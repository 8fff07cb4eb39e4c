"""Every seat of The Lie: whose go (▶), name, hand as backs in order, count, place, prize cards.

Other hands are only ever backs (T3); prize cards are backs too, unseen even by their owner until
the game ends (T8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from fairdeal.engine.lie import LieView, Phase
from fairdeal.p2p.table.core.api import SeatInfo
from fairdeal.ui.games.lie.widgets.cards import backs_text, letters_for, ordinal
from fairdeal.ui.widgets.watchers import WatchersLine


class LiePlayersView(Static):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Players"
        self._watchers = WatchersLine()  # rewritten only when the watchers change

    def show(
        self,
        view: LieView,
        seats: Sequence[SeatInfo],
        marks: Mapping[int, Sequence[str]] | None = None,
        watchers: Sequence[tuple[str, str]] = (),
        *,
        watching: bool = False,
    ) -> None:
        """`marks`: seat -> its presence at a networked table (OFFLINE, WAIT, LEFT), in words;
        `watchers`: name and key code of each peer watching the table (protocol.md 4.8);
        `watching`: the screen is a watcher's, whose hand below is the watched seat's."""
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
                cards = Text("(hand below)" if watching else "(your hand, below)", style="dim")
            else:
                cards = backs_text([state.backs[slot] for slot in hand], letters)
                taken = state.unplaced[seat] if building else None
                if taken is not None:  # T3: taken, its front seen by that seat, not yet placed
                    cards.append(" +", style="dim")
                    cards.append_text(backs_text([state.backs[taken]], letters))
            count = f"{len(hand)}/{size}" if building else f"{len(hand)} left"
            notes = Text()
            presence = (marks or {}).get(seat)
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
        if tuple(watchers) != self._watchers.watchers:
            self._watchers.update(watchers)
        line = self._watchers.line
        self.update(table if line is None else Group(table, line))
