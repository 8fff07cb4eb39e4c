"""The table driver of each game, by the game's name: how peer, audit, resume and simulate choose.

A game's table part lives in its own module (p2p.table.larry, p2p.table.lie) and is imported on
first use, as the engine's registry does (fairdeal.engine.games).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from fairdeal.engine.games import NAMES, game_of_options
from fairdeal.p2p.table.driver import TableDriver

# Game name -> "module:class" of its table driver.
DRIVERS: dict[str, str] = {
    "larry": "fairdeal.p2p.table.larry:LarryTable",
    "lie": "fairdeal.p2p.table.lie:LieTable",
}


def table_class(game: str) -> type[TableDriver]:
    """The table driver class of the game called `game`; ValueError naming the choices."""
    where = DRIVERS.get(game)
    if where is None:
        raise ValueError(f"unknown game {game!r} (choose {' or '.join(NAMES)})")
    module, name = where.split(":")
    driver: type[TableDriver] = getattr(import_module(module), name)
    return driver


def table_class_for(options: Any) -> type[TableDriver]:
    """The table driver of the game whose options these are (LarryOptions -> LarryTable)."""
    return table_class(game_of_options(options).name)
