"""The oracle driver: knows every face (a seeded or given deck order) and serves every request.

Used by tests, self-play, scenarios and local bots, for any game of the registry. It also keeps
each seat's private knowledge (slot -> face for the cards dealt or given to it), which is what
`view_for` needs, and reports every shuffle it served as a `Shuffled` event in `shuffles` (kept
apart from the engine's own `events`, which every driver reports alike).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from fairdeal.engine.errors import DRIVER
from fairdeal.engine.events import Shuffled
from fairdeal.engine.games import AnyGame
from fairdeal.engine.requests import (
    Ack,
    Arrange,
    Arrangement,
    Deal,
    Faces,
    GroupedReshuffle,
    NewDeck,
    NewGroupedDeck,
    Request,
    Reshuffle,
    Reveal,
    Transfer,
)
from fairdeal.engine.step import Step

# Given the faces of the old slots (in their order), return them in the order of the new slots.
ReshuffleOrder = Callable[[list[int]], list[int]]
# Given the slots of an Arrange request and its reason, return them in their new order.
ArrangeOrder = Callable[[tuple[int, ...], str], Sequence[int]]


# Resolutions are immutable: one Ack per request id serves every game (ids start at 0 in each
# game and stay under a few thousand), where a game of The Lie acknowledges about 150 requests.
_ACKS: dict[int, Ack] = {}


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """`rng.shuffle(items)`: the same draws and the same order, in about 55 % of the time.

    The Random class's own shuffle calls a Python method for every draw (`_randbelow`); this
    makes the same getrandbits calls inline (CPython's random.py, for a Random whose `random`
    is its own). Any other generator is left to its own shuffle. Every deck, reshuffle and
    arrangement the oracle serves is shuffled here; tests/engine/test_oracle_shuffle.py holds it
    to the library's.
    """
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


class OracleDriver:
    """Runs a game with perfect knowledge of the deck.

    `decks` gives the face order of each new deck (Larry: hand 1, hand 2, …; The Lie: round 1)
    and `reshuffle` the order of each reshuffle; `arrange` orders Arrange requests. Without them
    all come from `random.Random(seed)`. `game` defaults to the game of `options` (the default
    game, engine/games.py, when neither is given).
    """

    def __init__(
        self,
        players: int,
        options: Any = None,
        *,
        seed: int | None = 0,
        decks: Sequence[Sequence[int]] | None = None,
        reshuffle: ReshuffleOrder | None = None,
        arrange: ArrangeOrder | None = None,
        start: bool = True,
        game: AnyGame | str | None = None,
    ) -> None:
        from fairdeal.engine.games import default_game, game_of_options, get_game

        if isinstance(game, str):
            game = get_game(game)
        elif game is None:
            game = game_of_options(options) if options is not None else get_game(default_game())
        self.game: AnyGame = game
        self.options = options if options is not None else game.default_options()
        self.players = players
        self.rng = random.Random(seed)
        self._backs = game.backs(self.options)
        self._names = game.card_names(self.options)
        self._decks: Iterator[Sequence[int]] = iter(decks or ())
        self._reshuffle = reshuffle
        self._arrange = arrange
        self.faces: dict[int, int] = {}  # slot -> face, for every slot ever allocated
        self.knowledge: list[dict[int, int]] = [{} for _ in range(players)]
        self.events: list[Any] = []
        self.shuffles: list[Shuffled] = []  # what each NewDeck/Reshuffle put where (point 11)
        self.log: list[tuple[int, Any]] = []  # every seat action accepted, in order
        if start:
            self.start()

    def start(self) -> None:
        """Begin the game. With start=False the driver can first serve as a pure answerer."""
        step = self.game.new_game(self.players, self.options)
        self.events.extend(step.events)
        self.state: Any = self.serve(step.state)

    # -- serving requests ----------------------------------------------------------------------
    def serve(self, state: Any) -> Any:
        """Answer every outstanding request; return the state that waits for a seat (or is over)."""
        apply = self.game.apply
        while state.pending:
            request = state.pending[0]
            step = apply(state, DRIVER, self.answer(request))
            self.events.extend(step.events)
            state = step.state
        return state

    def answer(self, request: Request) -> Ack | Faces | Arrangement:
        """Make `request` true in this oracle's world and return the resolution to feed back."""
        faces = self.faces
        # `type(x) is C` narrows the request for the type checker, as cheaply as one type().
        if type(request) is Deal:
            known = self.knowledge[request.seat]
            for slot in request.slots:
                known[slot] = faces[slot]
        elif type(request) is Reveal:
            return Faces(request.id, tuple([faces[slot] for slot in request.slots]))
        elif type(request) is Arrange:
            return self._arranged(request)
        elif type(request) is Transfer:
            self.knowledge[request.to_seat][request.slot] = faces[request.slot]
        elif type(request) is NewDeck:
            self._new_deck(request)
        elif type(request) is NewGroupedDeck:
            self._new_grouped_deck(request)
        elif type(request) is Reshuffle:
            self._reshuffled(request)
        elif type(request) is GroupedReshuffle:
            self._grouped_reshuffled(request)
        rid = request.id
        ack = _ACKS.get(rid)
        if ack is None:
            ack = _ACKS[rid] = Ack(rid)
        return ack

    def _report(self, request: Request, slots: tuple[int, ...]) -> None:
        names = self._names
        cards = tuple([names[self.faces[slot]] for slot in slots])
        self.shuffles.append(Shuffled(request.id, type(request).__name__, slots, cards))

    def _forget_all(self) -> None:
        for known in self.knowledge:
            known.clear()  # a new deck: old slots are dead

    def _new_deck(self, request: NewDeck) -> None:
        size = len(self._backs)
        given = next(self._decks, None)
        order = list(given) if given else self._shuffled(range(size))
        if sorted(order) != list(range(size)):
            raise ValueError("a deck order must list every card id exactly once")
        self.faces.update(zip(request.slots, order, strict=True))
        self._forget_all()
        self._report(request, request.slots)

    def _new_grouped_deck(self, request: NewGroupedDeck) -> None:
        backs = self._backs
        given = next(self._decks, None)
        if given is not None:
            order = list(given)
            if sorted(order) != sorted(range(len(backs))) or len(order) != len(request.slots):
                raise ValueError("a deck order must list every card id exactly once")
            if any(backs[face] != back for face, back in zip(order, request.backs, strict=True)):
                raise ValueError("a deck order must put each card on a slot of its own back")
        else:
            order = self._within_backs(sorted(range(len(backs))), list(request.backs))
        self.faces.update(zip(request.slots, order, strict=True))
        self._forget_all()
        self._report(request, request.slots)

    def _reshuffled(self, request: Reshuffle) -> None:
        old = [self.faces[slot] for slot in request.old]
        new = self._reshuffle(old) if self._reshuffle else self._shuffled(old)
        if sorted(new) != sorted(old):
            raise ValueError("a reshuffle must keep the same cards")
        self.faces.update(zip(request.new, new, strict=True))
        self._report(request, request.new)

    def _grouped_reshuffled(self, request: GroupedReshuffle) -> None:
        backs = self._backs
        old = [self.faces[slot] for slot in request.old]
        wanted = [backs[face] for face in old]
        if self._reshuffle:
            new = list(self._reshuffle(old))
            if sorted(new) != sorted(old):
                raise ValueError("a reshuffle must keep the same cards")
            if [backs[face] for face in new] != wanted:
                raise ValueError("a grouped reshuffle must keep every slot's back")
        else:
            new = self._within_backs(old, wanted)
        self.faces.update(zip(request.new, new, strict=True))
        self._forget_all()
        self._report(request, request.new)

    def _within_backs(self, cards: list[int], wanted: list[int]) -> list[int]:
        """`cards` shuffled so that position i holds a card of back `wanted[i]`."""
        backs = self._backs
        by_back: dict[int, list[int]] = {}
        for face in cards:
            by_back.setdefault(backs[face], []).append(face)
        for group in by_back.values():
            shuffle(self.rng, group)
        try:
            return [by_back[back].pop() for back in wanted]
        except (KeyError, IndexError):
            raise ValueError("the slots' backs do not match the cards to lay out") from None

    def _arranged(self, request: Arrange) -> Arrangement:
        if self._arrange is not None:
            order = tuple(self._arrange(request.slots, request.reason))
            if sorted(order) != sorted(request.slots):
                raise ValueError("an arrangement must order exactly the slots asked for")
        else:
            order = tuple(self._shuffled(request.slots))
        return Arrangement(request.id, order)

    def _shuffled(self, cards: Sequence[int] | range) -> list[int]:
        order = list(cards)
        shuffle(self.rng, order)
        return order

    # -- playing -------------------------------------------------------------------------------
    def act(self, seat: int, action: Any) -> Step[Any, Any]:
        """Apply a seat's action (raises IllegalAction) and serve what it asks for."""
        step = self.game.apply(self.state, seat, action)
        self.log.append((seat, action))
        self.events.extend(step.events)
        state = step.state
        # Most moves ask nothing of the driver (a placement, a pass): no serving to do.
        self.state = self.serve(state) if state.pending else state
        return step
