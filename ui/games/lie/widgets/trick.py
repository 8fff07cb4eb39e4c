"""The current trick of The Lie: who played what, the number to beat, the lead colour (T5).

Once a trick is won it stays on show, with its winner, until the next one has its first play.
The panel draws itself from what it is given: each field is reactive, and a change draws it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from fairdeal.p2p.table.core.api import ProofStatus, combined_proof
from fairdeal.ui.games.lie.widgets.cards import fronts_text
from fairdeal.ui.proofs import short_mark


@dataclass(frozen=True, slots=True)
class TrickLine:
    seat: int
    faces: tuple[int, ...]  # () for a pass
    number: int
    slots: tuple[int, ...] = ()  # the played slots, whose proofs the line marks


@dataclass(frozen=True, slots=True)
class TrickShown:
    number: int  # the trick's number in the round
    lines: tuple[TrickLine, ...]
    winner: int | None  # set once the trick is won
    lead_colour: int | None
    best: int


class LieTrickView(Static):
    # the trick on display (None: no trick yet), and whose go it is while it is not won
    trick: reactive[TrickShown | None] = reactive(None, layout=False, repaint=False)
    waiting_for: reactive[int | None] = reactive(None, layout=False, repaint=False)
    names: reactive[tuple[str, ...]] = reactive(tuple, layout=False, repaint=False)
    colour_names: reactive[tuple[str, ...]] = reactive(tuple, layout=False, repaint=False)
    letters: reactive[tuple[str, ...]] = reactive(tuple, layout=False, repaint=False)
    # slot -> the proof of its revealed front; a play whose every front was proved is marked
    # ✓, one with a failed proof ✗ (a local table: no mark)
    proofs: reactive[Mapping[int, ProofStatus]] = reactive(dict, layout=False, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Trick"

    def draw(self) -> None:
        trick, names, letters = self.trick, self.names, self.letters
        if trick is None:
            self.border_title = "Trick"
            self.update(Text("No trick yet.", style="dim"))
            return
        self.border_title = f"Trick {trick.number}"
        text = Text(no_wrap=True, overflow="ellipsis")
        if trick.lead_colour is not None:
            text.append(f"Lead: {self.colour_names[trick.lead_colour]}", style="bold")
            text.append(f" · to beat: {trick.best}\n")
        for line in trick.lines:
            text.append(f"{names[line.seat][:14]:<14} ")
            if line.faces:
                text.append_text(fronts_text(line.faces, letters))
                text.append(f" = {line.number}")
                mark = short_mark(combined_proof(self.proofs.get(slot) for slot in line.slots))
                if mark:
                    text.append(" ")
                    text.append_text(mark)
                if trick.winner == line.seat:
                    text.append("  ★ wins the trick", style="bold")
            else:
                text.append("passes", style="dim")
            text.append("\n")
        waiting_for = self.waiting_for
        if trick.winner is None and waiting_for is not None:
            text.append(f"{names[waiting_for][:14]:<14} …", style="dim")
        text.rstrip()
        self.update(text)

    watch_trick = watch_waiting_for = watch_names = watch_colour_names = draw
    watch_letters = watch_proofs = draw
