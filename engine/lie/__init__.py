"""The Lie, one game of the engine: pure, deterministic, sans-IO (no I/O, no crypto, no asyncio).

API overview (RULES.md "The Lie" cites the rulings T1-T10):

- Cards (T1): `DECK`, 96 `LieCard`s (front colour and number, lying back); `fronts_behind(back)`
  lists the 6 fronts a back can hide. `LieOptions` (rounds, hand size, prizes, colour names).
- State: `LieState`, immutable and public: every slot's back is public (`backs`), fronts enter
  `revealed` only through a Reveal. `state.actors()` are the seats that may act (several in
  Phase 1), `state.pending` the requests the driver must serve, in order.
- Actions: `Claim(slot)` then, once its front is dealt, `Place(side)` in Phase 1 (T3; the engine
  places a hand's first card itself), `Play(slots)` and `Pass()` in Phase 2 (T5). `state.unplaced`
  holds each seat's taken, unplaced slot; `Placed` events tell where each card went.
  Illegal ones raise an `IllegalAction` subclass (`SlotTaken`, `HandFull`, `PlaceFirst`,
  `NothingToPlace`, `NotAdjacent`,
  `MustLead`, …, exported here) naming the seat; a play its revealed faces contradict is a
  `Violation` event naming the seat, and the game stops.
- Requests: `NewGroupedDeck` and `GroupedReshuffle` (cards stay with their backs, T1, T9),
  `Arrange` (the table's layout, the prize pile's order, T4), `Deal` (a claimed slot to its
  claimer), `Reveal` (a play; the prizes at the end, T10).
- `view_for`, `legal_actions`, `check_action`; bots in `fairdeal.engine.lie.bots`; plain data in
  `fairdeal.engine.lie.codec`; `GAME` for the registry (`get_game("lie")`).
"""

from __future__ import annotations

from fairdeal.engine.errors import *  # noqa: F403 (the errors every game shares)
from fairdeal.engine.game import Game
from fairdeal.engine.lie import errors as _errors
from fairdeal.engine.lie.actions import Action, Claim, Pass, Place, Play, Side, side_of
from fairdeal.engine.lie.cards import BACK_OF, DECK, LieCard, card_names, fronts_behind
from fairdeal.engine.lie.errors import *  # noqa: F403 (The Lie's own errors)
from fairdeal.engine.lie.events import Event, Violation
from fairdeal.engine.lie.legal import check_action, legal_actions
from fairdeal.engine.lie.options import LieOptions
from fairdeal.engine.lie.rules import apply, new_game
from fairdeal.engine.lie.state import LieState, Phase
from fairdeal.engine.lie.view import LieView, view_for

__all__ = [
    "DECK",
    "GAME",
    "Action",
    "Claim",
    "Event",
    "LieCard",
    "LieOptions",
    "LieState",
    "LieView",
    "Pass",
    "Phase",
    "Place",
    "Play",
    "Side",
    "Violation",
    "apply",
    "check_action",
    "fronts_behind",
    "legal_actions",
    "new_game",
    "side_of",
    "view_for",
]
__all__ += _errors.__all__


def _backs(options: LieOptions) -> tuple[int, ...]:
    return BACK_OF


def _card_names(options: LieOptions) -> tuple[str, ...]:
    return card_names(options.colour_names)


def _follows_up(state: LieState, seat: int) -> bool:
    """Phase 1 (T3): a seat holding a card it took but has not placed places it next."""
    return state.unplaced[seat] is not None


def _game() -> Game[LieState, LieView, Action, Event, LieOptions]:
    from fairdeal.engine.game_package import GameModules
    from fairdeal.engine.lie import bots, codec, legal, options, rules, view

    return GameModules(rules, legal, view, options, bots, codec).game(
        "lie",
        "The Lie",
        LieOptions,
        actors=LieState.actors,  # the method itself: asked before every move of Phase 1
        backs=_backs,
        card_names=_card_names,
        scenarios="fairdeal.engine.lie.scenario",
        follows_up=_follows_up,
    )


GAME: Game[LieState, LieView, Action, Event, LieOptions] = _game()
