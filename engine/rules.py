"""Larry's transitions: `new_game`, and `apply(state, seat, action)` for actions and resolutions.

Each transition copies the state's fields into a small mutable transaction, applies the rule and
freezes the result into a new LarryState, so the hot path makes one object per call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from types import MappingProxyType
from typing import Any

from engine import errors as E
from engine.actions import (
    AcceptOut,
    Ack,
    Action,
    Doubt,
    Faces,
    PlayFaceDown,
    PlayFaceUp,
    Resolution,
)
from engine.cards import ACTION_KINDS, TARGETED_KINDS, Card, CardKind, deck_of
from engine.events import (
    CardGiven,
    DirectionChanged,
    Doubted,
    DoubtResolved,
    Event,
    GameOver,
    HandScored,
    HandStarted,
    LarryPenalty,
    ObligationPlaced,
    OutAccepted,
    OverLimit,
    PickedUp,
    PlayedFaceDown,
    PlayedFaceUp,
    Reshuffled,
    Violation,
    WentOut,
)
from engine.options import LarryOptions
from engine.requests import Deal, NewDeck, Request, Reshuffle, Reveal, Transfer
from engine.state import (
    NOTHING_REVEALED,
    AwaitDoubt,
    AwaitFaceUp,
    Awaiting,
    AwaitScore,
    LarryState,
    Phase,
    Step,
)

_FIELDS = tuple(f.name for f in fields(LarryState))


class _Tx:
    """A mutable working copy of a LarryState for one transition."""

    players: int
    options: LarryOptions
    phase: Phase
    hand_no: int
    turn: int
    hands: list[tuple[int, ...]]
    pickup: tuple[int, ...]
    pile: tuple[int, ...]
    pile_seats: tuple[int, ...]
    pile_totals: tuple[int, ...]
    discard: tuple[int, ...]
    revealed: Mapping[int, int]
    limit: int
    direction: int
    announced: int
    last_player: int | None
    obligated: tuple[bool, ...]
    out_seat: int | None
    scores: tuple[int, ...]
    last_acted: tuple[int, ...]
    actions_in_hand: int
    next_slot: int
    next_request: int
    pending: tuple[Request, ...]
    awaiting: Awaiting | None
    winners: tuple[int, ...]

    # The transaction's own data lives in slots, so that __dict__ holds exactly the state fields.
    __slots__ = ("__dict__", "deck", "events", "new_requests")

    def __init__(self, state: LarryState) -> None:
        self.__dict__.update(state.__dict__)
        self.hands = list(state.hands)
        self.deck: tuple[Card, ...] = deck_of(state.options)
        self.events: list[Event] = []
        self.new_requests: list[Request] = []

    # -- bookkeeping -------------------------------------------------------------------------
    def freeze(self) -> Step:
        """The new state. The transaction must not be used afterwards (its dict is handed over)."""
        values = self.__dict__
        values["hands"] = tuple(self.hands)
        if self.new_requests:
            values["pending"] = self.pending + tuple(self.new_requests)
        state = object.__new__(LarryState)
        object.__setattr__(state, "__dict__", values)
        return Step(state, tuple(self.events), tuple(self.new_requests))

    def alloc(self, count: int) -> tuple[int, ...]:
        start = self.next_slot
        self.next_slot = start + count
        return tuple(range(start, start + count))

    def request_id(self) -> int:
        rid = self.next_request
        self.next_request = rid + 1
        return rid

    def next_seat(self, seat: int) -> int:
        return (seat + self.direction) % self.players

    def mark_acted(self, seat: int) -> None:
        acted = list(self.last_acted)
        acted[seat] = self.actions_in_hand
        self.last_acted = tuple(acted)
        self.actions_in_hand += 1

    def set_obligation(self, seat: int, value: bool) -> None:
        obligated = list(self.obligated)
        obligated[seat] = value
        self.obligated = tuple(obligated)

    # -- card movements ----------------------------------------------------------------------
    def draw(self, seat: int, count: int, reason: str) -> None:
        """Move `count` cards from the pick-up pile to `seat`, reshuffling the discard (L14)."""
        drawn = 0
        while drawn < count:
            if not self.pickup:
                if not self.discard:
                    break  # L14: both piles empty, draw what there is
                new = self.alloc(len(self.discard))
                self.new_requests.append(Reshuffle(self.request_id(), self.discard, new))
                self.events.append(Reshuffled(len(new)))
                self.pickup, self.discard = new, ()
            take = self.pickup[: count - drawn]
            self.pickup = self.pickup[len(take) :]
            self.hands[seat] = self.hands[seat] + take
            self.new_requests.append(Deal(self.request_id(), seat, take))
            drawn += len(take)
        self.events.append(PickedUp(seat, drawn, reason))

    def clear_pile(self) -> None:
        """The pile goes to the discard pile and a new round starts at 0 (L7, L9, L12)."""
        self.discard = self.discard + self.pile
        self.pile = self.pile_seats = self.pile_totals = ()
        self.announced = 0
        self.last_player = None

    def face(self, slot: int) -> Card:
        return self.deck[self.revealed[slot]]

    # -- hands ---------------------------------------------------------------------------------
    def start_hand(self, first: int) -> None:
        """Fresh deck in new slots, deal by L3, limit 7 clockwise (L4), `first` starts (L5).

        Seat s gets the slots s*k .. s*k+k-1 of the new deck; the rest is the pick-up pile,
        drawn from its front.
        """
        n = self.players
        per_player = self.options.cards_per_player(n)
        slots = self.alloc(len(self.deck))
        self.new_requests.append(NewDeck(self.request_id(), slots))
        hands = []
        for seat in range(n):
            hand = slots[seat * per_player : (seat + 1) * per_player]
            hands.append(hand)
            self.new_requests.append(Deal(self.request_id(), seat, hand))
        self.hands = hands
        self.pickup = slots[n * per_player :]
        self.pile = self.discard = self.pile_seats = self.pile_totals = ()
        self.revealed = NOTHING_REVEALED
        self.limit = self.options.limits[0]
        self.direction = 1
        self.announced = 0
        self.last_player = None
        self.obligated = (False,) * n
        self.out_seat = None
        self.last_acted = (-1,) * n
        self.actions_in_hand = 0
        self.turn = first
        self.phase = Phase.PLAY
        self.awaiting = None
        self.events.append(HandStarted(self.hand_no, first, per_player))

    def end_hand(self, out_seat: int) -> None:
        """L16: the hand is over; reveal what is left in the hands for L17 scoring."""
        self.phase = Phase.SCORING
        self.out_seat = out_seat
        hidden = tuple(slot for hand in self.hands for slot in hand if slot not in self.revealed)
        if hidden:
            self.awaiting = AwaitScore(out_seat)
            self.new_requests.append(Reveal(self.request_id(), hidden, "score"))
        else:
            self.score_hand(out_seat)

    def score_hand(self, out_seat: int) -> None:
        """L17 scoring, then L18 (game over?) and L5 (who starts the next hand)."""
        self.awaiting = None
        faces = tuple(tuple(self.revealed[slot] for slot in hand) for hand in self.hands)
        hand_scores = tuple(
            2 if seat == out_seat else -sum(self.deck[face].symbols for face in faces[seat])
            for seat in range(self.players)
        )
        totals = tuple(a + b for a, b in zip(self.scores, hand_scores, strict=True))
        self.scores = totals
        self.events.append(HandScored(self.hand_no, out_seat, hand_scores, totals, faces))
        options: LarryOptions = self.options
        if options.short_game or self.hand_no >= options.hands:
            if options.short_game:
                winners: tuple[int, ...] = (out_seat,)  # L18 short game
            else:
                best = max(totals)
                winners = tuple(seat for seat, total in enumerate(totals) if total == best)
            self.winners = winners
            self.phase = Phase.GAME_OVER
            self.events.append(GameOver(winners, totals))
            return
        # L5: most minus points overall (lowest total); ties: who acted most recently.
        first = min(
            range(self.players),
            key=lambda seat: (totals[seat], -self.last_acted[seat]),
        )
        self.hand_no += 1
        self.start_hand(first)


def new_game(players: int, options: LarryOptions | None = None) -> Step:
    """A new game: hand 1 starts at options.first_seat (L5) with NewDeck and Deal requests."""
    options = options or LarryOptions()
    options.validate(players)
    state = LarryState(
        players=players,
        options=options,
        phase=Phase.PLAY,
        hand_no=1,
        turn=options.first_seat,
        hands=((),) * players,
        pickup=(),
        pile=(),
        pile_seats=(),
        pile_totals=(),
        discard=(),
        revealed=NOTHING_REVEALED,
        limit=options.limits[0],
        direction=1,
        announced=0,
        last_player=None,
        obligated=(False,) * players,
        out_seat=None,
        scores=(0,) * players,
        last_acted=(-1,) * players,
        actions_in_hand=0,
        next_slot=0,
        next_request=0,
        pending=(),
        awaiting=None,
        winners=(),
    )
    tx = _Tx(state)
    tx.start_hand(options.first_seat)
    return tx.freeze()


def apply(state: LarryState, seat: int, action: Action | Resolution) -> Step:
    """Validate `action` by `seat` against the public state and return the next Step.

    Resolutions (Ack, Faces) come from the driver with seat == errors.DRIVER. Raises an
    IllegalAction subclass naming the seat; the given state is never changed.
    """
    if isinstance(action, (Ack, Faces)):
        return _resolve(state, seat, action)
    if state.over:
        raise E.GameIsOver(seat, "the game is over")
    if not 0 <= seat < state.players:
        raise E.NoSuchSeat(seat, f"there is no seat {seat} at this table")
    if state.pending:
        raise E.WaitingForDriver(seat, "cards are still being dealt or revealed")
    if seat != state.turn:
        raise E.NotYourTurn(seat, f"it is seat {state.turn}'s turn")
    if isinstance(action, Doubt):
        return _doubt(state, seat)
    if state.phase is Phase.GOING_OUT:
        if isinstance(action, AcceptOut):
            return _accept_out(state, seat)
        raise E.MustDoubtOrAccept(
            seat, f"seat {state.out_seat} went out: doubt or accept, nothing else (L16)"
        )
    if isinstance(action, PlayFaceDown):
        return _play_face_down(state, seat, action)
    if isinstance(action, PlayFaceUp):
        return _play_face_up(state, seat, action)
    if isinstance(action, AcceptOut):
        raise E.NothingToAccept(seat, "nobody has gone out (L16)")
    raise E.UnknownAction(seat, f"{type(action).__name__} is not a Larry action")


# -- player actions ------------------------------------------------------------------------------
def _doubt(state: LarryState, seat: int) -> Step:
    if not state.pile or state.last_player is None:
        raise E.CannotDoubtEmptyPile(seat, "the pile is empty: nothing to doubt (L7)")
    tx = _Tx(state)
    tx.mark_acted(seat)
    tx.events.append(Doubted(seat, state.last_player))
    hidden = tuple(slot for slot in state.pile if slot not in state.revealed)
    if hidden:
        tx.awaiting = AwaitDoubt(seat)
        tx.new_requests.append(Reveal(tx.request_id(), hidden, "doubt"))
    else:
        _finish_doubt(tx, seat)
    return tx.freeze()


def _finish_doubt(tx: _Tx, doubter: int) -> None:
    """L9 (L8 gloat parity), and L16 when the doubt follows a player going out."""
    tx.awaiting = None
    cards = tuple(tx.revealed[slot] for slot in tx.pile)
    total = sum(tx.deck[face].value for face in cards)
    gloats = sum(1 for face in cards if tx.deck[face].kind is CardKind.GLOAT)
    announced: int = tx.announced
    correct = gloats % 2 == 1 or total == announced
    last_player: int = tx.last_player
    loser = doubter if correct else last_player
    tx.events.append(
        DoubtResolved(doubter, last_player, announced, total, gloats, correct, loser, cards)
    )
    tx.clear_pile()
    penalty = tx.options.penalty
    if tx.phase is Phase.GOING_OUT:
        out_seat: int = tx.out_seat
        tx.draw(loser, penalty, "doubt")
        if correct:  # L16: the doubter picks up and the hand ends
            tx.end_hand(out_seat)
        else:  # L16: the player who went out picks up and starts the next round
            tx.phase = Phase.PLAY
            tx.out_seat = None
            tx.turn = out_seat
        return
    tx.draw(loser, penalty, "doubt")
    tx.turn = loser  # L9: whoever picked up starts the next round


def _check_larry(seat: int, larry: bool, left: int) -> None:
    if larry and left != 1:
        raise E.BadLarryCall(seat, f"this play leaves {left} cards, not 1: no 'Larry' (L15)")


def _after_play(tx: _Tx, seat: int, larry: bool, left: int) -> None:
    """Common end of a play: L15 Larry penalty, L16 going out, else the next seat's turn."""
    if left == 1 and not larry:
        tx.events.append(LarryPenalty(seat))
        tx.draw(seat, tx.options.penalty, "larry")
    if left == 0:
        final_doubt = bool(tx.pile)
        tx.events.append(WentOut(seat, final_doubt))
        if final_doubt:
            tx.phase = Phase.GOING_OUT
            tx.out_seat = seat
            tx.turn = tx.next_seat(seat)
        else:  # L7: an empty pile cannot be doubted, so nobody can challenge going out
            tx.end_hand(seat)
        return
    tx.turn = tx.next_seat(seat)


