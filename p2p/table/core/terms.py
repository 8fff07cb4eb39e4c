"""A table's terms: the options the lobby signs, and every other term at the rulebook's value.

Every seat's join carries the table's terms (game, seats, options). Every term that changes the
game is either signed in the lobby (the game's `lobby_options`) or fixed at the rulebook's
value (protocol.md 10.2); a table refuses options that carry any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Protocol

from fairdeal.engine.games import get_game
from fairdeal.p2p.lobby.roster import OptionValue


class GameTerms(Protocol):
    """What these rules read of a game's table class (`TableDriver` and its classmethods)."""

    @property
    def game_name(self) -> str: ...

    def lobby_options(self, options: Any) -> dict[str, OptionValue]: ...

    def options_for_join(self, options: Any) -> Any: ...

    def options_from_lobby(self, values: Mapping[str, Any]) -> Any: ...

    def unsigned_terms(self, options: Any) -> dict[str, tuple[Any, Any]]: ...


def options_from_lobby(table: GameTerms, values: Mapping[str, Any]) -> Any:
    """The options a roster signed (`lobby_options`' fields, the rest at the rulebook's
    defaults); ValueError for a field the game's lobby does not show or of the wrong type."""
    default = get_game(table.game_name).default_options()
    shown = table.lobby_options(default)
    for name, value in values.items():
        if name not in shown or type(value) is not type(shown[name]):
            raise ValueError(f"{name}={value!r} is not an option of {table.game_name}'s lobby")
    return replace(default, **values)


def unsigned_terms(table: GameTerms, options: Any) -> dict[str, tuple[Any, Any]]:
    """The join terms that the lobby does not sign and that differ from the rulebook's, as
    {name: (this value, the rulebook's)}: this must be empty."""
    fixed = table.options_for_join(table.options_from_lobby(table.lobby_options(options)))
    carried = table.options_for_join(options)
    return {
        name: (carried.get(name), fixed.get(name))
        for name in sorted(fixed.keys() | carried.keys())
        if carried.get(name) != fixed.get(name)
    }


def check_terms(table: GameTerms, options: Any) -> None:
    """ValueError naming the first unsigned term that is not the rulebook's."""
    for name, (value, rulebook) in table.unsigned_terms(options).items():
        signed = ", ".join(sorted(table.lobby_options(options))) or "nothing"
        raise ValueError(
            f"{table.game_name}'s {name} is {value!r}, not the rulebook's {rulebook!r}: "
            f"the lobby signs only {signed}; every other term is the rulebook's"
        )
