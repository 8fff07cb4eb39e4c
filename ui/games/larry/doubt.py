"""After a doubt (L9/L16): the pile turned over card by card, then the totals and the verdict."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from fairdeal.engine.larry import Card, CardKind
from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.p2p.table.core.api import SeatInfo
from fairdeal.ui.games.larry.narrator import card_label, counted
from fairdeal.ui.proofs import PROOF_MARKS


class DoubtScreen(ModalScreen[None]):
    """The pile turned over. A doubt of ours steps a card per space press (Enter: all); one
    between other seats (`linger` given) plays by itself, `interval` seconds a card, and says so.
    An interval of 0 shows every card at once, as tests and snapshots do."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "next", "Turn next"),
        Binding("enter", "close", "All / close"),
        Binding("escape", "dismiss_now", "Close now"),
    ]

    def __init__(
        self,
        verification: DoubtVerification,
        seats: Sequence[SeatInfo],
        deck: Sequence[Card],
        interval: float = 0.4,
        said: Sequence[int] = (),
        linger: float | None = None,
        on_all_shown: Callable[[], None] | None = None,
    ) -> None:
        """`said`: the total announced with each pile card, when the table screen knows it.
        `linger`: close by itself this many seconds after the last card is shown (None: stay).
        `on_all_shown`: called once every card is turned (the table then logs the result)."""
        super().__init__()
        self.on_all_shown = on_all_shown
        self.linger = linger
        self.said = tuple(said) if len(said) == len(verification.cards) else ()
        self.verification = verification
        self.seats = tuple(seats)
        self.deck = tuple(deck)
        self.interval = interval
        self.shown = len(verification.cards) if interval <= 0 else 0
        self.auto_play = linger is not None  # other seats' doubt: nobody needs to press a key

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            doubter = self.seats[self.verification.doubter].name
            last = self.seats[self.verification.last_player].name
            yield Static(
                f"{doubter} doubts {last}'s total of {self.verification.announced}.",
                classes="title",
                markup=False,  # names are chosen by the players
            )
            yield Static(id="doubt-cards")
            yield Static(id="doubt-verdict")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self._redraw()
        if self.shown >= len(self.verification.cards):
            self._all_shown()
        elif self.auto_play:
            self.set_interval(self.interval, self.action_next)

    def action_next(self) -> None:
        if self.shown < len(self.verification.cards):
            self.shown += 1
            self._redraw()
            if self.shown == len(self.verification.cards):
                self._all_shown()

    def _all_shown(self) -> None:
        if self.on_all_shown is not None:
            self.on_all_shown()
        if self.linger is not None:
            self.set_timer(self.linger, self._close_if_open)

    def _close_if_open(self) -> None:
        if self.is_attached and self.app.screen is self:
            self.dismiss(None)

    def action_close(self) -> None:
        if self.shown < len(self.verification.cards):
            self.shown = len(self.verification.cards)
            self._redraw()
            self._all_shown()
            return
        self.dismiss(None)

    def action_dismiss_now(self) -> None:
        self.dismiss(None)

    def _redraw(self) -> None:
        check = self.verification
        table = Table(box=None, padding=(0, 1), expand=True)
        columns = ["#", "played by", "said", "how", "card", "counts", "proof"]
        if not self.said:
            columns.remove("said")
        for column in columns:
            table.add_column(column, no_wrap=True)
        running = 0
        for index, card in enumerate(check.cards):
            said = [str(self.said[index])] if self.said else []
            if index >= self.shown:
                table.add_row(str(index + 1), self.seats[card.seat].name, *said, "", "??", "", "")
                continue
            face = self.deck[card.face]
            value = face.value if face.kind is CardKind.NUMBER else 0
            running += value
            mark, style = PROOF_MARKS[card.proof]
            table.add_row(
                str(index + 1),
                self.seats[card.seat].name,
                *said,
                "face-up" if card.face_up else "face-down",
                card_label(face),
                f"{value:+d} = {running}",
                Text(mark, style=style),
            )
        self.query_one("#doubt-cards", Static).update(table)
        verdict = Text()
        if self.shown >= len(check.cards):
            verdict.append(f"True total {check.true_total}, announced {check.announced}. ")
            if check.gloats % 2 == 1:
                verdict.append(
                    f"{counted(check.gloats, 'gloat card')}: the total counts as right (L8). "
                )
            if check.correct:
                verdict.append("RIGHT", style="bold green")
                verdict.append(" — the doubter was wrong. ")
            else:
                verdict.append("WRONG", style="bold red")
                verdict.append(" — the doubt was right. ")
            verdict.append(f"{self.seats[check.loser].name} picks up 2 (L9).", style="bold")
        else:
            how = (
                "Turning the pile over by itself… (Enter: all now, Esc: close)"
                if self.auto_play
                else "Press space to turn the next card over (Enter: all)."
            )
            verdict.append(how, style="dim")
        self.query_one("#doubt-verdict", Static).update(verdict)
