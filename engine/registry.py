"""Games found through the ecosystem's plugin convention: entry points.

A game is one folder per layer (engine/<game>/, p2p/games/<game>/, ui/games/<game>/) and each layer
finds its part through its own entry-point group, so a game can ship as a distribution of its own
(docs/architecture.md). The groups:

- `fairdeal.games`: the engine's `Game` record (fairdeal.engine.game);
- `fairdeal.tables`: the networked table's part of the game (fairdeal.p2p.table.core.games);
- `fairdeal.screens`: the app's part of the game (fairdeal.ui.games).

An entry point's name is the game's name ("larry" in `fairdeal play --game larry`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:  # importlib.metadata imports email and socket: loaded on first use only
    from importlib.metadata import EntryPoint

T = TypeVar("T")

# The distribution that ships the built-in games: its games come first, in the order its
# pyproject.toml lists them, and the first of them is the one `fairdeal play` opens by default.
HOME_DISTRIBUTION = "fairdeal"


def _found(group: str) -> dict[str, EntryPoint]:
    """Every entry point of `group`: this distribution's first, in their listed order, then the
    others by name. A name listed twice keeps its first entry."""
    from importlib.metadata import entry_points

    points = list(entry_points(group=group))
    home = [p for p in points if p.dist is not None and p.dist.name == HOME_DISTRIBUTION]
    others = sorted((p for p in points if p not in home), key=lambda p: p.name)
    found: dict[str, EntryPoint] = {}
    for point in home + others:
        found.setdefault(point.name, point)
    return found


class Registry(Generic[T]):
    """One layer's games, by name, loaded on first use so that naming one game loads no other."""

    def __init__(self, group: str, kind: type[T]) -> None:
        self.group = group
        self.kind = kind
        self._points: dict[str, EntryPoint] | None = None
        self._loaded: dict[str, T] = {}

    def names(self) -> tuple[str, ...]:
        """The registered games' names; the first is the default game."""
        return tuple(self._entry_points())

    def get(self, name: str) -> T:
        """The part registered as `name`; ValueError naming the choices for an unknown one."""
        loaded = self._loaded.get(name)
        if loaded is not None:
            return loaded
        point = self._entry_points().get(name)
        if point is None:
            raise ValueError(f"unknown game {name!r} (choose {' or '.join(self.names())})")
        value = point.load()
        if not isinstance(value, self.kind):
            raise TypeError(
                f"entry point {point.value!r} of {self.group!r} is a {type(value).__name__}, "
                f"not a {self.kind.__name__}"
            )
        self._loaded[name] = value
        return value

    def refresh(self) -> None:
        """Look for entry points again (after a distribution was added to the path)."""
        self._points = None
        self._loaded.clear()

    def _entry_points(self) -> dict[str, EntryPoint]:
        if self._points is None:
            self._points = _found(self.group)
        return self._points
