"""Scenario files: a game set up by hand, a script of actions, and what must come out.

The format is documented in tests/scenarios/README.md. `run_scenario(data)` takes the parsed
JSON and returns a ScenarioResult with every difference found (an empty list means pass).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fairdeal.engine import errors as E
from fairdeal.engine.actions import AcceptOut, Action, Doubt, PlayFaceDown, PlayFaceUp
from fairdeal.engine.cards import Card, CardKind, build_deck
from fairdeal.engine.codec import DecodeError, from_data, to_data
from fairdeal.engine.events import Event
from fairdeal.engine.options import LarryOptions
from fairdeal.engine.oracle import OracleDriver

TOP_KEYS = {
    "name",
    "description",
    "rulings",
    "players",
    "options",
    "deck",
    "hands",
    "pickup",
    "decks",
    "reshuffles",
    "script",
    "expect",
}
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
EXPECT_KEYS = {
    "events",
    "hand_sizes",
    "scores",
    "phase",
    "turn",
    "limit",
    "direction",
    "announced",
    "winners",
    "pile_size",
    "pickup_count",
    "discard_count",
    "obligated",
    "hand_no",
    "hands",
    "deck_counts",
}


class ScenarioError(ValueError):
    """The scenario file itself is malformed (as opposed to a failing expectation)."""


@dataclass
class ScenarioResult:
    name: str
    failures: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


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
        order: list[int] = []
        for seat, hand in enumerate(chosen):
            if len(hand) > per:
                raise ScenarioError(f"hand {seat} lists {len(hand)} cards, {per} are dealt")
            fill = per - len(hand)
            order += hand + rest[:fill]
            rest = rest[fill:]
        return order + top + rest
    order = _card_ids(deck, list(key_deck), used, "deck")
    return order + [c.id for c in deck if c.id not in used]


def _options(data: Mapping[str, Any]) -> LarryOptions:
    raw = dict(data.get("options", {}))
    raw["type"] = "LarryOptions"
    try:
        return from_data(raw, LarryOptions)
    except DecodeError as error:
        raise ScenarioError(f"options: {error}") from None


def _action(step: Mapping[str, Any], driver: OracleDriver, index: int) -> tuple[int, Action]:
    where = f"step {index}"
    unknown = set(step) - STEP_KEYS
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    seat = step.get("seat")
    if not isinstance(seat, int):
        raise ScenarioError(f"{where}: 'seat' must be an integer")
    state = driver.state
    deck = build_deck(state.options)
    hand = state.hands[seat] if 0 <= seat < state.players else ()
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


def _match(expected: Any, actual: Any) -> bool:
    """Partial match: dicts match on the keys given, lists item by item."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and _match(value, actual[key]) for key, value in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(_match(e, a) for e, a in zip(expected, actual, strict=True))
        )
    return expected == actual


def _check(
    expect: Mapping[str, Any], driver: OracleDriver, events: list[Event], where: str
) -> list[str]:
    unknown = set(expect) - EXPECT_KEYS
    if unknown:
        raise ScenarioError(f"{where}: unknown expectation(s) {', '.join(sorted(unknown))}")
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
        "hand_no": state.hand_no,
        "hands": [sorted(deck[driver.faces[s]].name for s in hand) for hand in state.hands],
    }
    counts: dict[str, int] = {}
    for card in deck:
        counts[card.name] = counts.get(card.name, 0) + 1
    actual["deck_counts"] = counts
    failures = []
    for key, value in expect.items():
        if key == "events":
            failures += _check_events(value, events, where)
        elif key == "hands":
            wanted = [sorted(str(name) for name in hand) for hand in value]
            if wanted != actual["hands"]:
                failures.append(f"{where}: hands expected {wanted}, got {actual['hands']}")
        elif not _match(value, actual[key]):
            failures.append(f"{where}: {key} expected {value!r}, got {actual[key]!r}")
    return failures


def _check_events(expected: list[Any], events: list[Event], where: str) -> list[str]:
    """Each expected event must appear, in order (others may come between)."""
    actual = [to_data(event) for event in events]
    position = 0
    for number, wanted in enumerate(expected):
        while position < len(actual) and not _match(wanted, actual[position]):
            position += 1
        if position == len(actual):
            shown = "\n".join(f"      {event}" for event in actual)
            return [
                f"{where}: expected event #{number} {wanted} was not found "
                f"(in order) among the events:\n{shown}"
            ]
        position += 1
    return []


def run_scenario(data: Mapping[str, Any]) -> ScenarioResult:
    """Run one parsed scenario. Raises ScenarioError when the file itself is malformed."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise ScenarioError(f"unknown key(s) {', '.join(sorted(unknown))}")
    players = data.get("players")
    if not isinstance(players, int):
        raise ScenarioError("'players' must be an integer")
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

    result = ScenarioResult(str(data.get("name", "scenario")))
    try:
        driver = OracleDriver(players, options, seed=0, decks=decks, reshuffle=reshuffle)
    except ValueError as error:
        raise ScenarioError(str(error)) from None
    result.events = list(driver.events)
    for index, step in enumerate(data.get("script", [])):
        if not isinstance(step, dict):
            raise ScenarioError(f"step {index}: a step is a JSON object")
        seat, action = _action(step, driver, index)
        before = len(driver.events)
        wanted_error = step.get("error")
        try:
            driver.act(seat, action)
        except E.IllegalAction as error:
            name = type(error).__name__
            if wanted_error is None:
                result.failures.append(f"step {index}: {action} was refused: {name}: {error}")
                return result
            if name != wanted_error:
                result.failures.append(
                    f"step {index}: expected {wanted_error}, got {name}: {error}"
                )
            continue
        if wanted_error is not None:
            result.failures.append(f"step {index}: expected {wanted_error}, but it was accepted")
            return result
        step_events = driver.events[before:]
        result.events.extend(step_events)
        if "expect" in step:
            result.failures += _check(step["expect"], driver, step_events, f"after step {index}")
    result.failures += _check(data.get("expect", {}), driver, result.events, "at the end")
    return result
