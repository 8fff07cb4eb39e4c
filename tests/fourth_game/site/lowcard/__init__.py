"""Low card: a fourth game built in tests/ from docs/architecture.md alone (Adding a game).

Each seat is dealt two cards face down; in seat order every seat shows the one it chooses; the
lowest card shown wins. Registered from outside fairdeal through lowcard-0.dist-info.
"""

from __future__ import annotations

from fairdeal.engine.game import Game
from fairdeal.engine.game_package import GameModules
from lowcard import codec, game
from lowcard.game import Action, Event, LowCardOptions, LowCardState, LowCardView

__all__ = ["GAME"]


def _actors(state: LowCardState) -> tuple[int, ...]:
    seat = state.to_act()
    return () if seat is None else (seat,)


def _backs(options: LowCardOptions) -> tuple[int, ...]:
    return (0,) * options.cards


# one module plays rules, legal moves, view, options and bots
GAME: Game[LowCardState, LowCardView, Action, Event, LowCardOptions] = GameModules(
    game, game, game, game, game, codec
).game(
    "lowcard", "Low card", LowCardOptions, actors=_actors, backs=_backs, card_names=game.card_names
)
