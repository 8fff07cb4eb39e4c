"""The Lie's scenario files: setup, steps, expectations (tests/scenarios/lie/README.md).

Cards are named "r3/b3" (a red 3 behind a blue-3 back) or by front alone ("r3": the lowest card id
with that front still available). Hands are built by claims, so a file needs no deck order: the
`hands` of a round are claimed round-robin (seat 0's first card, seat 1's first, …), each placed
to the right, before the script; the script may claim and place more (T3: a claim takes the card,
a place step puts it at an end once its front is seen). The table's layout keeps slot order, the
prize pile follows `prize_pile` (top first, the rest in table order), later rounds keep each card
in its place unless `reshuffles` says otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairdeal.engine.codec import DecodeError, to_data
from fairdeal.engine.lie.actions import Action, Claim, Pass, Place, Play, Side
from fairdeal.engine.lie.cards import DECK, card_names, colour_letters
from fairdeal.engine.lie.options import LieOptions, options_from_data
from fairdeal.engine.lie.state import LieState
from fairdeal.engine.oracle import OracleDriver
from fairdeal.engine.scenario import SCENARIO_KEYS, ScenarioError, compare

TOP_KEYS = {*SCENARIO_KEYS, "hands", "prize_pile", "rounds"}
STEP_KEYS = {"seat", "do", "card", "slot", "side", "cards", "slots", "error", "expect", "note"}
ROUND_KEYS = {"hands", "prize_pile"}


class _Names:
    """Card names <-> card ids for one table's colour names."""

    def __init__(self, options: LieOptions) -> None:
        self.full = card_names(options.colour_names)
        self.ids = {name: card for card, name in enumerate(self.full)}
        self.letters = colour_letters(options.colour_names)

    def matches(self, name: str, card: int) -> bool:
        if "/" in name:
            return self.full[card] == name
        return self.full[card].split("/")[0] == name

    def check(self, name: Any, where: str) -> str:
        if not isinstance(name, str):
            raise ScenarioError(f"{where}: a card is a name like 'r3' or 'r3/b3', not {name!r}")
        front = name.split("/")[0]
        if (
            len(front) != 2
            or front[0] not in self.letters
            or front[1] not in "1234"
            or ("/" in name and name not in self.ids)
        ):
            raise ScenarioError(f"{where}: no card is called {name!r}")
        return name


def _options(data: Mapping[str, Any]) -> LieOptions:
    try:
        options = options_from_data(dict(data.get("options", {})))
        options.validate(data["players"])
    except (DecodeError, ValueError) as error:
        raise ScenarioError(f"options: {error}") from None
    return options


