"""Larry's transitions: `new_game`, and `apply(state, seat, action)` for actions and resolutions.

The rules of a turn (L6-L16) and the driver's answers live here; the moves they share (drawing,
clearing the pile, starting and scoring a hand) are on transaction.Transaction.
"""

from __future__ import annotations

from types import MappingProxyType

from fairdeal.engine.events import Violation
from fairdeal.engine.larry import errors as E
from fairdeal.engine.larry.actions import (
    ANNOUNCE_MIN,
    AcceptOut,
    Action,
    Doubt,
    Faces,
    PlayFaceDown,
    PlayFaceUp,
    Resolution,
)
from fairdeal.engine.larry.cards import ACTION_KINDS, TARGETED_KINDS, CardKind, deck_of
from fairdeal.engine.larry.events import (
    CardGiven,
    DirectionChanged,
    Doubted,
    DoubtResolved,
    LarryPenalty,
    ObligationPlaced,
    OutAccepted,
    OverLimit,
    PlayedFaceDown,
    PlayedFaceUp,
    WentOut,
)
from fairdeal.engine.larry.options import LarryOptions
from fairdeal.engine.larry.state import (
    FINISHED_PHASES,
    NOTHING_REVEALED,
    AwaitDoubt,
    AwaitFaceUp,
    AwaitScore,
    LarryState,
    Phase,
)
from fairdeal.engine.larry.transaction import LarryStep, Transaction
from fairdeal.engine.requests import Reveal, Transfer
from fairdeal.engine.transaction import ANSWERS, answer, resolve


def new_game(players: int, options: LarryOptions | None = None) -> LarryStep:
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
        in_front=((),) * players,
    )
    tx = Transaction(state)
    tx.start_hand(options.first_seat)
    return tx.freeze()


def apply(state: LarryState, seat: int, action: Action | Resolution) -> LarryStep:
    """Validate `action` by `seat` against the public state and return the next Step.

    Resolutions (Ack, Faces) come from the driver with seat == errors.DRIVER. Raises an
    IllegalAction subclass naming the seat; the given state is never changed.
    """
    kind = type(action)
    if kind in ANSWERS:
        return answer(state, seat, action, _resolve)
    if state.phase in FINISHED_PHASES:
        raise E.GameIsOver(seat, "the game is over")
    if not 0 <= seat < state.players:
        raise E.NoSuchSeat(seat, f"there is no seat {seat} at this table")
    if state.pending:
        raise E.WaitingForDriver(seat, "cards are still being dealt or revealed")
    if seat != state.turn:
        raise E.NotYourTurn(seat, f"it is seat {state.turn}'s turn")
    # `is` tests on one type(); each branch's assert only tells the type checker what it found.
    if kind is PlayFaceDown and state.phase is Phase.PLAY:
        assert isinstance(action, PlayFaceDown)
        return _play_face_down(state, seat, action)
    if kind is Doubt:
        return _doubt(state, seat)
    if state.phase is Phase.GOING_OUT:
        if kind is AcceptOut:
            return _accept_out(state, seat)
        raise E.MustDoubtOrAccept(
            seat, f"seat {state.out_seat} went out: doubt or let it go, nothing else (L16)"
        )
    if kind is PlayFaceUp:
        assert isinstance(action, PlayFaceUp)
        return _play_face_up(state, seat, action)
    if kind is AcceptOut:
        raise E.NothingToAccept(seat, "nobody has gone out (L16)")
    raise E.UnknownAction(seat, f"{kind.__name__} is not a Larry action")


# -- player actions ------------------------------------------------------------------------------
def _doubt(state: LarryState, seat: int) -> LarryStep:
    if not state.pile or state.last_player is None:
        raise E.CannotDoubtEmptyPile(seat, "the pile is empty: nothing to doubt (L7)")
    tx = Transaction(state)
    tx.mark_acted(seat)
    tx.emit(Doubted(seat, state.last_player))
    hidden = tuple(slot for slot in state.pile if slot not in state.revealed)
    if hidden:
        tx.awaiting = AwaitDoubt(seat)
        tx.ask(Reveal(tx.request_id(), hidden, "doubt"))
    else:
        _finish_doubt(tx, seat)
    return tx.freeze()


