"""The registry of games: a name ("larry", "lie") to that game's `Game` surface."""

from __future__ import annotations

from importlib import import_module

from fairdeal.engine.game import Game

# Game name -> the package whose GAME it is. Imported on first use, so naming one game does not
# load the other.
PACKAGES: dict[str, str] = {
    "larry": "fairdeal.engine.larry",
    "lie": "fairdeal.engine.lie",
}
NAMES: tuple[str, ...] = tuple(PACKAGES)


def get_game(name: str) -> Game:
    """The game called `name`; ValueError naming the choices for an unknown one."""
    package = PACKAGES.get(name)
    if package is None:
        raise ValueError(f"unknown game {name!r} (choose {' or '.join(NAMES)})")
    game: Game = import_module(package).GAME
    return game


def game_of_options(options: object) -> Game:
    """The game whose options type `options` is (LarryOptions -> larry, LieOptions -> lie)."""
    for name in NAMES:
        game = get_game(name)
        if type(options) is game.options_type:
            return game
    raise ValueError(f"{type(options).__name__} are not the options of any game")
