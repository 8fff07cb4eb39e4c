"""The Larry deck as data (L1 composition, L2 Larry symbols).

A *face* is a card id: an index into the canonical deck list built from the options. Hidden cards
are deck *slots* elsewhere in the engine; a face only appears once a slot has been revealed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Protocol


class CardKind(StrEnum):
    NUMBER = "number"
    GLOAT = "gloat"
    FACE_UP = "face_up"  # L12 "play face-up"
    PICK_UP_2 = "pick_up_2"  # L10
    GIVE_AWAY_1 = "give_away_1"  # L11
    CHANGE_DIRECTION = "change_direction"  # L13


ACTION_KINDS: frozenset[CardKind] = frozenset(
    {CardKind.FACE_UP, CardKind.PICK_UP_2, CardKind.GIVE_AWAY_1, CardKind.CHANGE_DIRECTION}
)
# Face-up actions that are played "against any other player" and so need a target seat.
TARGETED_KINDS: frozenset[CardKind] = frozenset(
    {CardKind.FACE_UP, CardKind.PICK_UP_2, CardKind.GIVE_AWAY_1}
)


@dataclass(frozen=True, slots=True)
class Card:
    """One card. `value` is what it adds to a pile when summed (L9: 0 unless a number card)."""

    id: int
    kind: CardKind
    value: int
    symbols: int  # Larry symbols: minus points when left in a hand at the end (L2, L17)

    @property
    def name(self) -> str:
        return str(self.value) if self.kind is CardKind.NUMBER else self.kind.value

    @property
    def is_action(self) -> bool:
        return self.kind in ACTION_KINDS


class DeckTerms(Protocol):
    """What the deck is built from: the options' composition (engine/larry/options.py
    `LarryOptions`, which imports this module, so the deck names only what it reads)."""

    @property
    def numbers(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def actions(self) -> tuple[tuple[str, int], ...]: ...
    @property
    def gloats(self) -> int: ...
    def symbols_for(self, kind: CardKind, value: int) -> int: ...
    def __hash__(self) -> int: ...


@lru_cache(maxsize=32)
def build_deck(options: DeckTerms) -> tuple[Card, ...]:
    """The canonical deck list for these options: numbers (in the order of L1), actions, gloats."""
    specs: list[tuple[CardKind, int]] = []
    for value, count in options.numbers:
        specs.extend([(CardKind.NUMBER, value)] * count)
    for kind, count in options.actions:
        specs.extend([(CardKind(kind), 0)] * count)
    specs.extend([(CardKind.GLOAT, 0)] * options.gloats)
    return tuple(
        Card(card_id, kind, value, options.symbols_for(kind, value))
        for card_id, (kind, value) in enumerate(specs)
    )


_DECKS_BY_IDENTITY: dict[int, tuple[DeckTerms, tuple[Card, ...]]] = {}


def deck_of(options: DeckTerms) -> tuple[Card, ...]:
    """build_deck for the hot path: looked up by the options' identity, not its (slow) hash.

    The entry keeps `options` alive, so its id cannot be reused by another object.
    """
    entry = _DECKS_BY_IDENTITY.get(id(options))
    if entry is not None and entry[0] is options:
        return entry[1]
    if len(_DECKS_BY_IDENTITY) > 256:
        _DECKS_BY_IDENTITY.clear()
    deck = build_deck(options)
    _DECKS_BY_IDENTITY[id(options)] = (options, deck)
    return deck


_LOWEST_BY_IDENTITY: dict[int, tuple[DeckTerms, int]] = {}


def lowest_value(options: DeckTerms) -> int:
    """The lowest value a card adds to a pile (0 when no card is negative)."""
    entry = _LOWEST_BY_IDENTITY.get(id(options))
    if entry is not None and entry[0] is options:
        return entry[1]
    if len(_LOWEST_BY_IDENTITY) > 256:
        _LOWEST_BY_IDENTITY.clear()
    low = min([0, *(card.value for card in deck_of(options))])
    _LOWEST_BY_IDENTITY[id(options)] = (options, low)
    return low


def card_by_name(deck: tuple[Card, ...], name: str, exclude: set[int] | None = None) -> Card:
    """The first card called `name` ("7", "-2", "gloat", "pick_up_2", …) not in `exclude`."""
    for card in deck:
        if card.name == name and (exclude is None or card.id not in exclude):
            return card
    raise KeyError(f"no (more) card named {name!r} in the deck")
