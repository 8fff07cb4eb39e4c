"""Larry games dealt on purpose: a deck order that gives each seat the named cards, an oracle
dealt from it, and the slot that holds a named card."""

from __future__ import annotations

from fairdeal.engine.larry import LarryOptions, OracleDriver
from fairdeal.engine.larry.cards import deck_of

DECK = deck_of(LarryOptions())


def deck_dealing(hands: list[list[str]], per: int) -> list[int]:
    """A deck order dealing each seat these cards (filled up `per` a seat in deck order), then
    the rest."""
    used: set[int] = set()
    chosen: list[list[int]] = []
    for hand in hands:
        ids = []
        for name in hand:
            card = next(c for c in DECK if c.name == name and c.id not in used)
            used.add(card.id)
            ids.append(card.id)
        chosen.append(ids)
    rest = [card.id for card in DECK if card.id not in used]
    order: list[int] = []
    for ids in chosen:
        fill = per - len(ids)
        order += ids + rest[:fill]
        rest = rest[fill:]
    return order + rest


def driver_with_hands(hands: list[list[str]], players: int = 3) -> OracleDriver:
    """An oracle whose first deal gives these cards (filled up in deck order)."""
    per = LarryOptions().cards_per_player(players)
    return OracleDriver(players, decks=[deck_dealing(hands, per)])


def slot_of(driver: OracleDriver, seat: int, name: str) -> int:
    """The slot in `seat`'s hand that holds the card named `name`."""
    return next(s for s in driver.state.hands[seat] if DECK[driver.faces[s]].name == name)
