"""High card's rules: deal one card to each seat, each seat shows in turn, the highest wins.

The engine asks its driver for the deck (NewDeck), one Deal per seat, and one Reveal per Show.
"""

from __future__ import annotations

from dataclasses import replace

from fairdeal.engine import errors
from fairdeal.engine.errors import DRIVER
from fairdeal.engine.requests import Ack, Deal, Faces, NewDeck, Request, Reveal
from fairdeal.engine.step import Step
from highcard.actions import CardShown, Event, Show, Won
from highcard.cards import HighCardOptions
from highcard.state import HighCardState, Phase

HighCardStep = Step[HighCardState, Event]  # what every transition returns


def new_game(players: int, options: HighCardOptions) -> HighCardStep:
    """A shuffled deck in slots 0..n-1; seat k is dealt slot k; seat 0 shows first."""
    options.validate(players)
    slots = tuple(range(options.deck_size))
    deals = [Deal(1 + seat, seat, (seat,)) for seat in range(players)]
    requests: tuple[Request, ...] = (NewDeck(0, slots), *deals)
    state = HighCardState(
        players=players,
        options=options,
        hands=tuple((seat,) for seat in range(players)),
        shown=(None,) * players,
        turn=0,
        pending=requests,
        next_request=len(requests),
    )
    return Step(state, (), requests)


def check_turn(state: HighCardState, seat: int, action: object) -> None:
    """The typed error for a seat's action the public state already forbids."""
    if not 0 <= seat < state.players:
        raise errors.NoSuchSeat(seat, f"there is no seat {seat} at a table of {state.players}")
    if state.over:
        raise errors.GameIsOver(seat, "the game is over")
    if state.pending:
        raise errors.WaitingForDriver(seat, "the cards are still being dealt or shown")
    if seat != state.turn:
        raise errors.NotYourTurn(seat, f"seat {state.turn} shows next")
    if not isinstance(action, Show):
        raise errors.UnknownAction(seat, f"{type(action).__name__} is not an action of high card")


def apply(state: HighCardState, seat: int, action: object) -> HighCardStep:
    """The next state; raises IllegalAction naming `seat` (and changes nothing) if not allowed."""
    if seat == DRIVER:
        return _resolve(state, action)
    check_turn(state, seat, action)
    request = Reveal(state.next_request, state.hands[seat], "show")
    after = replace(
        state, pending=(request,), next_request=state.next_request + 1, turn=state.turn + 1
    )
    return Step(after, (), (request,))


def _resolve(state: HighCardState, resolution: object) -> HighCardStep:
    if not state.pending:
        raise errors.BadResolution(DRIVER, "no request is outstanding")
    request = state.pending[0]
    rest = state.pending[1:]
    if isinstance(request, Reveal):
        if not isinstance(resolution, Faces) or resolution.request != request.id:
            raise errors.BadResolution(DRIVER, f"request {request.id} needs its Faces")
        return _shown(replace(state, pending=rest), request, resolution.faces)
    if not isinstance(resolution, Ack) or resolution.request != request.id:
        raise errors.BadResolution(DRIVER, f"request {request.id} needs its Ack")
    return Step(replace(state, pending=rest), (), ())


def _shown(state: HighCardState, request: Reveal, faces: tuple[int, ...]) -> HighCardStep:
    (slot,) = request.slots
    seat = next(s for s, hand in enumerate(state.hands) if slot in hand)
    if len(faces) != 1 or not 0 <= faces[0] < state.options.deck_size:
        raise errors.BadResolution(DRIVER, f"{faces} is not one card of the deck")
    (face,) = faces
    if face in state.shown:  # a card opened twice: the deck and the engine disagree
        raise errors.IllegalAction(DRIVER, f"card {face} was already shown")
    shown = tuple(face if s == seat else f for s, f in enumerate(state.shown))
    state = replace(state, shown=shown)
    events: tuple[CardShown | Won, ...] = (CardShown(seat, slot, face),)
    up = [f for f in shown if f is not None]
    if len(up) == state.players:
        # no ties: card ids are distinct and a higher id is the stronger card (cards.py)
        best = max(up)
        winner = up.index(best)
        scores = tuple(int(s == winner) for s in range(state.players))
        state = replace(state, phase=Phase.GAME_OVER, winners=(winner,), scores=scores)
        events += (Won(winner, best),)
    return Step(state, events, ())
