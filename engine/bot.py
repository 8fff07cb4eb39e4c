"""What a bot is, to the engine's `Game` record and to everything that seats one.

A bot chooses an action from one seat's view only. Two optional parts, each a Protocol a game's
bot may also satisfy: `Paced`, the seconds it takes between moves where seats act at once (The
Lie's Phase 1), so humans can play against it in real time and self-play can use it as simulated
time; `Tunable`, a bot whose choices depend on the table's difficulty (`play_at`).
engine/bots.py seats a bot of a game picked by name.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeAlias, TypeVar, runtime_checkable

View_contra = TypeVar("View_contra", contravariant=True)  # a bot only reads its view
Action_co = TypeVar("Action_co", covariant=True)  # and only makes actions


class Bot(Protocol[View_contra, Action_co]):
    """A bot of one game: it reads that game's views and chooses that game's actions."""

    name: str

    def choose(self, view: View_contra) -> Action_co:
        """An action for `view.seat`, which may act now."""
        ...


@runtime_checkable
class Paced(Protocol):
    """A bot that says how long it takes between moves where seats act at once (seconds)."""

    @property
    def pace(self) -> float: ...


@runtime_checkable
class Tunable(Protocol):
    """A bot whose choices depend on the table's difficulty (engine/bots.py DIFFICULTIES)."""

    def play_at(self, difficulty: str) -> None: ...


# A bot of a game picked by name at run time, whose types only the game knows.
AnyBot: TypeAlias = Bot[Any, Any]
