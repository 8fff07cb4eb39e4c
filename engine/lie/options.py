"""Table options for The Lie, agreed by every seat before the game (RULINGS "configurable")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairdeal.engine.lie.cards import DECK_SIZE, DEFAULT_COLOUR_NAMES

MIN_PLAYERS, MAX_PLAYERS = 2, 6  # T2


@dataclass(frozen=True, slots=True)
class LieOptions:
    """Everything configurable about a game of The Lie.

    `hand_size` is 12 by the rules (T3); smaller hands are for tests and quick games. `prizes` are
    the prize cards by placement (T8) and `prizes_two_players` the same for a 2-player game.
    """

    rounds: int = 3  # T9
    hand_size: int = 12  # T3
    prizes: tuple[int, ...] = (3, 2, 1)  # T8
    prizes_two_players: tuple[int, ...] = (3, 1)  # T8
    colour_names: tuple[str, ...] = DEFAULT_COLOUR_NAMES  # T1

    def prizes_for(self, players: int) -> tuple[int, ...]:
        return self.prizes_two_players if players == 2 else self.prizes

    def out_to_end(self, players: int) -> int:
        """T7: how many players are out when the round ends (the last one left is placed too)."""
        return 3 if players >= 4 else players - 1

    def validate(self, players: int) -> None:
        """Raise ValueError when these options cannot make a game for `players` seats."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"The Lie needs {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
        if self.rounds < 1:
            raise ValueError("a game has at least one round")
        if self.hand_size < 1:
            raise ValueError("hand_size must be at least 1")
        prizes_won = sum(self.prizes_for(players)) * (self.rounds - 1)
        if players * self.hand_size > DECK_SIZE - prizes_won:
            raise ValueError(f"{DECK_SIZE} cards cannot make {players} hands of {self.hand_size}")
        if any(count < 0 for count in self.prizes + self.prizes_two_players):
            raise ValueError("prize counts must not be negative")
        if len(self.colour_names) != 4 or len({n[:1].lower() for n in self.colour_names}) != 4:
            raise ValueError("name 4 colours with 4 different first letters")


def options_from_data(data: Mapping[str, Any]) -> LieOptions:
    """LieOptions from their plain-data fields (protocol.md section 7); ValueError if invalid."""
    from fairdeal.engine.codec import from_data

    raw = dict(data)
    raw["type"] = "LieOptions"
    options: LieOptions = from_data(raw, LieOptions)
    return options
