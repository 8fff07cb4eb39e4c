"""The table driver of each game, by the game's name: how peer, audit, resume and simulate choose.

A game's table part lives in its own folder (p2p/games/<game>/) and is found through the
`fairdeal.tables` entry points (fairdeal.engine.registry), loaded on first use.
"""

from __future__ import annotations

from typing import Any

from fairdeal.engine.games import game_of_options
from fairdeal.engine.registry import Registry
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.part import REQUIRED

TABLES: Registry[type] = Registry("fairdeal.tables", type)


def table_class(game: str) -> type[TableDriver]:
    """The table driver class of the game called `game`; ValueError naming the choices."""
    driver = TABLES.get(game)
    if not issubclass(driver, TableDriver):
        raise TypeError(f"the table of {game!r} is not a TableDriver")
    return driver


def table_class_for(options: Any) -> type[TableDriver]:
    """The table driver of the game whose options these are."""
    return table_class(game_of_options(options).name)


def own_names(table: type[TableDriver]) -> set[str]:
    """The names a game's table class and its bases define above the shared driver."""
    names: set[str] = set()
    for klass in table.__mro__:
        if klass is TableDriver:
            break
        names |= set(vars(klass))
    return names


def missing_part(table: type[TableDriver]) -> list[str]:
    """What of `TablePart` (p2p/table/core/part.py) a game's table leaves undefined: the driver
    has none of it."""
    return sorted(REQUIRED - own_names(table))
