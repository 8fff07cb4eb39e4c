"""Events every game shares (each game's own events are in its events module)."""

from __future__ import annotations

from dataclasses import dataclass

from fairdeal.engine.records import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class Violation:
    """A provable cheat by `seat`: a revealed face contradicts its claim. The game stops."""

    seat: int
    reason: str
    slots: tuple[int, ...]
    faces: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Shuffled:
    """A driver event, not the engine's: the oracle served a shuffle (OracleDriver.shuffles).

    `request` is the request id, `kind` its class name (NewDeck, Reshuffle, NewGroupedDeck,
    GroupedReshuffle); `slots` the slots it filled and `cards` their faces' names, in slot order,
    so a scenario can say what was (re)shuffled where.
    """

    request: int
    kind: str
    slots: tuple[int, ...]
    cards: tuple[str, ...]
