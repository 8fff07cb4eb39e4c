"""The pile in play order: who played each card, face-down (??) or face-up, and the total said.

The panel draws itself from the view and the seats it is given (reactive: a change draws it).
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from fairdeal.engine.larry import LarryView
from fairdeal.p2p.table.core.api import SeatInfo
from fairdeal.ui.games.larry.narrator import card_label


class PileView(Static):
    view: reactive[LarryView | None] = reactive(None, layout=False, repaint=False)
    seats: reactive[tuple[SeatInfo, ...]] = reactive(tuple, layout=False, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Pile"

    def draw(self) -> None:
        view, seats = self.view, self.seats
        if view is None:
            return  # no table yet: nothing to draw
        if not view.pile:
            self.update(Text("empty: the next card starts a round at 0 (L7)", style="dim"))
            return
        deck = view.deck
        revealed = view.state.revealed
        text = Text()
        for index, ((slot, face), seat) in enumerate(zip(view.pile, view.pile_seats, strict=True)):
            if index:
                text.append(" │ ", style="dim")
            said = view.pile_totals[index] if index < len(view.pile_totals) else view.announced
            text.append(seats[seat].name.removesuffix(" (bot)"))
            if slot in revealed and face is not None:
                text.append(f" up:{card_label(deck[face])}", style="bold")
            elif face is not None:
                text.append(f" ({card_label(deck[face])})", style="italic")
            else:
                text.append(" ??", style="dim")
            text.append(f"→{said}")
        self.update(text)

    watch_view = watch_seats = draw