def _play_face_down(state: LarryState, seat: int, action: PlayFaceDown) -> Step:
    hand = state.hands[seat]
    if action.slot not in hand:
        raise E.CardNotInHand(seat, f"slot {action.slot} is not in your hand")
    if state.obligated[seat]:
        raise E.MustPlayFaceUp(seat, "a face-up card lies before you: play face-up (L12)")
    if action.announce > state.limit:
        raise E.LimitExceeded(
            seat, f"announced {action.announce}, above the limit {state.limit} (L6)"
        )
    left = len(hand) - 1
    _check_larry(seat, action.larry, left)
    tx = _Tx(state)
    tx.mark_acted(seat)
    tx.hands[seat] = tuple([slot for slot in hand if slot != action.slot])
    tx.pile = (*state.pile, action.slot)
    tx.pile_seats = (*state.pile_seats, seat)
    tx.pile_totals = (*state.pile_totals, action.announce)
    tx.announced = action.announce
    tx.last_player = seat
    tx.events.append(PlayedFaceDown(seat, action.slot, action.announce, action.larry))
    _after_play(tx, seat, action.larry, left)
    return tx.freeze()


def stuck_under_obligation(kinds: list[CardKind]) -> bool:
    """L12 (extended): no card of this hand can be played face-up for its effect or value.

    That is a hand of only gloat cards (the ruling's own exception) or of gloat and give-away
    cards when give away 1 is barred by L11 (fewer than 3 cards). One card is then played face-up
    onto the pile counting 0, so the obligation can always be met. See RULES.md, L12.
    """
    allowed = {CardKind.GLOAT, CardKind.GIVE_AWAY_1}
    if any(kind not in allowed for kind in kinds):
        return False
    return CardKind.GIVE_AWAY_1 not in kinds or len(kinds) < 3


