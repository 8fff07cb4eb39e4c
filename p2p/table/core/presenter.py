"""A game's table-level knowledge, in one place: what its engine events mean at a table.

The generic table modules (the local table, the audit, replay, simulate) never look inside a
game's events or state; they ask the game's `Presenter`, found by the game's name through the
`fairdeal.presenters` entry points (fairdeal.engine.registry). A game that registers none gets
this base class: no cards to show beyond the engine's state, no rounds, no figures of its own.

One presenter per game turns its engine events into the table events every front end shows
(`DoubtVerification`, `CardsVerified`), so the local table and the networked one say the same
(docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, Generic, TypeVar

from fairdeal.engine.game import PublicState
from fairdeal.engine.games import game_names, get_game
from fairdeal.engine.registry import Registry
from fairdeal.p2p.table.core.api import ProofStatus, SetupProgress, TableEnded, TableEvent

StateT = TypeVar("StateT", bound=PublicState)


class Mark(Enum):
    """Where an engine event stands in the game's course: replay's PgUp/PgDn stops."""

    ROUND = "round"  # a hand or round begins: a fresh deck was shuffled and dealt
    TRICK = "trick"  # a trick begins inside a round


class Presenter(Generic[StateT]):
    """What the generic table needs to know of one game; the defaults suit a game that has no
    doubts, no fronts to show, no rounds and no figures of its own."""

    round_name = "hand"  # what one of `state.rounds` is called: the one place that says it

    def mark(self, event: object) -> Mark | None:
        """Whether `event` begins a round (a new deck) or a trick."""
        return None

    def opens_verification(self, event: object) -> bool:
        """Whether the engine event `event` opens cards the table then reports as a
        `Verification` (a doubt, L9): how long that takes is measured from it."""
        return False

    def table_events(
        self,
        event: object,
        before: StateT | None,
        after: StateT,
        proof: ProofStatus,
        me: int,
        knowledge: Mapping[int, int],
        players: int,
    ) -> tuple[TableEvent, ...]:
        """What a local table reports for `event` (its oracle shuffles, deals and opens cards at
        once) as a networked table would: the setup seat by seat, the cards the event opened
        with their proofs (a doubt's pile, a play's fronts, a claim to its claimer alone).
        `before` is the state the event's action was applied to (None for the game's first
        step), `after` the state it made; `knowledge` the faces seat `me` holds. One call per
        event; the default: a fresh deck shuffled by every seat where a round begins."""
        return shuffled(players) if self.mark(event) is Mark.ROUND else ()

    def rounds(self, state: StateT) -> int:
        """How many hands or rounds have begun (the one being played included)."""
        return state.rounds

    def standing(self, state: StateT) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        """The result so far: rounds finished, the seats' scores, the leaders (none yet)."""
        return (1 if state.over else 0), state.scores, state.winners

    def join_terms_fault(self, options: object) -> str | None:
        """What is wrong with the options of seat 0's join beyond the signed terms (the audit's
        check of a game's own rule for them), or None."""
        return None

    def figures(
        self, first: Mapping[str, Any], results: Sequence[Mapping[str, Any]]
    ) -> dict[str, Any]:
        """The game's own figures in a simulation's summary, from the peers' result lines."""
        return {}


def shuffled(players: int) -> tuple[SetupProgress, ...]:
    """A fresh deck shuffled by every seat, as a networked table reports it seat by seat."""
    return tuple(SetupProgress("shuffle", s, s + 1, players, 0) for s in range(players))


PRESENTERS: Registry[Presenter[Any]] = Registry("fairdeal.presenters", Presenter)
PLAIN: Presenter[Any] = Presenter()  # the presenter of a game that registers none


def presenter_for(game: str) -> Presenter[Any]:
    """The presenter of the game called `game`; the plain one for a game that registers none
    (ValueError for a game that is not registered at all)."""
    get_game(game)  # an unknown game is an error, not a plain one
    if game not in PRESENTERS.names():
        return PLAIN
    return PRESENTERS.get(game)


def presenter_of_state(state: object) -> Presenter[Any]:
    """The presenter of the game whose state `state` is."""
    for name in game_names():
        if type(state) is get_game(name).state_type:
            return presenter_for(name)
    raise ValueError(f"{type(state).__name__} is not the state of any game")


def result_so_far(state: object | None, seats: int, reason: str) -> TableEnded:
    """The TableEnded of a table whose game stops at `state` (None: before the first deal).

    The game's presenter says what counts: Larry's hands scored and running totals (L17); The
    Lie's rounds played and each seat's prize cards won so far, their points unseen until the
    game ends (T8), so only a finished game has leaders (T10)."""
    if state is None:
        return TableEnded(reason, 0, (0,) * seats, ())
    hands, scores, leaders = presenter_of_state(state).standing(state)
    return TableEnded(reason, hands, scores, leaders)
