"""Scenario files: a game set up by hand, a script of actions, and what must come out.

The format is documented in tests/scenarios/README.md (Larry: tests/scenarios/larry/README.md,
The Lie: tests/scenarios/lie/README.md). `run_scenario(data)` takes the parsed JSON, picks the game
by its `"game"` key (the default game of engine/games.py when absent, as in Larry's files) and
returns a ScenarioResult with every difference found (an empty list means pass). This module holds
what every game shares: the script loop, the typed-error check, the partial matching of
expectations and events; each game's `Game.scenarios` module reads its own setup and steps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Protocol

from fairdeal.engine.codec import to_data
from fairdeal.engine.errors import IllegalAction
from fairdeal.engine.games import default_game, game_names, get_game
from fairdeal.engine.oracle import OracleDriver

# The top-level keys every game's scenario files have; a game's TOP_KEYS adds its setup's own.
SCENARIO_KEYS = frozenset(
    {"name", "description", "rulings", "players", "options", "script", "expect"}
)


class ScenarioError(ValueError):
    """The scenario file itself is malformed (as opposed to a failing expectation)."""


@dataclass
class ScenarioResult:
    name: str
    failures: list[str] = field(default_factory=list)
    events: list[Any] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


class GameScenarios(Protocol):
    """What a game's scenario module offers the shared runner."""

    TOP_KEYS: set[str]

    def setup(self, data: Mapping[str, Any]) -> OracleDriver: ...

    def action(
        self, step: Mapping[str, Any], driver: OracleDriver, index: int
    ) -> tuple[int, Any]: ...

    def check(
        self, expect: Mapping[str, Any], driver: OracleDriver, events: list[Any], where: str
    ) -> list[str]: ...


def match(expected: Any, actual: Any) -> bool:
    """Partial match: dicts match on the keys given, lists item by item."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and match(value, actual[key]) for key, value in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(match(e, a) for e, a in zip(expected, actual, strict=True))
        )
    return bool(expected == actual)


def check_events(expected: list[Any], events: list[Any], where: str) -> list[str]:
    """Each expected event must appear, in order (others may come between)."""
    actual = [to_data(event) for event in events]
    position = 0
    for number, wanted in enumerate(expected):
        while position < len(actual) and not match(wanted, actual[position]):
            position += 1
        if position == len(actual):
            shown = "\n".join(f"      {event}" for event in actual)
            return [
                f"{where}: expected event #{number} {wanted} was not found "
                f"(in order) among the events:\n{shown}"
            ]
        position += 1
    return []


def compare(
    expect: Mapping[str, Any],
    actual: Mapping[str, Any],
    events: list[Any],
    where: str,
    special: Mapping[str, Callable[[Any], list[str]]] | None = None,
) -> list[str]:
    """Every expectation against the actual figures; `special` keys have their own check."""
    unknown = set(expect) - set(actual) - {"events"} - set(special or {})
    if unknown:
        raise ScenarioError(f"{where}: unknown expectation(s) {', '.join(sorted(unknown))}")
    failures: list[str] = []
    for key, value in expect.items():
        if key == "events":
            failures += check_events(value, events, where)
        elif special and key in special:
            failures += special[key](value)
        elif not match(value, actual[key]):
            failures.append(f"{where}: {key} expected {value!r}, got {actual[key]!r}")
    return failures


def scenario_games() -> dict[str, str]:
    """Every registered game that reads scenario files: its name -> its scenario module."""
    modules = {name: get_game(name).scenarios for name in game_names()}
    return {name: module for name, module in modules.items() if module}


def _runner(game: object) -> GameScenarios:
    modules = scenario_games()
    if not isinstance(game, str) or game not in modules:
        raise ScenarioError(f"'game' must be one of {', '.join(modules)}, not {game!r}")
    runner: GameScenarios = import_module(modules[game])  # a module offers the protocol's names
    return runner


def run_scenario(data: Mapping[str, Any]) -> ScenarioResult:
    """Run one parsed scenario. Raises ScenarioError when the file itself is malformed."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")
    runner = _runner(data.get("game", default_game()))
    unknown = set(data) - runner.TOP_KEYS - {"game"}
    if unknown:
        raise ScenarioError(f"unknown key(s) {', '.join(sorted(unknown))}")
    if not isinstance(data.get("players"), int):
        raise ScenarioError("'players' must be an integer")
    driver = runner.setup(data)
    result = ScenarioResult(str(data.get("name", "scenario")), events=list(driver.events))
    script = data.get("script", [])
    if not isinstance(script, list):
        raise ScenarioError("'script' must be a list of steps")
    for index, step in enumerate(script):
        if not isinstance(step, dict):
            raise ScenarioError(f"step {index}: a step is a JSON object")
        seat, action = runner.action(step, driver, index)
        before = len(driver.events)
        wanted_error = step.get("error")
        try:
            driver.act(seat, action)
        except IllegalAction as error:
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
            result.failures += runner.check(
                step["expect"], driver, step_events, f"after step {index}"
            )
    result.failures += runner.check(data.get("expect", {}), driver, result.events, "at the end")
    return result
