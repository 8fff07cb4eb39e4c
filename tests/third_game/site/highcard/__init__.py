"""High card: a third game that lives only in tests/, to prove that a game is a plugin.

Each seat is dealt one card face down by the fair deck; in seat order every seat shows its card;
the highest card wins (card ids are strengths: rank, then suit; see cards.py). It is registered
from outside fairdeal through the `fairdeal.games` and `fairdeal.tables` entry points of
highcard-0.dist-info/entry_points.txt (docs/architecture.md "Adding a game").
"""

from __future__ import annotations

from fairdeal.engine.game import Game
from fairdeal.engine.game_package import GameModules
from highcard import cards, codec, rules, view
from highcard.actions import Action, CardShown, Event, Show, Won
from highcard.cards import HighCardOptions, card_names
from highcard.state import HighCardState, Phase
from highcard.view import HighCardView

__all__ = [
    "GAME",
    "CardShown",
    "HighCardOptions",
    "HighCardState",
    "HighCardView",
    "Phase",
    "Show",
    "Won",
]


def _actors(state: HighCardState) -> tuple[int, ...]:
    seat = state.to_act()
    return () if seat is None else (seat,)


def _backs(options: HighCardOptions) -> tuple[int, ...]:
    return (0,) * options.deck_size  # one back for every card


# The record wired by the shared factory from this package's modules: its view module is its
# legal moves and its bots too, and its cards module its options.
MODULES = GameModules(rules, view, view, cards, view, codec)
GAME: Game[HighCardState, HighCardView, Action, Event, HighCardOptions] = MODULES.game(
    "highcard", "High card", HighCardOptions, actors=_actors, backs=_backs, card_names=card_names
)
