"""What every game's view shares: its seat's cards as that seat sees them (`SeatView`), and
read-only windows on fields of the public state (`StateField`).

Most of a view's public facts are the state's fields as they are (the limit, the scores, the
winners). `limit = StateField[int]()` in a view class makes `view.limit` read `view.state.limit`,
so a view lists such a fact in one line instead of a property each, at the same cost. The type
argument is the state field's type; tests/engine/test_views.py checks it against the state class.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import Generic, Protocol, TypeVar, overload

from fairdeal.engine.game import Knowledge

T = TypeVar("T")

CardEntry = tuple[int, int | None]  # (slot, face); face is None where the seat cannot know it


def card_entries(
    revealed: Mapping[int, int], knowledge: Knowledge, slots: tuple[int, ...]
) -> tuple[CardEntry, ...]:
    """What one seat sees of `slots`: the public face where a slot was revealed, else the face
    this seat knows privately, else None. Every game's view lists its cards this way."""
    get_public = revealed.get
    get_known = knowledge.get
    return tuple([(slot, get_public(slot, get_known(slot))) for slot in slots])


class StateWindow(property):
    """What a StateField becomes in its class: a property whose getter is an attrgetter, so that
    reading it costs what a hand-written property costs (a getter in Python would cost twice)."""

    declared: object  # the StateField's type argument, for tests/engine/test_views.py


class StateField(Generic[T]):
    """`view.<name>` is `view.state.<name>`, where <name> is this attribute's name in the view.

    The type checker reads the declared type through `__get__`; at run time the attribute is
    replaced by a StateWindow as the class is made."""

    def __set_name__(self, owner: type, name: str) -> None:
        window = StateWindow(attrgetter(f"state.{name}"))
        window.declared = getattr(self, "__orig_class__", None)  # set by StateField[T]()
        setattr(owner, name, window)

    @overload
    def __get__(self, view: None, owner: type) -> StateField[T]: ...
    @overload
    def __get__(self, view: object, owner: type) -> T: ...
    def __get__(self, view: object | None, owner: type) -> StateField[T] | T:
        raise AssertionError("replaced by a StateWindow when its class is made")


class SeatedState(Protocol):
    """What `SeatView` reads of a game's public state."""

    @property
    def revealed(self) -> Mapping[int, int]: ...
    @property
    def hands(self) -> tuple[tuple[int, ...], ...]: ...


class SeatView:
    """The base of a game's view of one seat (a frozen dataclass declaring `seat`, `state` and
    `knowledge`): cards listed as (slot, face) the way that seat sees them (engine/game.py
    `card_entries`), its own hand first."""

    __slots__ = ()
    seat: int
    state: SeatedState
    knowledge: Knowledge

    def _cards(self, slots: tuple[int, ...]) -> tuple[CardEntry, ...]:
        return card_entries(self.state.revealed, self.knowledge, slots)

    @property
    def hand(self) -> tuple[CardEntry, ...]:
        """This seat's hand, with the faces it knows."""
        return self._cards(self.state.hands[self.seat])