def _finish_doubt(tx: Transaction, doubter: int) -> None:
    """L9 (L8 gloat parity), and L16 when the doubt follows a player going out."""
    tx.awaiting = None
    revealed, deck = tx.revealed, tx.deck
    cards = tuple([revealed[slot] for slot in tx.pile])
    total = gloats = 0
    for face in cards:
        card = deck[face]
        total += card.value  # action and gloat cards are worth 0 (L9)
        if card.kind is CardKind.GLOAT:
            gloats += 1
    announced: int = tx.announced
    correct = gloats % 2 == 1 or total == announced
    last_player = tx.last_player
    assert last_player is not None, "a doubted pile was played by someone"
    loser = doubter if correct else last_player
    tx.emit(
        DoubtResolved(
            doubter, last_player, announced, total, gloats, correct, loser, cards, tx.pile_seats
        )
    )
    penalty = tx.options.penalty
    # L19: the loser draws first, from the pick-up pile as it stands; only then is the pile
    # discarded, so an L14 reshuffle that this draw needs cannot take the cards just doubted.
    tx.draw(loser, penalty, "doubt")
    tx.clear_pile()
    if tx.phase is Phase.GOING_OUT:
        out_seat = tx.out_seat
        assert out_seat is not None, "GOING_OUT names who went out"
        if correct:  # L16: the doubter picks up and the hand ends
            tx.end_hand(out_seat)
        else:  # L16: the player who went out picks up and starts the next round
            tx.phase = Phase.PLAY
            tx.out_seat = None
            tx.turn = out_seat
        return
    tx.turn = loser  # L9: whoever picked up starts the next round


def _check_larry(seat: int, larry: bool, left: int) -> None:
    if larry and left != 1:
        raise E.BadLarryCall(seat, f"this play leaves {left} cards, not 1: no 'Larry' (L15)")


def _after_play(tx: Transaction, seat: int, larry: bool, left: int) -> None:
    """Common end of a play: L15 Larry penalty, L16 going out, else the next seat's turn."""
    if left == 1 and not larry:
        tx.emit(LarryPenalty(seat))
        tx.draw(seat, tx.options.penalty, "larry")
    if left == 0:
        final_doubt = bool(tx.pile)
        tx.emit(WentOut(seat, final_doubt))
        if final_doubt:
            tx.phase = Phase.GOING_OUT
            tx.out_seat = seat
            tx.turn = tx.next_seat(seat)
        else:  # L7: an empty pile cannot be doubted, so nobody can challenge going out
            tx.end_hand(seat)
        return
    tx.turn = tx.next_seat(seat)


def _play_face_down(state: LarryState, seat: int, action: PlayFaceDown) -> LarryStep:
    hand = state.hands[seat]
    if action.slot not in hand:
        raise E.CardNotInHand(seat, f"slot {action.slot} is not in your hand")
    if state.obligated[seat]:
        raise E.MustPlayFaceUp(seat, "a face-up card lies before you: play face-up (L12)")
    if action.announce > state.limit:
        raise E.LimitExceeded(
            seat, f"announced {action.announce}, above the limit {state.limit} (L6)"
        )
    if action.announce < ANNOUNCE_MIN:
        raise E.AnnounceOutOfRange(
            seat, f"announced {action.announce}: an announcement is at least {ANNOUNCE_MIN} (L6)"
        )
    left = len(hand) - 1
    _check_larry(seat, action.larry, left)
    tx = Transaction(state)
    tx.mark_acted(seat)
    tx.set_hand(seat, tuple([slot for slot in hand if slot != action.slot]))
    tx.pile = (*state.pile, action.slot)
    tx.pile_seats = (*state.pile_seats, seat)
    tx.pile_totals = (*state.pile_totals, action.announce)
    tx.announced = action.announce
    tx.last_player = seat
    tx.emit(PlayedFaceDown(seat, action.slot, action.announce, action.larry))
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


def is_zero_play(state: LarryState, seat: int, action: PlayFaceUp) -> bool:
    """L12 (extended): this face-up play claims that nothing else is playable, counting 0: a
    gloat, or a give away 1 that L11 bars, played by an obliged seat without target or gift."""
    return action.claim is CardKind.GLOAT or (
        state.obligated[seat]
        and action.claim is CardKind.GIVE_AWAY_1
        and len(state.hands[seat]) < 3
        and action.target is None
        and action.give is None
    )


