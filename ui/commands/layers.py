"""What a command needs of a game beyond its rules, and the one line that says what is missing.

A game is one folder in each layer, each found through its entry-point group
(docs/architecture.md, The game plugin). A game may come with its rules alone (the engine's
`fairdeal.games`): `selfplay` plays it, but `simulate` also needs its table part and bots, and
a short game needs the app's record that says what a short game is. A command checks before it
starts and refuses with one line naming what is missing, instead of failing half-way.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum


class Layer(Enum):
    """A part of a game a command may need, and how the game provides it."""

    BOTS = "bots (the engine's Game record: bot_kinds and make_bot)"
    TABLE = "a table part (entry point group fairdeal.tables, p2p/table/core/part.py TablePart)"
    SCREENS = "an app record (entry point group fairdeal.screens, ui/screen_game.py)"


def missing(game: str, needs: Iterable[Layer]) -> list[str]:
    """What of `needs` the game called `game` lacks, in words; empty when nothing is."""
    from fairdeal.engine.games import get_game
    from fairdeal.p2p.table.core.games import TABLES, missing_part, table_class
    from fairdeal.ui.screen_game import SCREENS

    lacks = []
    for layer in needs:
        if layer is Layer.BOTS:
            has = bool(get_game(game).bot_kinds)
        elif layer is Layer.TABLE:
            has = game in TABLES.names()
            unwritten = missing_part(table_class(game)) if has else []
            if unwritten:
                lacks.append(f"a whole table part (it lacks {', '.join(unwritten)})")
                continue
        else:
            has = game in SCREENS.names()
        if not has:
            lacks.append(layer.value)
    return lacks


def refuse_missing(command: str, game: str, needs: Iterable[Layer]) -> None:
    """SystemExit with one line when the game lacks a layer `command` needs."""
    lacks = missing(game, needs)
    if lacks:
        raise SystemExit(f"fairdeal {command}: {game} lacks {'; and '.join(lacks)}")
