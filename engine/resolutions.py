"""How a driver answers the engine's requests, in every game (see fairdeal.engine.requests)."""

from __future__ import annotations

from dataclasses import dataclass

from fairdeal.engine.records import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class Ack:
    """The driver has served request `request` (any request but Reveal and Arrange)."""

    request: int


@quick_init
@dataclass(frozen=True, slots=True)
class Faces:
    """The faces (card ids) of a Reveal request's slots, in the order of its `slots`."""

    request: int
    faces: tuple[int, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Arrangement:
    """The slots of an Arrange request, in their new (fair random, public) order."""

    request: int
    slots: tuple[int, ...]


Resolution = Ack | Faces | Arrangement
