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
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from fairdeal.engine.bot import Bot
from fairdeal.engine.codec import GameCodec, from_data, to_data
from fairdeal.engine.game import Game, KnowingView, Knowledge, PublicState, turn_based
from fairdeal.engine.requests import Resolution
from fairdeal.engine.step import Step

# The record's type parameters, which GameModules infers from the modules.
StateT = TypeVar("StateT", bound=PublicState)
ViewT = TypeVar("ViewT", bound=KnowingView)
ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT")
OptionsT = TypeVar("OptionsT")
# A module protocol's parameter is covariant in what its functions make, contravariant in what
# they only read (mypy checks that they are declared so).
State_contra = TypeVar("State_contra", bound=PublicState, contravariant=True)
View_co = TypeVar("View_co", bound=KnowingView, covariant=True)
View_contra = TypeVar("View_contra", bound=KnowingView, contravariant=True)
Action_co = TypeVar("Action_co", covariant=True)
Action_contra = TypeVar("Action_contra", contravariant=True)
Event_co = TypeVar("Event_co", covariant=True)
Options_co = TypeVar("Options_co", covariant=True)
Options_contra = TypeVar("Options_contra", contravariant=True)


class RulesModule(Protocol[StateT, Action_contra, Event_co, Options_contra]):
    def new_game(self, players: int, options: Options_contra, /) -> Step[StateT, Event_co]: ...
    def apply(
        self, state: StateT, seat: int, action: Action_contra | Resolution, /
    ) -> Step[StateT, Event_co]: ...


class LegalModule(Protocol[View_contra, ActionT]):
    def legal_actions(self, view: View_contra, /) -> tuple[ActionT, ...]: ...
    def check_action(self, view: View_contra, action: ActionT, /) -> None: ...


class ViewModule(Protocol[State_contra, View_co]):
    def view_for(self, state: State_contra, knowledge: Knowledge, seat: int, /) -> View_co: ...


class OptionsModule(Protocol[Options_co]):
    @property
    def MIN_PLAYERS(self) -> int: ...
    @property
    def MAX_PLAYERS(self) -> int: ...
    def options_from_data(self, data: Mapping[str, Any], /) -> Options_co: ...


class BotsModule(Protocol[View_contra, Action_co]):
    @property
    def KINDS(self) -> tuple[str, ...]: ...
    def make_bot(self, spec: str, rng: random.Random, /) -> Bot[View_contra, Action_co]: ...


class CodecModule(Protocol[ActionT, EventT, StateT]):
    @property
    def CODEC(self) -> GameCodec[ActionT, EventT, StateT]: ...


class GameModules(NamedTuple, Generic[StateT, ViewT, ActionT, EventT, OptionsT]):
    """The modules of one game's package that its `Game` record is made of."""

    rules: RulesModule[StateT, ActionT, EventT, OptionsT]
    legal: LegalModule[ViewT, ActionT]
    view: ViewModule[StateT, ViewT]
    options: OptionsModule[OptionsT]
    bots: BotsModule[ViewT, ActionT]
    codec: CodecModule[ActionT, EventT, StateT]

    def game(
        self,
        name: str,
        title: str,
        options_type: type[OptionsT],
        *,
        actors: Callable[[StateT], tuple[int, ...]],
        backs: Callable[[OptionsT], tuple[int, ...]],
        card_names: Callable[[OptionsT], tuple[str, ...]],
        scenarios: str | None = None,
        follows_up: Callable[[StateT, int], bool] = turn_based,
    ) -> Game[StateT, ViewT, ActionT, EventT, OptionsT]:
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
            follows_up=follows_up,
        )
