"""The small surface every game offers (docs/architecture.md).

Everything above the engine (drivers, self-play, scenarios, the table, the app) works on a `Game`
and never names a game's own classes. Each game package builds one `GAME`, a `Game` of its own
state, view, action, event and options types, and the registry (fairdeal.engine.games) maps its
name to it: there, and only there, the types are erased, since a game is picked by name at run
time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from fairdeal.engine.bot import Bot
from fairdeal.engine.requests import Request, Resolution
from fairdeal.engine.step import Step

Knowledge = Mapping[int, int]  # slot -> face: the cards a seat was dealt, given or shown


class PublicState(Protocol):
    """What everything above a game's rules reads of its state (drivers, self-play, the table,
    the app): the driver's requests in order, who is awaited, the seats' slots, the result.
    `rounds` counts the hands or rounds begun, the one being played included (what a game's
    round is called is its presenter's `round_name`, p2p/table/core/presenter.py)."""

    @property
    def players(self) -> int: ...
    @property
    def pending(self) -> tuple[Request, ...]: ...
    @property
    def over(self) -> bool: ...
    @property
    def hands(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def rounds(self) -> int: ...
    @property
    def phase(self) -> object:
        """Where the game stands, printed for people (`str`): a simulated peer's result."""
        ...

    def to_act(self) -> int | None:
        """The one seat awaited; None while requests are pending, where seats act at once, or
        once the game is over."""
        ...

    def all_slots(self) -> list[int]:
        """Every live slot whose face some seat may know (the table's knowledge is of these)."""
        ...


class KnowingView(Protocol):
    """What the table and the app read of any game's view: whose it is and the faces it knows
    (slot -> face), beyond what the state shows to all."""

    @property
    def seat(self) -> int: ...
    @property
    def knowledge(self) -> Knowledge: ...


def turn_based(state: object, seat: int) -> bool:
    """A game played in turns: no move follows up another (`Game.follows_up`)."""
    return False


StateT = TypeVar("StateT", bound=PublicState)
ViewT = TypeVar("ViewT", bound=KnowingView)
ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT")
OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True)
class Game(Generic[StateT, ViewT, ActionT, EventT, OptionsT]):
    """One game's rules as plain functions, plus what drivers need to know about its deck.

    - `new_game(players, options)` and `apply(state, seat, action)` return a Step; `apply` takes
      a seat's action, or the driver's answer (a Resolution) to the first pending request; illegal
      actions raise an IllegalAction subclass naming the seat, and change nothing.
    - `view_for(state, knowledge, seat)` is what that seat may see; `legal_actions(view)` lists
      its legal actions from the view alone; `check_action(view, action)` raises the typed error
      for an action that seat can already see is illegal (its own faces included).
    - `options_from_data(mapping)` parses table options (the codec's field names), raising
      ValueError; `default_options()` gives the documented defaults.
    - `backs(options)` gives the public back of every card id (all 0 when backs say nothing), so a
      driver can shuffle within groups of one back.
    - `actors(state)`: the seats that may act now (several at once in The Lie's Phase 1).
    - `action_type` and `event_type` are the union aliases the codec decodes with (type forms,
      not classes); `to_data` and `from_data` are the plain-data codec (engine/codec.py).
    - `scenarios`: the module that reads this game's scenario files (engine/scenario.py runs
      them), or None for a game without any.
    - `follows_up(state, seat)`: only a game whose seats act at once says when a seat's next
      move follows up its last (the local table's bots make it at once).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    options_type: type[OptionsT]
    default_options: Callable[[], OptionsT]
    options_from_data: Callable[[Mapping[str, Any]], OptionsT]
    new_game: Callable[[int, OptionsT], Step[StateT, EventT]]
    apply: Callable[[StateT, int, ActionT | Resolution], Step[StateT, EventT]]
    view_for: Callable[[StateT, Knowledge, int], ViewT]
    legal_actions: Callable[[ViewT], tuple[ActionT, ...]]
    check_action: Callable[[ViewT, ActionT], None]
    actors: Callable[[StateT], tuple[int, ...]]
    backs: Callable[[OptionsT], tuple[int, ...]]
    card_names: Callable[[OptionsT], tuple[str, ...]]
    bot_kinds: tuple[str, ...]
    make_bot: Callable[[str, random.Random], Bot[ViewT, ActionT]]
    action_type: object
    event_type: object
    state_type: type[StateT]
    to_data: Callable[[object], Any]
    from_data: Callable[[Any, object], Any]
    scenarios: str | None = None
    # Where seats act at once: whether `seat`'s next move follows up its last one, a quick
    # choice a bot makes at once (The Lie: placing the card it took, T3). Turn-based: never.
    follows_up: Callable[[StateT, int], bool] = turn_based