def _play_face_up(state: LarryState, seat: int, action: PlayFaceUp) -> Step:
    hand = state.hands[seat]
    claim = action.claim
    if action.slot not in hand:
        raise E.CardNotInHand(seat, f"slot {action.slot} is not in your hand")
    obligated = state.obligated[seat]
    if claim not in ACTION_KINDS and claim not in (CardKind.NUMBER, CardKind.GLOAT):
        raise E.BadClaim(seat, f"{claim!r} is not a card kind")
    if claim in (CardKind.NUMBER, CardKind.GLOAT) and not obligated:
        raise E.BadClaim(seat, f"{claim.value} cards are played face-down unless obliged (L12)")
    # L12 (extended): a give away 1 that L11 bars may be played face-up as a 0 when obliged.
    zero_play = claim is CardKind.GLOAT or (
        obligated
        and claim is CardKind.GIVE_AWAY_1
        and len(hand) < 3
        and action.target is None
        and action.give is None
    )
    if claim in TARGETED_KINDS and not zero_play:
        if action.target is None or not 0 <= action.target < state.players:
            raise E.BadTarget(seat, f"{claim.value} needs another seat as target")
        if action.target == seat:
            raise E.BadTarget(seat, f"{claim.value} must target another player")
    elif action.target is not None:
        raise E.BadTarget(seat, f"{claim.value} takes no target here")
    gift = 0
    if claim is CardKind.GIVE_AWAY_1 and not zero_play:
        if len(hand) < 3:
            raise E.GiveAwayTooFewCards(
                seat, f"give away 1 needs 3 cards in hand, you hold {len(hand)} (L11)"
            )
        if action.give is None or action.give not in hand or action.give == action.slot:
            raise E.BadGiveCard(seat, "name another card of your hand to give away (L11)")
        gift = 1
    elif action.give is not None:
        raise E.BadGiveCard(seat, f"{claim.value} gives no card away here")
    left = len(hand) - 1 - gift
    _check_larry(seat, action.larry, left)
    forced = zero_play or claim is CardKind.NUMBER
    tx = _Tx(state)
    tx.mark_acted(seat)
    tx.hands[seat] = tuple([slot for slot in hand if slot != action.slot])
    if forced:
        # L12: face-up numbers (and zero plays) join the pile.
        tx.pile = (*state.pile, action.slot)
        tx.pile_seats = (*state.pile_seats, seat)  # its total is added once it is revealed
    else:
        # Action cards played for their effect go straight to the discard pile.
        tx.discard = (*state.discard, action.slot)
    to_reveal: tuple[int, ...] = (action.slot,)
    if zero_play:  # the claim "no other card is playable" is proved by the whole hand
        to_reveal += tx.hands[seat]
    tx.awaiting = AwaitFaceUp(seat, action, left, forced, zero_play)
    tx.new_requests.append(Reveal(tx.request_id(), to_reveal, "face_up"))
    return tx.freeze()


