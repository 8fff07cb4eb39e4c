"""Larry's scenario files: setup, steps, expectations (tests/scenarios/larry/README.md).

The script loop, the event matching and the result are shared (fairdeal.engine.scenario).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairdeal.engine.codec import DecodeError, from_data, to_data
from fairdeal.engine.larry.actions import AcceptOut, Action, Doubt, PlayFaceDown, PlayFaceUp
from fairdeal.engine.larry.cards import Card, CardKind, build_deck
from fairdeal.engine.larry.deal import deal_layout
from fairdeal.engine.larry.events import Event
from fairdeal.engine.larry.options import LarryOptions
from fairdeal.engine.oracle import OracleDriver
from fairdeal.engine.scenario import SCENARIO_KEYS, ScenarioError, compare

TOP_KEYS = {*SCENARIO_KEYS, "deck", "hands", "pickup", "decks", "reshuffles"}
STEP_KEYS = {
    "seat",
    "do",
    "card",
    "slot",
    "announce",
    "claim",
    "target",
    "give",
    "larry",
    "error",
    "expect",
    "note",
}


def _card_ids(deck: tuple[Card, ...], names: list[Any], used: set[int], where: str) -> list[int]:
    ids = []
    for name in names:
        if isinstance(name, int) and not isinstance(name, bool):
            if not 0 <= name < len(deck) or name in used:
                raise ScenarioError(f"{where}: card id {name} is unknown or used twice")
            card_id = name
        elif isinstance(name, str):
            try:
                card_id = next(c.id for c in deck if c.name == name and c.id not in used)
            except StopIteration:
                raise ScenarioError(f"{where}: no (more) card named {name!r}") from None
        else:
            raise ScenarioError(f"{where}: a card is a name or an id, not {name!r}")
        used.add(card_id)
        ids.append(card_id)
    return ids


def _deck_order(key_deck: Any, deck: tuple[Card, ...], players: int, per: int) -> list[int]:
    """The face order for a NewDeck: given hands (+ pickup), or a deck list; rest canonical."""
    used: set[int] = set()
    if isinstance(key_deck, dict):
        hands = key_deck.get("hands")
        pickup = key_deck.get("pickup", [])
        if not isinstance(hands, list) or len(hands) != players:
            raise ScenarioError(f"'hands' must list {players} hands")
        chosen = [_card_ids(deck, list(h), used, f"hand {i}") for i, h in enumerate(hands)]
        top = _card_ids(deck, list(pickup), used, "pickup")
        rest = [c.id for c in deck if c.id not in used]
        layout = deal_layout(players, per, len(deck))
        order: list[int | None] = [None] * len(deck)
        for seat, hand in enumerate(chosen):
            if len(hand) > per:
                raise ScenarioError(f"hand {seat} lists {len(hand)} cards, {per} are dealt")
            fill = per - len(hand)
            for position, card in zip(layout.hands[seat], hand + rest[:fill], strict=True):
                order[position] = card
            rest = rest[fill:]
        for position, card in zip(layout.pickup, top + rest, strict=True):
            order[position] = card
        return [card for card in order if card is not None]
    listed = _card_ids(deck, list(key_deck), used, "deck")
    return listed + [c.id for c in deck if c.id not in used]


def _options(data: Mapping[str, Any]) -> LarryOptions:
    raw = dict(data.get("options", {}))
    raw["type"] = "LarryOptions"
    try:
        options: LarryOptions = from_data(raw, LarryOptions)  # strictly decoded: its type
        return options
    except DecodeError as error:
        raise ScenarioError(f"options: {error}") from None


def action(step: Mapping[str, Any], driver: OracleDriver, index: int) -> tuple[int, Action]:
    where = f"step {index}"
    unknown = set(step) - STEP_KEYS
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    seat = step.get("seat")
    if not isinstance(seat, int):
        raise ScenarioError(f"{where}: 'seat' must be an integer")
    state = driver.state
    deck = build_deck(state.options)
    hand: tuple[int, ...] = state.hands[seat] if 0 <= seat < state.players else ()
    faces = driver.faces

    def slot_of(name: Any, exclude: int | None = None) -> int:
        for slot in hand:
            if slot != exclude and deck[faces[slot]].name == str(name):
                return slot
        raise ScenarioError(f"{where}: seat {seat} holds no card {name!r}")

    kind = step.get("do")
    if kind == "doubt":
        return seat, Doubt()
    if kind == "accept":
        return seat, AcceptOut()
    if kind not in ("down", "up"):
        raise ScenarioError(f"{where}: 'do' must be down, up, doubt or accept")
    if "slot" in step:
        slot = step["slot"]
    elif "card" in step:
        slot = slot_of(step["card"])
    else:
        raise ScenarioError(f"{where}: name the card ('card') or the slot ('slot')")
    if kind == "down":
        left = len(hand) - 1
        if "announce" not in step:
            raise ScenarioError(f"{where}: a face-down play needs 'announce'")
        return seat, PlayFaceDown(slot, step["announce"], step.get("larry", left == 1))
    give = slot_of(step["give"], exclude=slot) if "give" in step else None
    if "claim" in step:
        claim = CardKind(step["claim"])
    elif slot in faces:
        claim = deck[faces[slot]].kind
    else:
        raise ScenarioError(f"{where}: say what the face-up card is ('claim')")
    left = len(hand) - 1 - (1 if give is not None else 0)
    return seat, PlayFaceUp(slot, claim, step.get("target"), give, step.get("larry", left == 1))


def check(
    expect: Mapping[str, Any], driver: OracleDriver, events: list[Event], where: str
) -> list[str]:
    state = driver.state
    deck = build_deck(state.options)
    actual: dict[str, Any] = {
        "hand_sizes": list(state.hand_sizes()),
        "scores": list(state.scores),
        "phase": state.phase.value,
        "turn": state.to_act(),
        "limit": state.limit,
        "direction": state.direction,
        "announced": state.announced,
        "winners": list(state.winners),
        "pile_size": len(state.pile),
        "pickup_count": len(state.pickup),
        "discard_count": len(state.discard),
        "obligated": list(state.obligated),
        "in_front": [
            [deck[driver.faces[s]].name for s in cards]
            for cards in (state.in_front or ((),) * state.players)
        ],
        "shuffles": [to_data(shuffle) for shuffle in driver.shuffles],
        "hand_no": state.hand_no,
        "hands": [sorted(deck[driver.faces[s]].name for s in hand) for hand in state.hands],
    }
    counts: dict[str, int] = {}
    for card in deck:
        counts[card.name] = counts.get(card.name, 0) + 1
    actual["deck_counts"] = counts

    def hands(value: Any) -> list[str]:
        wanted = [sorted(str(name) for name in hand) for hand in value]
        if wanted != actual["hands"]:
            return [f"{where}: hands expected {wanted}, got {actual['hands']}"]
        return []

    return compare(expect, actual, events, where, {"hands": hands})


def setup(data: Mapping[str, Any]) -> OracleDriver:
    """The oracle driver for a Larry scenario: options, deck orders and reshuffles of the file."""
    players: int = data["players"]
    options = _options(data)
    try:
        options.validate(players)
    except ValueError as error:
        raise ScenarioError(str(error)) from None
    deck = build_deck(options)
    per = options.cards_per_player(players)
    first: Any = (
        {"hands": data["hands"], "pickup": data.get("pickup", [])}
        if "hands" in data
        else data.get("deck", [])
    )
    decks = [_deck_order(first, deck, players, per)]
    decks += [_deck_order(later, deck, players, per) for later in data.get("decks", [])]
    reshuffles = [
        _card_ids(deck, list(order), set(), f"reshuffle {i}")
        for i, order in enumerate(data.get("reshuffles", []))
    ]
    queue = iter(reshuffles)

    def reshuffle(old: list[int]) -> list[int]:
        order = next(queue, None)
        return list(old) if order is None else order  # default: the discard pile's order

    try:
        driver = OracleDriver(players, options, seed=0, decks=decks, reshuffle=reshuffle)
    except ValueError as error:
        raise ScenarioError(str(error)) from None
    return driver
