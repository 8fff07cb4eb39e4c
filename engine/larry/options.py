"""Table options for Larry, agreed by every seat before the game (RULINGS "configurable")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairdeal.engine.larry.actions import ANNOUNCE_MAX, ANNOUNCE_MIN
from fairdeal.engine.larry.cards import CardKind

# L1: 38 number cards as (value, count).
DEFAULT_NUMBERS: tuple[tuple[int, int], ...] = (
    (7, 3),
    (4, 6),
    (3, 6),
    (2, 6),
    (1, 5),
    (0, 4),
    (-1, 4),
    (-2, 4),
)
# L1: default split of the 13 action cards.
DEFAULT_ACTIONS: tuple[tuple[str, int], ...] = (
    (CardKind.FACE_UP.value, 4),
    (CardKind.PICK_UP_2.value, 3),
    (CardKind.GIVE_AWAY_1.value, 3),
    (CardKind.CHANGE_DIRECTION.value, 3),
)
# L3: cards per player by player count.
CARDS_PER_PLAYER: dict[int, int] = {2: 12, 3: 9, 4: 7, 5: 6, 6: 5, 7: 5, 8: 5}
MIN_PLAYERS, MAX_PLAYERS = 2, 8


@dataclass(frozen=True, slots=True)
class LarryOptions:
    """Everything configurable about a game of Larry. Hashable, so decks can be cached per options.

    `symbols` overrides the Larry symbols per card kind (L2): keys are a kind name ("gloat",
    "pick_up_2", …), "number" for every number card, or "number:V" for number cards of value V.
    Cards without an override carry `default_symbols`.
    """

    numbers: tuple[tuple[int, int], ...] = DEFAULT_NUMBERS
    actions: tuple[tuple[str, int], ...] = DEFAULT_ACTIONS
    gloats: int = 3
    default_symbols: int = 1
    symbols: tuple[tuple[str, int], ...] = ()
    short_game: bool = False  # L18: one hand, first player out wins
    hands: int = 3  # L18: hands in a full game
    first_seat: int = 0  # L5: who starts hand 1 (the table decides: host or joint coin)
    limits: tuple[int, int] = (7, 5)  # L4: starting limit, then the other side of the card
    penalty: int = 2  # cards picked up after a lost doubt, L10, L12, L15
    hand_size: int = 0  # cards dealt to each player; 0 follows the L3 table (tests, house rules)

    def cards_per_player(self, players: int) -> int:
        return self.hand_size or CARDS_PER_PLAYER[players]

    def symbols_for(self, kind: CardKind, value: int) -> int:
        table = dict(self.symbols)
        if kind is CardKind.NUMBER:
            if f"number:{value}" in table:
                return table[f"number:{value}"]
            return table.get("number", self.default_symbols)
        return table.get(kind.value, self.default_symbols)

    def validate(self, players: int) -> None:
        """Raise ValueError when these options cannot make a game for `players` seats."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Larry needs {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
        for kind, count in self.actions:
            if CardKind(kind) not in (
                CardKind.FACE_UP,
                CardKind.PICK_UP_2,
                CardKind.GIVE_AWAY_1,
                CardKind.CHANGE_DIRECTION,
            ):
                raise ValueError(f"{kind!r} is not an action card kind")
            if count < 0:
                raise ValueError(f"negative count for {kind!r}")
        if any(count < 0 for _, count in self.numbers) or self.gloats < 0:
            raise ValueError("card counts must not be negative")
        size = sum(c for _, c in self.numbers) + sum(c for _, c in self.actions) + self.gloats
        if self.hand_size < 0:
            raise ValueError("hand_size must not be negative")
        if size < players * self.cards_per_player(players):
            raise ValueError(f"a deck of {size} cards cannot deal {players} hands")
        if not 0 <= self.first_seat < players:
            raise ValueError(f"first_seat {self.first_seat} is not a seat of {players}")
        if self.hands < 1:
            raise ValueError("a game has at least one hand")
        if not all(ANNOUNCE_MIN <= limit <= ANNOUNCE_MAX for limit in self.limits):
            raise ValueError(f"the limits must lie in {ANNOUNCE_MIN}..{ANNOUNCE_MAX} (L4, L6)")

    @property
    def deck_size(self) -> int:
        return sum(c for _, c in self.numbers) + sum(c for _, c in self.actions) + self.gloats


def options_from_data(data: Mapping[str, Any]) -> LarryOptions:
    """LarryOptions from their plain-data fields (protocol.md section 7); ValueError if invalid."""
    from fairdeal.engine.codec import from_data

    raw = dict(data)
    raw["type"] = "LarryOptions"
    options: LarryOptions = from_data(raw, LarryOptions)
    return options