def _finish_face_up(tx: _Tx, pending: AwaitFaceUp, reveal: Reveal) -> None:
    tx.awaiting = None
    seat, action, left = pending.seat, pending.play, pending.left
    claim = action.claim
    faces = tuple(tx.revealed[slot] for slot in reveal.slots)
    card = tx.deck[faces[0]]
    if pending.zero_play:
        honest = card.kind is claim and stuck_under_obligation([tx.deck[f].kind for f in faces])
    else:
        honest = card.kind is claim
    if not honest:
        shown = ", ".join(tx.deck[face].name for face in faces)
        tx.phase = Phase.ABORTED
        tx.events.append(
            Violation(seat, f"claimed {claim.value} face-up, showed {shown}", reveal.slots, faces)
        )
        return
    tx.last_player = seat  # L6: playing any card accepts the total
    if pending.forced:  # L12: the obligation is fulfilled
        tx.set_obligation(seat, False)
        total = tx.announced + card.value
        tx.announced = total
        tx.pile_totals = (*tx.pile_totals, total)
        tx.events.append(PlayedFaceUp(seat, action.slot, card.id, claim, None, total, action.larry))
        if total > tx.limit:
            tx.events.append(OverLimit(seat, total, tx.limit))
            tx.clear_pile()
            tx.draw(seat, tx.options.penalty, "over_limit")
            if left == 1 and not action.larry:
                tx.events.append(LarryPenalty(seat))
                tx.draw(seat, tx.options.penalty, "larry")
            tx.turn = seat  # L12: that player starts the next round
            return
        _after_play(tx, seat, action.larry, left)
        return
    tx.events.append(
        PlayedFaceUp(seat, action.slot, card.id, claim, action.target, tx.announced, action.larry)
    )
    target = action.target
    if claim is CardKind.FACE_UP:
        assert target is not None
        tx.set_obligation(target, True)
        tx.events.append(ObligationPlaced(seat, target))
    elif claim is CardKind.PICK_UP_2:
        assert target is not None
        tx.draw(target, tx.options.penalty, "pick_up_2")
    elif claim is CardKind.GIVE_AWAY_1:
        assert target is not None and action.give is not None
        tx.hands[seat] = tuple(slot for slot in tx.hands[seat] if slot != action.give)
        tx.hands[target] = tx.hands[target] + (action.give,)
        tx.new_requests.append(Transfer(tx.request_id(), action.give, seat, target))
        tx.events.append(CardGiven(seat, target, action.give))
    elif claim is CardKind.CHANGE_DIRECTION:
        tx.direction = -tx.direction
        low, high = tx.options.limits[1], tx.options.limits[0]
        tx.limit = low if tx.limit == high else high
        tx.events.append(DirectionChanged(tx.direction, tx.limit))
    _after_play(tx, seat, action.larry, left)


