"""The Lie's score table: places and prize cards per round; at the end, the prizes turned over,
the points and the tie-breaks explained (T8, T10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from fairdeal.engine.lie.events import GameOver
from fairdeal.p2p.table.core.api import ProofStatus, SeatInfo
from fairdeal.ui.games.lie.widgets.cards import fronts_text, ordinal
from fairdeal.ui.proofs import short_mark
from fairdeal.ui.screens.presence import QUIT_FROM_MODAL
from fairdeal.ui.widgets.score_chart import score_chart


@dataclass(frozen=True)
class RoundResult:
    """One round's outcome: the placement (T6, T7) and the prize cards each place took (T8)."""

    round: int
    placement: tuple[int, ...]
    prizes: dict[int, int] = field(default_factory=dict)  # seat -> prize cards taken


def winner_text(final: GameOver, names: Sequence[str]) -> str:
    """Who won and why, the T10 tie-breaks spelled out."""
    scores, counts = final.scores, final.prize_counts
    top = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == top]
    if len(leaders) == 1:
        return f"{names[leaders[0]]} wins with {top} points (T10: the fronts of the prizes add up)."
    tied = " and ".join(names[seat] for seat in leaders)
    most = max(counts[seat] for seat in leaders)
    best = [seat for seat in leaders if counts[seat] == most]
    if len(best) == 1:
        return (
            f"{tied} have {top} points each; {names[best[0]]} has the most prize cards"
            f" ({most}) and wins (T10)."
        )
    sharing = " and ".join(names[seat] for seat in best)
    return (
        f"{tied} have {top} points each; {sharing} also have {most} prize cards each,"
        " so they share the win (T10)."
    )


class LieScoresScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape,s", "close", "Close"),
        QUIT_FROM_MODAL,
    ]

    def __init__(
        self,
        seats: Sequence[SeatInfo],
        rounds: Sequence[RoundResult],
        final: GameOver | None,
        letters: tuple[str, ...],
        title: str,
        prize_proofs: Mapping[int, ProofStatus] | None = None,
    ) -> None:
        """`prize_proofs`: seat -> the proof of its prizes turned over at the end (a networked
        table: ✓ or ✗ beside them; a local one has nothing to prove)."""
        super().__init__()
        self.prize_proofs = dict(prize_proofs or {})
        self.seats = tuple(seats)
        self.rounds = tuple(rounds)
        self.final = final
        self.letters = letters
        self.title_text = title

    def score_table(self) -> Table:
        table = Table(expand=True, padding=(0, 1))
        table.add_column("player", no_wrap=True)
        for result in self.rounds:
            table.add_column(f"round {result.round}", justify="center", no_wrap=True)
        if self.final is None:
            table.add_column("prize cards", justify="right")
        else:
            table.add_column("prizes turned over", no_wrap=True)
            table.add_column("pts", justify="right")
        for seat, info in enumerate(self.seats):
            cells: list[Text | str] = []
            for result in self.rounds:
                if seat in result.placement:
                    place = result.placement.index(seat) + 1
                    cells.append(f"{ordinal(place)} +{result.prizes.get(seat, 0)}")
                else:
                    cells.append("–")
            name = Text(info.name, style="bold" if info.is_me else "")
            if self.final is None:
                total = sum(result.prizes.get(seat, 0) for result in self.rounds)
                cells.append(f"{total} unseen" if total else "0")
            else:
                if seat in self.final.winners:
                    name.append(" ★", style="bold")
                faces = self.final.prizes[seat]
                shown = fronts_text(faces, self.letters) if faces else Text("none")
                mark = short_mark(self.prize_proofs.get(seat))
                if faces and mark:
                    shown.append(" ")
                    shown.append_text(mark)
                cells.append(shown)
                cells.append(str(self.final.scores[seat]))
            table.add_row(name, *cells)
        return table

    def chart(self) -> Text:
        """Prize cards taken per round (their points stay unseen until the end, T8)."""
        names = [info.name for info in self.seats]
        series = [[r.prizes.get(seat, 0) for seat in range(len(names))] for r in self.rounds]
        return score_chart(names, series, "round", "  (prize cards)")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(self.title_text, classes="title")
            yield Static(self.score_table())
            yield Static(self.chart(), classes="chart")
            if self.final is None:
                note = (
                    "Each round shows the place and the prize cards it took (1st +3): 1st takes"
                    " 3, 2nd 2 (1 with two players), 3rd 1 (T8)."
                    " Prize cards stay face down, unseen even by their owner, until the game"
                    " ends."
                )
            else:
                names = [seat.name for seat in self.seats]
                note = "Points: the numbers on the prize cards' fronts (T10). " + winner_text(
                    self.final, names
                )
            yield Static(note, classes="dim", markup=False)
        yield Footer(compact=True, show_command_palette=False)

    def action_close(self) -> None:
        self.dismiss(None)
