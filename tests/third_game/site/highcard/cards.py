"""High card's deck and options: `ranks` x `suits` cards; a card id is also its strength.

Card id c has rank c // suits and suit c % suits, so a higher id is a higher rank, and between
equal ranks the later suit (clubs < diamonds < hearts < spades) wins: no two cards tie.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MIN_PLAYERS, MAX_PLAYERS = 2, 8
RANK_NAMES = "23456789TJQKA"  # the top `ranks` of these are in play (ace high)
SUIT_NAMES = "CDHS"


@dataclass(frozen=True, slots=True)
class HighCardOptions:
    """How many ranks (1-13, the highest ones) and suits (1-4) the deck holds."""

    ranks: int = 13
    suits: int = 4

    @property
    def deck_size(self) -> int:
        return self.ranks * self.suits

    def validate(self, players: int) -> None:
        """ValueError when these options cannot make a game for `players` seats."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"high card needs {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
        if not 1 <= self.ranks <= len(RANK_NAMES):
            raise ValueError(f"ranks must be 1-{len(RANK_NAMES)}, not {self.ranks}")
        if not 1 <= self.suits <= len(SUIT_NAMES):
            raise ValueError(f"suits must be 1-{len(SUIT_NAMES)}, not {self.suits}")
        if self.deck_size < players:
            raise ValueError(f"{self.deck_size} cards cannot give {players} players one each")


def options_from_data(data: Mapping[str, Any]) -> HighCardOptions:
    """HighCardOptions from their plain-data fields; ValueError (DecodeError) if invalid."""
    from fairdeal.engine.codec import from_data

    options: HighCardOptions = from_data({**data, "type": "HighCardOptions"}, HighCardOptions)
    return options


def card_names(options: HighCardOptions) -> tuple[str, ...]:
    """Every card's name by id: "AS" is the ace of spades, the strongest of a full deck."""
    ranks = RANK_NAMES[len(RANK_NAMES) - options.ranks :]
    return tuple(
        f"{ranks[card // options.suits]}{SUIT_NAMES[card % options.suits]}"
        for card in range(options.deck_size)
    )