def _accept_out(state: LarryState, seat: int) -> Step:
    tx = _Tx(state)
    tx.mark_acted(seat)
    tx.events.append(OutAccepted(seat))
    assert state.out_seat is not None
    tx.end_hand(state.out_seat)
    return tx.freeze()


# -- driver resolutions --------------------------------------------------------------------------
def _resolve(state: LarryState, seat: int, resolution: Resolution) -> Step:
    if seat != E.DRIVER:
        raise E.BadResolution(seat, "only the driver answers requests")
    if not state.pending:
        raise E.BadResolution(seat, "no request is outstanding")
    request = state.pending[0]
    if resolution.request != request.id:
        raise E.BadResolution(
            seat, f"answer for request {resolution.request}, expected request {request.id}"
        )
    if isinstance(request, Reveal):
        if not isinstance(resolution, Faces):
            raise E.BadResolution(seat, f"request {request.id} is a Reveal: answer with Faces")
        return _resolve_reveal(state, request, resolution)
    if not isinstance(resolution, Ack):
        raise E.BadResolution(seat, f"request {request.id} is answered with Ack, not faces")
    return Step(_replace_pending(state, state.pending[1:]), (), ())


def _replace_pending(state: LarryState, pending: tuple[Request, ...]) -> LarryState:
    values = dict(state.__dict__)
    values["pending"] = pending
    return _build_state(values)


