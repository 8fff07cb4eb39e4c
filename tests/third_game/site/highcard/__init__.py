"""High card: a third game that lives only in tests/, to prove that a game is a plugin.

Each seat is dealt one card face down by the fair deck; in seat order every seat shows its card;
the highest card wins (card ids are strengths: rank, then suit; see cards.py). It is registered
from outside fairdeal through the `fairdeal.games` and `fairdeal.tables` entry points of
highcard-0.dist-info/entry_points.txt (docs/architecture.md "Adding a game").
"""

from __future__ import annotations

from fairdeal.engine.codec import from_data, to_data
from fairdeal.engine.game import Game
from highcard.actions import Action, CardShown, Event, Show, Won
from highcard.cards import MAX_PLAYERS, MIN_PLAYERS, HighCardOptions, card_names, options_from_data
from highcard.rules import apply, new_game
from highcard.state import HighCardState, Phase
from highcard.view import KINDS, HighCardView, check_action, legal_actions, make_bot, view_for

__all__ = [
    "GAME",
    "CardShown",
    "HighCardOptions",
    "HighCardState",
    "HighCardView",
    "Phase",
    "Show",
    "Won",
]


def _actors(state: HighCardState) -> tuple[int, ...]:
    seat = state.to_act()
    return () if seat is None else (seat,)


def _backs(options: HighCardOptions) -> tuple[int, ...]:
    return (0,) * options.deck_size  # one back for every card


GAME = Game(
    name="highcard",
    title="High card",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options_type=HighCardOptions,
    default_options=HighCardOptions,
    options_from_data=options_from_data,
    new_game=new_game,
    apply=apply,
    view_for=view_for,
    legal_actions=legal_actions,
    check_action=check_action,
    actors=_actors,
    backs=_backs,
    card_names=card_names,
    bot_kinds=KINDS,
    make_bot=make_bot,
    action_type=Action,
    event_type=Event,
    state_type=HighCardState,
    to_data=to_data,
    from_data=from_data,
)