def _play_face_up(state: LarryState, seat: int, action: PlayFaceUp) -> LarryStep:
    hand = state.hands[seat]
    claim = action.claim
    if action.slot not in hand:
        raise E.CardNotInHand(seat, f"slot {action.slot} is not in your hand")
    obligated = state.obligated[seat]
    if claim not in ACTION_KINDS and claim not in (CardKind.NUMBER, CardKind.GLOAT):
        raise E.BadClaim(seat, f"{claim!r} is not a card kind")
    if claim in (CardKind.NUMBER, CardKind.GLOAT) and not obligated:
        raise E.BadClaim(seat, f"{claim.value} cards are played face-down unless obliged (L12)")
    zero_play = is_zero_play(state, seat, action)
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
    tx = Transaction(state)
    tx.mark_acted(seat)
    tx.set_hand(seat, tuple([slot for slot in hand if slot != action.slot]))
    if forced:
        # L12: face-up numbers (and zero plays) join the pile.
        tx.pile = (*state.pile, action.slot)
        tx.pile_seats = (*state.pile_seats, seat)  # its total is added once it is revealed
    elif claim is CardKind.FACE_UP:
        assert action.target is not None
        tx.lay_in_front(action.target, action.slot)  # L20: in front of its target, in no pile
    else:
        # Other action cards played for their effect go straight to the discard pile.
        tx.discard = (*state.discard, action.slot)
    to_reveal: tuple[int, ...] = (action.slot,)
    if zero_play:  # the claim "no other card is playable" is proved by the whole hand
        to_reveal += tx.hands[seat]
    tx.awaiting = AwaitFaceUp(seat, action, left, forced, zero_play)
    tx.ask(Reveal(tx.request_id(), to_reveal, "face_up"))
    return tx.freeze()


def _finish_face_up(tx: Transaction, pending: AwaitFaceUp, reveal: Reveal) -> None:
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
        tx.emit(
            Violation(seat, f"claimed {claim.value} face-up, showed {shown}", reveal.slots, faces)
        )
        return
    tx.last_player = seat  # L6: playing any card accepts the total
    if pending.forced:  # L12: the obligation is fulfilled
        tx.set_obligation(seat, False)
        tx.discard_in_front(seat)  # L20: the card in front of it goes to the discard pile
        total = tx.announced + card.value
        tx.announced = total
        tx.pile_totals = (*tx.pile_totals, total)
        tx.emit(PlayedFaceUp(seat, action.slot, card.id, claim, None, total, action.larry))
        if total > tx.limit:
            tx.emit(OverLimit(seat, total, tx.limit))
            tx.draw(seat, tx.options.penalty, "over_limit")
            if left == 1 and not action.larry:  # L22: the forgotten call costs 2 more
                tx.emit(LarryPenalty(seat))
                tx.draw(seat, tx.options.penalty, "larry")
            tx.clear_pile()  # L19: after the pick-ups, as for a doubt
            tx.turn = seat  # L12: that player starts the next round
            return
        _after_play(tx, seat, action.larry, left)
        return
    tx.emit(
        PlayedFaceUp(seat, action.slot, card.id, claim, action.target, tx.announced, action.larry)
    )
    target = action.target
    if claim is CardKind.FACE_UP:
        assert target is not None
        tx.set_obligation(target, True)
        tx.emit(ObligationPlaced(seat, target))
    elif claim is CardKind.PICK_UP_2:
        assert target is not None
        tx.draw(target, tx.options.penalty, "pick_up_2")
    elif claim is CardKind.GIVE_AWAY_1:
        assert target is not None and action.give is not None
        tx.set_hand(seat, tuple(slot for slot in tx.hands[seat] if slot != action.give))
        tx.set_hand(target, tx.hands[target] + (action.give,))
        tx.ask(Transfer(tx.request_id(), action.give, seat, target))
        tx.emit(CardGiven(seat, target, action.give))
    elif claim is CardKind.CHANGE_DIRECTION:
        tx.direction = -tx.direction
        low, high = tx.options.limits[1], tx.options.limits[0]
        tx.limit = low if tx.limit == high else high
        tx.emit(DirectionChanged(tx.direction, tx.limit))
    _after_play(tx, seat, action.larry, left)


def _accept_out(state: LarryState, seat: int) -> LarryStep:
    tx = Transaction(state)
    tx.mark_acted(seat)
    tx.emit(OutAccepted(seat))
    assert state.out_seat is not None
    tx.end_hand(state.out_seat)
    return tx.freeze()


# -- driver resolutions (checked by engine/transaction.py's resolve) -----------------------------
def _resolve(state: LarryState, seat: int, resolution: object) -> LarryStep:
    return resolve(state, seat, resolution, reveal=_resolve_reveal)


def _resolve_reveal(state: LarryState, request: Reveal, resolution: Faces) -> LarryStep:
    faces = resolution.faces
    deck_size = len(deck_of(state.options))
    if len(faces) != len(request.slots):
        raise E.BadResolution(
            E.DRIVER, f"{len(faces)} faces for {len(request.slots)} slots of request {request.id}"
        )
    for face in faces:
        if type(face) is not int or not 0 <= face < deck_size:
            raise E.BadResolution(E.DRIVER, f"faces must be card ids 0..{deck_size - 1}")
    if len(set(faces)) != len(faces):
        raise E.BadResolution(E.DRIVER, "the same card was revealed twice")
    tx = Transaction(state)
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
