"""The small surface every game offers (docs/architecture.md).

Everything above the engine (drivers, self-play, scenarios, the table, the app) works on a `Game`
and never names a game's own classes. Each game package builds one `GAME` and the registry
(fairdeal.engine.games) maps its name to it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fairdeal.engine.bots import Bot
from fairdeal.engine.step import Step

Knowledge = Mapping[int, int]  # slot -> face: the cards a seat was dealt, given or shown


@dataclass(frozen=True)
class Game:
    """One game's rules as plain functions, plus what drivers need to know about its deck.

    - `new_game(players, options)` and `apply(state, seat, action)` return a Step; illegal
      actions raise an IllegalAction subclass naming the seat, and change nothing.
    - `view_for(state, knowledge, seat)` is what that seat may see; `legal_actions(view)` lists
      its legal actions from the view alone; `check_action(view, action)` raises the typed error
      for an action that seat can already see is illegal (its own faces included).
    - `options_from_data(mapping)` parses table options (the codec's field names), raising
      ValueError; `default_options()` gives the documented defaults.
    - `backs(options)` gives the public back of every card id (all 0 when backs say nothing), so a
      driver can shuffle within groups of one back.
    - `actors(state)`: the seats that may act now (several at once in The Lie's Phase 1).
    - `scenarios`: the module that reads this game's scenario files (engine/scenario.py runs
      them), or None for a game without any.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    options_type: type
    default_options: Callable[[], Any]
    options_from_data: Callable[[Mapping[str, Any]], Any]
    new_game: Callable[[int, Any], Step]
    apply: Callable[[Any, int, Any], Step]
    view_for: Callable[[Any, Knowledge, int], Any]
    legal_actions: Callable[[Any], tuple[Any, ...]]
    check_action: Callable[[Any, Any], None]
    actors: Callable[[Any], tuple[int, ...]]
    backs: Callable[[Any], tuple[int, ...]]
    card_names: Callable[[Any], tuple[str, ...]]
    bot_kinds: tuple[str, ...]
    make_bot: Callable[[str, random.Random], Bot]
    action_type: Any
    event_type: Any
    state_type: type
    to_data: Callable[[Any], Any]
    from_data: Callable[[Any, Any], Any]
    scenarios: str | None = None
