"""Larry, one game of the engine: pure, deterministic, sans-IO (no I/O, no crypto, no asyncio).

API overview (names are stable; other packages build on them):

- Cards and options: `LarryOptions` (deck composition L1, Larry symbols L2, short game L18, first
  seat L5), `build_deck(options) -> tuple[Card, ...]`; a *face* is a card id, an index into it.
  `CardKind` names the kinds ("number", "gloat", "face_up", "pick_up_2", "give_away_1",
  "change_direction").
- State: `LarryState`, immutable and *public*: hidden cards are deck slots (ints, never reused);
  `state.revealed` maps opened slots to faces. `state.to_act()` is the seat awaited (None while
  requests are pending or when the game is over); `state.pending` lists requests in order.
- Transitions: `new_game(players, options) -> Step` and `apply(state, seat, action) -> Step`;
  a `Step` (`LarryStep`: a `Step[LarryState, Event]`) holds the new `state`, the `events` that
  happened and the `requests` newly issued.
  Actions: `Doubt`, `PlayFaceDown(slot, announce, larry)`, `PlayFaceUp(slot, claim, target,
  give, larry)`, `AcceptOut`. Illegal actions raise an `IllegalAction` subclass (`NotYourTurn`,
  `LimitExceeded`, `GiveAwayTooFewCards`, …) carrying `.seat` and `.reason`.
- Requests a driver serves: `NewDeck(slots)`, `Deal(seat, slots)`, `Transfer(slot, from_seat,
  to_seat)`, `Reshuffle(old, new)`, `Reveal(slots, reason)`. The driver answers `pending[0]` by
  `apply(state, DRIVER, Ack(id))`, or `Faces(id, faces)` for a Reveal. A face-up claim that the
  revealed face contradicts yields a `Violation` event naming the seat, and the game stops.
  A seat's private knowledge grows with the requests: after `Deal(seat, slots)` that seat knows
  the faces of `slots`, after `Transfer` the receiver knows the gift; Reveal faces are public
  (`state.revealed`).
- Views: `view_for(state, knowledge, seat) -> LarryView` (knowledge: slot -> face of the cards
  that seat was dealt or given); `legal_actions(view)` from the view only.
- Drivers and bots: `OracleDriver` (fairdeal.engine.oracle: knows the deck order, serves
  everything, keeps each seat's knowledge); bots in `fairdeal.engine.larry.bots`
  (`make_bot("random" | "heuristic", rng)`, each with `choose(view) -> Action`);
  `fairdeal.engine.selfplay.play_game`; `fairdeal.engine.scenario.run_scenario`.
- Plain data: `fairdeal.engine.larry.codec` (`to_data` / `from_data`, `state_from_data`, …) for
  states, actions, events, requests (msgpack-compatible, strict parsing; protocol.md section 7).
- `GAME`: this game's surface for the registry (`fairdeal.engine.games.get_game("larry")`).
"""

from fairdeal.engine.errors import DRIVER, IllegalAction
from fairdeal.engine.events import Violation
from fairdeal.engine.game import Game, Knowledge
from fairdeal.engine.larry.actions import AcceptOut, Action, Doubt, PlayFaceDown, PlayFaceUp
from fairdeal.engine.larry.cards import Card, CardKind, build_deck
from fairdeal.engine.larry.events import Event
from fairdeal.engine.larry.legal import legal_actions
from fairdeal.engine.larry.options import LarryOptions
from fairdeal.engine.larry.rules import apply, new_game
from fairdeal.engine.larry.state import LarryState, Phase, Step
from fairdeal.engine.larry.transaction import LarryStep
from fairdeal.engine.larry.view import LarryView, view_for
from fairdeal.engine.oracle import OracleDriver
from fairdeal.engine.requests import (
    Ack,
    Deal,
    Faces,
    NewDeck,
    Request,
    Reshuffle,
    Resolution,
    Reveal,
    Transfer,
)

__all__ = [
    "DRIVER",
    "GAME",
    "AcceptOut",
    "Ack",
    "Action",
    "Card",
    "CardKind",
    "Deal",
    "Doubt",
    "Event",
    "Faces",
    "IllegalAction",
    "Knowledge",
    "LarryOptions",
    "LarryState",
    "LarryStep",
    "LarryView",
    "NewDeck",
    "OracleDriver",
    "Phase",
    "PlayFaceDown",
    "PlayFaceUp",
    "Request",
    "Reshuffle",
    "Resolution",
    "Reveal",
    "Step",
    "Transfer",
    "Violation",
    "apply",
    "build_deck",
    "legal_actions",
    "new_game",
    "view_for",
]


def _game() -> Game[LarryState, LarryView, Action, Event, LarryOptions]:
    from fairdeal.engine.game_package import GameModules
    from fairdeal.engine.larry import bots, codec, legal, options, rules, view

    return GameModules(rules, legal, view, options, bots, codec).game(
        "larry",
        "Larry",
        LarryOptions,
        actors=LarryState.actors,
        backs=_backs,
        card_names=_card_names,
        scenarios="fairdeal.engine.larry.scenario",
    )


def _backs(options: LarryOptions) -> tuple[int, ...]:
    return (0,) * options.deck_size  # every Larry card shows the same back


def _card_names(options: LarryOptions) -> tuple[str, ...]:
    return tuple(card.name for card in build_deck(options))


GAME: Game[LarryState, LarryView, Action, Event, LarryOptions] = _game()
