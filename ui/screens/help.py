"""Keys and a summary of the rules of each game (its record's help, ui/screen_game.py)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

from fairdeal.ui.screen_game import screen_game, screen_games


class HelpScreen(ModalScreen[None]):
    """The rules and the table's keys; `first` (the lobby's keys, say) goes before them."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark,f1", "close", "Close")]

    def __init__(self, game: str | None = None, first: str = "") -> None:
        """The help of `game` (a registered game's name), or of every game (the lobby's help);
        `first` (the lobby's keys, say) goes before it."""
        super().__init__()
        self.game = game
        self.first = first

    def compose(self) -> ComposeResult:
        games = [screen_game(self.game)] if self.game else screen_games()
        texts = [game.help_text() for game in games]
        with VerticalScroll(classes="dialog wide tall"):
            yield Markdown("\n".join([self.first, *texts] if self.first else texts))
        yield Footer(compact=True, show_command_palette=False)

    def action_close(self) -> None:
        self.dismiss(None)
