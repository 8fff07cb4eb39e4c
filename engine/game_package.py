"""A game's `Game` record read off its package, for a game laid out as engine/<game>/ is.

Such a package has the modules `rules` (new_game, apply), `legal` (legal_actions, check_action),
`view` (view_for), `options` (MIN_PLAYERS, MAX_PLAYERS, options_from_data), `bots` (KINDS,
make_bot) and `codec` (CODEC). `GameModules.game` wires them into the record, so that a game's
package states only what is its own: name, title, options type, actors, backs and card names.
The type checker holds each module to its protocol below. A game laid out otherwise passes the
module that plays each part (tests/third_game/site/highcard/__init__.py: one module is its view,
legal moves and bots).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Protocol

from fairdeal.engine.bots import Bot
from fairdeal.engine.codec import GameCodec, from_data, to_data
from fairdeal.engine.game import Game, Knowledge
from fairdeal.engine.step import Step


class RulesModule(Protocol):
    def new_game(self, players: int, options: Any, /) -> Step: ...
    def apply(self, state: Any, seat: int, action: Any, /) -> Step: ...


class LegalModule(Protocol):
    def legal_actions(self, view: Any, /) -> tuple[Any, ...]: ...
    def check_action(self, view: Any, action: Any, /) -> None: ...


class ViewModule(Protocol):
    def view_for(self, state: Any, knowledge: Knowledge, seat: int, /) -> Any: ...


class OptionsModule(Protocol):
    @property
    def MIN_PLAYERS(self) -> int: ...
    @property
    def MAX_PLAYERS(self) -> int: ...
    def options_from_data(self, data: Mapping[str, Any], /) -> Any: ...


class BotsModule(Protocol):
    @property
    def KINDS(self) -> tuple[str, ...]: ...
    def make_bot(self, spec: str, rng: random.Random, /) -> Bot: ...


class CodecModule(Protocol):
    @property
    def CODEC(self) -> GameCodec[Any, Any, Any]: ...


class GameModules(NamedTuple):
    """The modules of one game's package that its `Game` record is made of."""

    rules: RulesModule
    legal: LegalModule
    view: ViewModule
    options: OptionsModule
    bots: BotsModule
    codec: CodecModule

    def game(
        self,
        name: str,
        title: str,
        options_type: type,
        *,
        actors: Callable[[Any], tuple[int, ...]],
        backs: Callable[[Any], tuple[int, ...]],
        card_names: Callable[[Any], tuple[str, ...]],
        scenarios: str | None = None,
    ) -> Game:
        """The game's record; its options' defaults are `options_type()`."""
        codec = self.codec.CODEC
        return Game(
            name=name,
            title=title,
            min_players=self.options.MIN_PLAYERS,
            max_players=self.options.MAX_PLAYERS,
            options_type=options_type,
            default_options=options_type,
            options_from_data=self.options.options_from_data,
            new_game=self.rules.new_game,
            apply=self.rules.apply,
            view_for=self.view.view_for,
            legal_actions=self.legal.legal_actions,
            check_action=self.legal.check_action,
            actors=actors,
            backs=backs,
            card_names=card_names,
            bot_kinds=self.bots.KINDS,
            make_bot=self.bots.make_bot,
            action_type=codec.action_type,
            event_type=codec.event_type,
            state_type=codec.state_type,
            to_data=to_data,
            from_data=from_data,
            scenarios=scenarios,
        )
