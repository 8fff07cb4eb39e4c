"""The oracle driver: knows every face (a seeded or given deck order) and serves every request.

Used by tests, self-play, scenarios and local bots. It also keeps each seat's private knowledge
(slot -> face for the cards dealt or given to it), which is what `view_for` needs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from fairdeal.engine.actions import Ack, Action, Faces
from fairdeal.engine.cards import deck_of
from fairdeal.engine.errors import DRIVER
from fairdeal.engine.events import Event
from fairdeal.engine.options import LarryOptions
from fairdeal.engine.requests import Deal, NewDeck, Request, Reshuffle, Reveal, Transfer
from fairdeal.engine.rules import apply, new_game
from fairdeal.engine.state import LarryState, Step

# Given the faces of the old slots (in their order), return them in the order of the new slots.
ReshuffleOrder = Callable[[list[int]], list[int]]


class OracleDriver:
    """Runs a game with perfect knowledge of the deck.

    `decks` gives the face order of each NewDeck (hand 1, hand 2, …) and `reshuffle` the order of
    each L14 reshuffle; without them both come from `random.Random(seed)`.
    """

    def __init__(
        self,
        players: int,
        options: LarryOptions | None = None,
        *,
        seed: int | None = 0,
        decks: Sequence[Sequence[int]] | None = None,
        reshuffle: ReshuffleOrder | None = None,
        start: bool = True,
    ) -> None:
        self.options = options or LarryOptions()
        self.players = players
        self.rng = random.Random(seed)
        self._deck_size = len(deck_of(self.options))
        self._decks: Iterator[Sequence[int]] = iter(decks or ())
        self._reshuffle = reshuffle
        self.faces: dict[int, int] = {}  # slot -> face, for every slot ever allocated
        self.knowledge: list[dict[int, int]] = [{} for _ in range(players)]
        self.events: list[Event] = []
        self.log: list[tuple[int, Action]] = []  # every seat action accepted, in order
        if start:
            self.start()

    def start(self) -> None:
        """Begin the game. With start=False the driver can first serve as a pure answerer."""
        step = new_game(self.players, self.options)
        self.events.extend(step.events)
        self.state: LarryState = self.serve(step.state)

    # -- serving requests ----------------------------------------------------------------------
    def serve(self, state: LarryState) -> LarryState:
        """Answer every outstanding request; return the state that waits for a seat (or is over)."""
        while state.pending:
            request = state.pending[0]
            step = apply(state, DRIVER, self.answer(request))
            self.events.extend(step.events)
            state = step.state
        return state

    def answer(self, request: Request) -> Ack | Faces:
        """Make `request` true in this oracle's world and return the resolution to feed back."""
        faces = self.faces
        if isinstance(request, Reveal):
            return Faces(request.id, tuple(faces[slot] for slot in request.slots))
        if isinstance(request, Deal):
            known = self.knowledge[request.seat]
            for slot in request.slots:
                known[slot] = faces[slot]
        elif isinstance(request, Transfer):
            self.knowledge[request.to_seat][request.slot] = faces[request.slot]
        elif isinstance(request, NewDeck):
            order = list(next(self._decks, None) or self._shuffled(range(self._deck_size)))
            if sorted(order) != list(range(self._deck_size)):
                raise ValueError("a deck order must list every card id exactly once")
            faces.update(zip(request.slots, order, strict=True))
            for known in self.knowledge:
                known.clear()  # a new hand: old slots are dead
        elif isinstance(request, Reshuffle):
            old = [faces[slot] for slot in request.old]
            new = self._reshuffle(old) if self._reshuffle else self._shuffled(old)
            if sorted(new) != sorted(old):
                raise ValueError("a reshuffle must keep the same cards")
            faces.update(zip(request.new, new, strict=True))
        return Ack(request.id)

    def _shuffled(self, cards: Sequence[int] | range) -> list[int]:
        order = list(cards)
        self.rng.shuffle(order)
        return order

    # -- playing -------------------------------------------------------------------------------
    def act(self, seat: int, action: Action) -> Step:
        """Apply a seat's action (raises IllegalAction) and serve what it asks for."""
        step = apply(self.state, seat, action)
        self.log.append((seat, action))
        self.events.extend(step.events)
        self.state = self.serve(step.state)
        return step
