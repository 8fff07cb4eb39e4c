"""The registry of games: a name to that game's `Game` surface, found through the
`fairdeal.games` entry points (fairdeal.engine.registry).

A game is picked by name at run time, so the registry cannot know its state, view, action, event
and options types: `AnyGame` is the one place they are erased. Each game's own `GAME` keeps them
(engine/larry/__init__.py, engine/lie/__init__.py).
"""

from __future__ import annotations

from typing import Any, TypeAlias

from fairdeal.engine.game import Game
from fairdeal.engine.registry import Registry

AnyGame: TypeAlias = Game[Any, Any, Any, Any, Any]

GAMES: Registry[AnyGame] = Registry("fairdeal.games", Game)


def game_names() -> tuple[str, ...]:
    """Every registered game's name; the first is the default game."""
    return GAMES.names()


def default_game() -> str:
    """The game `fairdeal play` opens when none is named."""
    return game_names()[0]


def get_game(name: str) -> AnyGame:
    """The game called `name`; ValueError naming the choices for an unknown one."""
    return GAMES.get(name)


def game_of_options(options: object) -> AnyGame:
    """The game whose options type `options` is."""
    for name in game_names():
        game = get_game(name)
        if type(options) is game.options_type:
            return game
    raise ValueError(f"{type(options).__name__} are not the options of any game")