def _rounds(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    first = {key: data[key] for key in ROUND_KEYS if key in data}
    later = data.get("rounds", [])
    if not isinstance(later, list):
        raise ScenarioError("'rounds' lists the setups of rounds 2, 3, … (objects)")
    for number, entry in enumerate(later, start=2):
        if not isinstance(entry, dict) or set(entry) - ROUND_KEYS:
            raise ScenarioError(f"round {number}: an object with 'hands' and 'prize_pile' only")
    return [first, *later]


class ScenarioDriver(OracleDriver):
    """The oracle driver of one scenario, with the file's card names and round setups."""

    names: _Names
    round_setups: list[Mapping[str, Any]]
    claimed_round: int  # the last round whose listed hands were claimed


def setup(data: Mapping[str, Any]) -> ScenarioDriver:
    """The oracle driver for a Lie scenario, with each round's hands claimed as the file says."""
    players: int = data["players"]
    options = _options(data)
    names = _Names(options)
    rounds = _rounds(data)
    driver_box: list[ScenarioDriver] = []

    def arrange(slots: tuple[int, ...], reason: str) -> list[int]:
        if reason == "layout":
            return list(slots)
        driver = driver_box[0]
        state: LieState = driver.state
        wanted = (
            rounds[state.round_no - 1].get("prize_pile", [])
            if state.round_no <= len(rounds)
            else []
        )
        rest = list(slots)
        top: list[int] = []
        for index, name in enumerate(wanted):
            name = names.check(name, f"round {state.round_no} prize_pile[{index}]")
            slot = next((s for s in rest if names.matches(name, driver.faces[s])), None)
            if slot is None:
                raise ScenarioError(f"prize_pile: {name!r} is not among the untaken cards")
            rest.remove(slot)
            top.append(slot)
        return top + rest

    driver = ScenarioDriver(
        players, options, seed=0, game="lie", arrange=arrange, reshuffle=list, start=False
    )
    driver_box.append(driver)
    driver.start()
    _claim_hands(driver, rounds[0], names)
    driver.round_setups = rounds
    driver.names = names
    driver.claimed_round = 1
    return driver


def _claim_hands(driver: OracleDriver, setup_of_round: Mapping[str, Any], names: _Names) -> None:
    hands = setup_of_round.get("hands")
    if hands is None:
        return
    state: LieState = driver.state
    where = f"round {state.round_no} hands"
    if not isinstance(hands, list) or len(hands) != state.players:
        raise ScenarioError(f"{where}: list {state.players} hands (card names)")
    longest = max((len(hand) for hand in hands), default=0)
    for index in range(longest):
        for seat, hand in enumerate(hands):
            if index < len(hand):
                name = names.check(hand[index], f"{where}[{seat}][{index}]")
                slot = _table_slot(driver, name, names, where)
                driver.act(seat, Claim(slot))
                if driver.state.unplaced[seat] is not None:  # the first card places itself
                    driver.act(seat, Place(Side.RIGHT))


def _table_slot(driver: OracleDriver, name: str, names: _Names, where: str) -> int:
    faces = driver.faces
    table: tuple[int, ...] = driver.state.table
    found = [slot for slot in table if names.matches(name, faces[slot])]
    if not found:
        raise ScenarioError(f"{where}: no card {name!r} is left on the table")
    return min(found, key=faces.__getitem__)


def action(step: Mapping[str, Any], driver: ScenarioDriver, index: int) -> tuple[int, Action]:
    where = f"step {index}"
    unknown = set(step) - STEP_KEYS
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    _next_round_hands(driver)
    seat = step.get("seat")
    if not isinstance(seat, int):
        raise ScenarioError(f"{where}: 'seat' must be an integer")
    names = driver.names
    state: LieState = driver.state
    kind = step.get("do")
    if kind == "place":
        side = step.get("side")
        if side not in ("left", "right"):
            raise ScenarioError(f"{where}: a place step names its 'side', left or right")
        return seat, Place(Side(side))
    if kind == "claim":
        if "side" in step:
            raise ScenarioError(f"{where}: a claim has no side; place the card in a 'place' step")
        if "slot" in step:
            slot = step["slot"]
        elif "card" in step:
            name = names.check(step["card"], where)
            found = [s for s in state.all_slots() if names.matches(name, driver.faces[s])]
            on_table = [s for s in found if s in state.table]
            if not found:
                raise ScenarioError(f"{where}: no card {name!r} in play")
            slot = min(on_table or found, key=driver.faces.__getitem__)  # taken: SlotTaken
        else:
            raise ScenarioError(f"{where}: name the card ('card') or the slot ('slot')")
        return seat, Claim(slot)
    if kind == "pass":
        return seat, Pass()
    if kind != "play":
        raise ScenarioError(f"{where}: 'do' must be claim, place, play or pass")
    if "slots" in step:
        return seat, Play(tuple(step["slots"]))
    cards = step.get("cards")
    if not isinstance(cards, list) or not cards:
        raise ScenarioError(f"{where}: a play names its 'cards' (left to right) or 'slots'")
    hand = list(state.hands[seat]) if 0 <= seat < state.players else []
    slots = []
    for name in cards:
        name = names.check(name, where)
        slot = next((s for s in hand if names.matches(name, driver.faces[s])), None)
        if slot is None:
            raise ScenarioError(f"{where}: seat {seat} holds no card {name!r}")
        hand.remove(slot)
        slots.append(slot)
    return seat, Play(tuple(slots))


def _next_round_hands(driver: ScenarioDriver) -> None:
    """Claim the hands a later round's setup lists, once that round has been laid out."""
    state: LieState = driver.state
    rounds = driver.round_setups
    if state.round_no > driver.claimed_round and state.claims_open():
        driver.claimed_round = state.round_no
        if state.round_no <= len(rounds):
            _claim_hands(driver, rounds[state.round_no - 1], driver.names)


def check(
    expect: Mapping[str, Any], driver: ScenarioDriver, events: list[Any], where: str
) -> list[str]:
    _next_round_hands(driver)
    state: LieState = driver.state
    names = driver.names
    faces = driver.faces
    full = names.full

    def named(slots: tuple[int, ...]) -> list[str]:
        return [full[faces[slot]] for slot in slots]

    actual: dict[str, Any] = {
        "phase": state.phase.value,
        "round_no": state.round_no,
        "trick_no": state.trick_no,
        "turn": state.to_act(),
        "actors": list(state.actors()),
        "hand_sizes": list(state.hand_sizes()),
        "hands": [named(hand) for hand in state.hands],
        "unplaced": [  # by front, as `fronts`
            None if slot is None else full[faces[slot]].split("/")[0] for slot in state.unplaced
        ],
        "fronts": [[name.split("/")[0] for name in named(hand)] for hand in state.hands],
        "first_done": state.first_done,
        "placement": list(state.placement),
        "table_count": len(state.table),
        "prize_pile_count": len(state.prize_pile),
        "prize_pile": named(state.prize_pile),
        "prize_counts": [len(won) for won in state.prizes],
        "discard_count": len(state.discard),
        "best": state.best,
        "lead_colour": None if state.lead_colour is None else names.letters[state.lead_colour],
        "scores": list(state.scores),
        "winners": list(state.winners),
        "shuffles": [to_data(shuffle) for shuffle in driver.shuffles],
        "deck_size": len(DECK),
    }

    def prize_pile_top(wanted: Any) -> list[str]:
        top = actual["prize_pile"][: len(wanted)] if isinstance(wanted, list) else None
        if top != wanted:
            return [f"{where}: prize_pile_top expected {wanted!r}, got {top!r}"]
        return []

    return compare(expect, actual, events, where, {"prize_pile_top": prize_pile_top})
