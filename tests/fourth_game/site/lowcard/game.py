"""Low card's rules, in one module that plays every engine part (docs/architecture.md, Adding a
game): options, actions and events, state, rules, view, legal moves and bots.

Each seat is dealt two cards face down by the fair deck; in seat order every seat shows one of
its two cards, the one it chooses; the lowest card shown wins (card ids are distinct, so there
are no ties).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from fairdeal.engine import errors
from fairdeal.engine.errors import DRIVER
from fairdeal.engine.requests import Ack, Deal, Faces, NewDeck, Request, Reveal
from fairdeal.engine.step import Step

# -- options and cards ---------------------------------------------------------------------------

MIN_PLAYERS, MAX_PLAYERS = 2, 5
KINDS = ("random", "heuristic")  # the names the commands ask for: either card, the lower


@dataclass(frozen=True, slots=True)
class LowCardOptions:
    """How many cards the deck holds (cards 0..cards-1; a lower id is a lower card)."""

    cards: int = 10

    def validate(self, players: int) -> None:
        """ValueError when these options cannot make a game for `players` seats."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"low card needs {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
        if not 2 * players <= self.cards <= 52:
            raise ValueError(f"cards must be {2 * players}-52 for {players} players")


def options_from_data(data: Mapping[str, Any]) -> LowCardOptions:
    from fairdeal.engine.codec import from_data

    options: LowCardOptions = from_data({**data, "type": "LowCardOptions"}, LowCardOptions)
    return options


def card_names(options: LowCardOptions) -> tuple[str, ...]:
    return tuple(f"#{card}" for card in range(options.cards))


# -- actions and events --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShowOne:
    """The seat to act turns one of its two cards face up."""

    slot: int


Action = ShowOne


@dataclass(frozen=True, slots=True)
class Shown:
    seat: int
    slot: int
    face: int


@dataclass(frozen=True, slots=True)
class LowestWins:
    seat: int
    face: int


Event = Shown | LowestWins


# -- state ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LowCardState:
    """Public and immutable: each seat's two slots, the face each seat showed, whose turn."""

    players: int
    options: LowCardOptions
    hands: tuple[tuple[int, ...], ...]
    shown: tuple[int | None, ...]
    turn: int
    pending: tuple[Request, ...]
    next_request: int
    over: bool = False
    winners: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()

    @property
    def rounds(self) -> int:
        return 1  # one deal is the whole game

    @property
    def phase(self) -> str:
        return "over" if self.over else "showing"

    def to_act(self) -> int | None:
        if self.pending or self.over or self.turn >= self.players:
            return None
        return self.turn

    def all_slots(self) -> list[int]:
        return [slot for hand in self.hands for slot in hand]


LowStep = Step[LowCardState, Event]


# -- rules ---------------------------------------------------------------------------------------


def new_game(players: int, options: LowCardOptions) -> LowStep:
    options.validate(players)
    hands = tuple((2 * seat, 2 * seat + 1) for seat in range(players))
    deals = [Deal(1 + seat, seat, hands[seat]) for seat in range(players)]
    requests: tuple[Request, ...] = (NewDeck(0, tuple(range(options.cards))), *deals)
    state = LowCardState(players, options, hands, (None,) * players, 0, requests, len(requests))
    return Step(state, (), requests)


def check_move(state: LowCardState, seat: int, action: object) -> None:
    if not 0 <= seat < state.players:
        raise errors.NoSuchSeat(seat, f"there is no seat {seat}")
    if state.over:
        raise errors.GameIsOver(seat, "the game is over")
    if state.pending:
        raise errors.WaitingForDriver(seat, "the cards are still being dealt or shown")
    if seat != state.turn:
        raise errors.NotYourTurn(seat, f"seat {state.turn} shows next")
    if not isinstance(action, ShowOne):
        raise errors.UnknownAction(seat, f"{type(action).__name__} is not an action of low card")
    if action.slot not in state.hands[seat]:
        raise errors.IllegalAction(seat, f"slot {action.slot} is not in seat {seat}'s hand")


def apply(state: LowCardState, seat: int, action: object) -> LowStep:
    if seat == DRIVER:
        return _resolve(state, action)
    check_move(state, seat, action)
    assert isinstance(action, ShowOne)
    request = Reveal(state.next_request, (action.slot,), "show")
    after = replace(state, pending=(request,), next_request=state.next_request + 1)
    return Step(after, (), (request,))


def _resolve(state: LowCardState, resolution: object) -> LowStep:
    if not state.pending:
        raise errors.BadResolution(DRIVER, "no request is outstanding")
    request, rest = state.pending[0], state.pending[1:]
    if not isinstance(request, Reveal):
        if not isinstance(resolution, Ack) or resolution.request != request.id:
            raise errors.BadResolution(DRIVER, f"request {request.id} needs its Ack")
        return Step(replace(state, pending=rest), (), ())
    if not isinstance(resolution, Faces) or resolution.request != request.id:
        raise errors.BadResolution(DRIVER, f"request {request.id} needs its Faces")
    (slot,), faces = request.slots, resolution.faces
    if len(faces) != 1 or not 0 <= faces[0] < state.options.cards or faces[0] in state.shown:
        raise errors.BadResolution(DRIVER, f"{faces} is not one unseen card of the deck")
    seat, face = state.turn, faces[0]
    shown = tuple(face if s == seat else f for s, f in enumerate(state.shown))
    state = replace(state, pending=rest, shown=shown, turn=seat + 1)
    events: tuple[Event, ...] = (Shown(seat, slot, face),)
    if seat + 1 == state.players:
        faces_up = [f for f in shown if f is not None]
        winner = faces_up.index(min(faces_up))
        scores = tuple(int(s == winner) for s in range(state.players))
        state = replace(state, over=True, winners=(winner,), scores=scores)
        events += (LowestWins(winner, min(faces_up)),)
    return Step(state, events, ())


# -- view, legal moves, bots ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LowCardView:
    seat: int
    state: LowCardState
    knowledge: Mapping[int, int]


def view_for(state: LowCardState, knowledge: Mapping[int, int], seat: int) -> LowCardView:
    return LowCardView(seat, state, dict(knowledge))


def check_action(view: LowCardView, action: ShowOne) -> None:
    check_move(view.state, view.seat, action)


def legal_actions(view: LowCardView) -> tuple[ShowOne, ...]:
    if view.state.to_act() != view.seat:
        return ()
    return tuple(ShowOne(slot) for slot in view.state.hands[view.seat])


@dataclass
class LowBot:
    """`random` shows either card; `heuristic` the lower of the two it knows."""

    name: str
    rng: random.Random

    def choose(self, view: LowCardView) -> ShowOne:
        choices = legal_actions(view)
        if self.name == "heuristic":
            return min(choices, key=lambda a: view.knowledge.get(a.slot, 0))
        return self.rng.choice(choices)


def make_bot(kind: str, rng: random.Random) -> LowBot:
    if kind not in KINDS:
        raise ValueError(f"unknown bot {kind!r} (choose {' or '.join(KINDS)})")
    return LowBot(kind, rng)