def _build_state(values: dict[str, Any]) -> LarryState:
    """A LarryState from its field values without running __init__ (the hot path)."""
    state = object.__new__(LarryState)
    state.__dict__.update(values)
    return state


def _resolve_reveal(state: LarryState, request: Reveal, resolution: Faces) -> Step:
    faces = resolution.faces
    deck_size = len(deck_of(state.options))
    if len(faces) != len(request.slots):
        raise E.BadResolution(
            E.DRIVER, f"{len(faces)} faces for {len(request.slots)} slots of request {request.id}"
        )
    if any(type(face) is not int or not 0 <= face < deck_size for face in faces):
        raise E.BadResolution(E.DRIVER, f"faces must be card ids 0..{deck_size - 1}")
    if len(set(faces)) != len(faces):
        raise E.BadResolution(E.DRIVER, "the same card was revealed twice")
    tx = _Tx(state)
    tx.pending = state.pending[1:]
    revealed = dict(state.revealed)
    revealed.update(zip(request.slots, faces, strict=True))
    tx.revealed = MappingProxyType(revealed)
    awaiting = state.awaiting
    if isinstance(awaiting, AwaitDoubt):
        _finish_doubt(tx, awaiting.doubter)
    elif isinstance(awaiting, AwaitFaceUp):
        _finish_face_up(tx, awaiting, request)
    elif isinstance(awaiting, AwaitScore):
        tx.score_hand(awaiting.out_seat)
    return tx.freeze()
