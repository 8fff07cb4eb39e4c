"""The Lie's transitions: `new_game`, and `apply(state, seat, action)` for actions and resolutions.

Phase 1 (T3): claims by any seat with room, in the order they reach `apply`; each asks the driver
to deal that slot to the claimer, and once that Deal is answered the claimer places the card at an
end of its hand (Place; the engine places a hand's first card itself). Phase 2 (T5-T7): tricks;
each play asks for a Reveal and is checked on its faces (a contradicted play is a Violation).
Rounds and the prize pile (T4, T8, T9) and scoring (T10) follow. Every transition works on a
typed copy of the state's fields (engine/lie/transaction.py, every game's idiom of
engine/transaction.py): one shallow copy and one new state per call; what a transition does not
change is shared, not copied. Whether a seat may take a card is engine/lie/state.py `claim_refusal`.
"""

from __future__ import annotations

from types import MappingProxyType

from fairdeal.engine.events import Violation
from fairdeal.engine.lie import errors as E
from fairdeal.engine.lie.actions import Action, Claim, Pass, Place, Play, Side, side_of
from fairdeal.engine.lie.cards import BACK_OF, COLOUR_OF, DECK_SIZE, NUMBER_OF
from fairdeal.engine.lie.combination import combination_fault
from fairdeal.engine.lie.events import (
    Claimed,
    GameOver,
    HandComplete,
    Passed,
    Placed,
    Played,
    PrizePileFormed,
    PrizesTaken,
    RoundEnded,
    RoundStarted,
    TableLaidOut,
    TrickStarted,
    TrickWon,
    WentOut,
)
from fairdeal.engine.lie.options import MAX_PLAYERS, LieOptions
from fairdeal.engine.lie.state import (
    BUILD,
    FINISHED_PHASES,
    NOTHING,
    PLAY,
    AwaitArrange,
    AwaitPlay,
    AwaitScore,
    LieState,
    Phase,
    TrickPlay,
    claim_refusal,
)
from fairdeal.engine.lie.transaction import LieStep, Transaction, answered
from fairdeal.engine.requests import (
    Ack,
    Arrange,
    Arrangement,
    Deal,
    Faces,
    GroupedReshuffle,
    NewGroupedDeck,
    Request,
    Resolution,
    Reveal,
)
from fairdeal.engine.step import Step
from fairdeal.engine.transaction import _new_tuple, resolve, successor


def new_game(players: int, options: LieOptions | None = None) -> LieStep:
    """A new game: round 1 lays all 96 cards out, backs up, by NewGroupedDeck and Arrange (T1)."""
    options = options or LieOptions()
    options.validate(players)
    state = LieState(
        players=players,
        options=options,
        phase=Phase.BUILD,
        round_no=1,
        backs=NOTHING,
        layout=(),
        table=(),
        hands=((),) * players,
        unplaced=(None,) * players,
        first_done=None,
        prize_pile=(),
        prizes=((),) * players,
        discard=(),
        trick_no=0,
        trick=(),
        order=(),
        position=0,
        lead_colour=None,
        best=0,
        best_seat=None,
        placement=(),
        revealed=NOTHING,
        scores=(0,) * players,
        winners=(),
        next_slot=0,
        next_request=0,
        pending=(),
        awaiting=None,
    )
    tx = Transaction(state)
    slots = tx.alloc(DECK_SIZE)
    backs = tuple(BACK_OF[card] for card in range(DECK_SIZE))
    tx.ask(NewGroupedDeck(tx.request_id(), slots, backs))
    tx.backs = MappingProxyType(dict(zip(slots, backs, strict=True)))
    _lay_out(tx, slots)
    return tx.freeze()


def _lay_out(tx: Transaction, slots: tuple[int, ...]) -> None:
    """Start Phase 1 of a round: the joint coin lays `slots` out on the table (T3)."""
    players: int = tx.players
    tx.phase = Phase.BUILD
    tx.hands = ((),) * players
    tx.unplaced = (None,) * players
    tx.table = tx.layout = tx.prize_pile = tx.discard = tx.trick = tx.order = ()
    tx.first_done = tx.lead_colour = tx.best_seat = None
    tx.trick_no = tx.position = tx.best = 0
    tx.placement = ()
    tx.revealed = NOTHING
    tx.emit(RoundStarted(tx.round_no, len(slots)))
    tx.ask(Arrange(tx.request_id(), slots, "layout"))
    tx.awaiting = AwaitArrange("layout")


def apply(state: LieState, seat: int, action: Action | Resolution) -> LieStep:
    """Validate `action` by `seat` against the public state and return the next Step.

    Resolutions (Ack, Faces, Arrangement) come from the driver with seat == DRIVER. Raises an
    IllegalAction subclass naming the seat; the given state is never changed.
    """
    # One type() and `is` tests (an apply is made about 800 times a game); each branch's assert
    # only tells the type checker what the test found.
    kind = type(action)
    if kind is Ack:  # the common answer (every claim's Deal): the shortest path
        assert isinstance(action, Ack)
        pending = state.pending
        if seat == E.DRIVER and pending and pending[0].id == action.request:
            request = pending[0]
            request_kind = type(request)
            if request_kind is Deal:
                assert isinstance(request, Deal)
                # `_starts_hand` written out: a game answers about 150 Deals.
                dealt = request.seat
                if (
                    not state.hands[dealt]
                    and state.phase is BUILD
                    and state.unplaced[dealt] is not None
                    and state.unplaced[dealt] in request.slots
                ):
                    return _place_first(state, request)
                return answered(state)
            if request_kind is not Reveal and request_kind is not Arrange:
                return answered(state)
        return _resolve(state, seat, action)
    if kind is Faces:  # a play's reveal, checked by the same tests as `resolve` makes
        assert isinstance(action, Faces)
        pending = state.pending
        if seat == E.DRIVER and pending and pending[0].id == action.request:
            request = pending[0]
            if type(request) is Reveal:
                assert isinstance(request, Reveal)
                return _resolve_reveal(state, request, action)
        return _resolve(state, seat, action)
    if kind is Arrangement:
        return _resolve(state, seat, action)
    if state.phase in FINISHED_PHASES:
        raise E.GameIsOver(seat, "the game is over")
    if type(seat) is not int or not 0 <= seat < state.players:
        raise E.NoSuchSeat(seat, f"there is no seat {seat} at this table")
    if kind is Claim:
        assert isinstance(action, Claim)
        return _claim(state, seat, action)
    if kind is Place:
        assert isinstance(action, Place)
        return _place_action(state, seat, action)
    if kind is Play or kind is Pass:
        if state.phase is not PLAY:
            raise E.NotPlaying(seat, "cards are played only once every hand is complete (T5)")
        if state.pending:
            raise E.WaitingForDriver(seat, "cards are still being revealed")
        turn = state.order[state.position]
        if seat != turn:
            raise E.NotYourTurn(seat, f"it is seat {turn}'s go")
        if kind is Pass:
            return _pass(state, seat)
        assert isinstance(action, Play)
        return _play(state, seat, action)
    raise E.UnknownAction(seat, f"{kind.__name__} is not an action of The Lie")


# -- Phase 1 ---------------------------------------------------------------------------------------
def _claim(state: LieState, seat: int, action: Claim) -> LieStep:
    unplaced = state.unplaced
    hand = state.hands[seat]
    # Plainly allowed (Phase 1, nothing outstanding, nothing to place, room in the hand: the
    # commonest claim), or else T3's one rule says why not, or that it may
    # (engine/lie/state.py `claim_refusal`).
    if (
        state.phase is not BUILD
        or state.pending
        or unplaced[seat] is not None
        or len(hand) >= state.options.hand_size
    ):
        refusal = claim_refusal(state, seat)
        if refusal is not None:
            raise refusal
    slot = action.slot
    table = state.table
    try:
        at = table.index(slot)
    except ValueError:
        raise E.SlotTaken(seat, f"slot {slot} is not on the table (T3)") from None
    # Only the table, this seat's unplaced card and the requests change: the rest is shared.
    # Written out (no Transaction, no helper calls): a game has about 150 claims.
    new_state, values = successor(state)
    values["table"] = table[:at] + table[at + 1 :]
    now_unplaced = list(unplaced)
    now_unplaced[seat] = slot
    values["unplaced"] = tuple(now_unplaced)
    rid = state.next_request
    values["next_request"] = rid + 1
    requests = (Deal(rid, seat, (slot,)),)
    values["pending"] = state.pending + requests
    events = (Claimed(seat, slot, state.backs[slot], len(hand) + 1),)
    return _new_tuple(Step, (new_state, events, requests))


def _starts_hand(state: LieState, deal: Deal) -> bool:
    """Is `deal` the first card of its seat's hand, which the engine places itself (T3)?"""
    seat = deal.seat
    return (
        state.phase is BUILD
        and not state.hands[seat]
        and state.unplaced[seat] is not None
        and state.unplaced[seat] in deal.slots
    )


def _place_action(state: LieState, seat: int, action: Place) -> LieStep:
    if state.phase is not BUILD:
        raise E.NotBuilding(seat, "cards are placed in a hand only in Phase 1 (T3)")
    slot = state.unplaced[seat]
    if slot is None:
        raise E.NothingToPlace(seat, "you hold no taken card to place: take one first (T3)")
    if state.pending and not state.front_known(seat):
        raise E.WaitingForDriver(
            seat, f"the front of slot {slot} is still being dealt to you: place it once seen (T3)"
        )
    side = action.side
    if side is not _RIGHT and side is not _LEFT:
        side = side_of(seat, side)
    hand = state.hands[seat]
    if len(hand) + 1 < state.options.hand_size:  # the hand is not complete yet: the commonest
        new_state, values = successor(state)
        _place_in_hand(state, values, seat, slot, side)
        return _new_tuple(Step, (new_state, (Placed(seat, slot, side),), ()))
    tx = Transaction(state)
    _place(tx, seat, slot, side)
    return tx.freeze()


def _place_in_hand(
    state: LieState, values: dict[str, object], seat: int, slot: int, side: Side
) -> None:
    """`_place` for a hand that stays incomplete: only the hands and the unplaced cards change."""
    hands = list(state.hands)
    hand = hands[seat]
    hands[seat] = (slot, *hand) if side is _LEFT else (*hand, slot)
    values["hands"] = tuple(hands)
    unplaced = list(state.unplaced)
    unplaced[seat] = None
    values["unplaced"] = tuple(unplaced)


def _place(tx: Transaction, seat: int, slot: int, side: Side) -> None:
    """T3: `slot` goes to the far `side` of `seat`'s hand; a full hand may be "Done!"."""
    # The setters of engine/lie/transaction.py written out: a game places about 140 cards.
    hands = list(tx.hands)
    hand = hands[seat]
    new_hand = hands[seat] = (slot, *hand) if side is _LEFT else (*hand, slot)
    tx.hands = tuple(hands)
    unplaced = list(tx.unplaced)
    unplaced[seat] = None
    tx.unplaced = tuple(unplaced)
    tx.events = (*tx.events, Placed(seat, slot, side))
    size = tx.options.hand_size
    if len(new_hand) < size:
        return
    first = tx.first_done is None  # the first hand completed, in the order applied (T3)
    if first:
        tx.first_done = seat
    tx.emit(HandComplete(seat, first))
    if all(len(h) == size for h in tx.hands):
        _end_build(tx)


_LEFT, _RIGHT = Side.LEFT, Side.RIGHT  # module constants: an enum member's lookup costs 0.1 µs


def _end_build(tx: Transaction) -> None:
    """T4: every hand is complete; the untaken cards become the prize pile, in a fair order."""
    remaining: tuple[int, ...] = tx.table
    if remaining:
        tx.ask(Arrange(tx.request_id(), remaining, "prize_pile"))
        tx.awaiting = AwaitArrange("prize_pile")
    else:
        _form_prize_pile(tx, ())


def _form_prize_pile(tx: Transaction, order: tuple[int, ...]) -> None:
    tx.table = ()
    tx.prize_pile = order
    backs = tx.backs
    tx.emit(PrizePileFormed(order, tuple([backs[slot] for slot in order])))
    tx.phase = Phase.PLAY
    first_done = tx.first_done
    assert first_done is not None, "every hand is complete, so one was first"
    _start_trick(tx, first_done)  # T3: the first to complete leads trick 1


# -- Phase 2 ---------------------------------------------------------------------------------------
def _start_trick(tx: Transaction, leader: int) -> None:
    players: int = tx.players
    hands = tx.hands
    order = []
    for step in range(players):
        seat = (leader + step) % players
        if hands[seat]:
            order.append(seat)
    tx.order = tuple(order)
    tx.position = 0
    tx.trick = ()
    tx.lead_colour = tx.best_seat = None
    tx.best = 0
    tx.trick_no = trick_no = tx.trick_no + 1
    tx.emit(TrickStarted(trick_no, leader))


def _play(state: LieState, seat: int, action: Play) -> LieStep:
    slots = action.slots
    count = len(slots)
    if not 1 <= count <= 3:
        raise E.BadCombination(seat, f"play 1 to 3 cards, not {count} (T5)")
    hand = state.hands[seat]
    try:
        start = hand.index(slots[0])
    except ValueError:
        raise E.CardNotInHand(seat, f"slot {slots[0]} is not in your hand") from None
    if hand[start : start + count] != slots:
        missing = [slot for slot in slots if slot not in hand]
        if missing:
            raise E.CardNotInHand(seat, f"slot {missing[0]} is not in your hand")
        raise E.NotAdjacent(
            seat, "the cards must lie side by side in your hand, named left to right (T5)"
        )
    new_state, values = successor(state)
    hands = list(state.hands)
    hands[seat] = hand[:start] + hand[start + count :]  # the hand closes up (T5)
    values["hands"] = tuple(hands)
    rid = state.next_request  # Reveal(tx.request_id(), …) asked, written out as in _claim
    values["next_request"] = rid + 1
    requests = (Reveal(rid, slots, "play"),)
    values["pending"] = state.pending + requests
    values["awaiting"] = AwaitPlay(seat, slots)
    return _new_tuple(Step, (new_state, (), requests))


def _finish_play(tx: Transaction, pending: AwaitPlay, faces: tuple[int, ...]) -> None:
    tx.awaiting = None
    seat, slots = pending.seat, pending.slots
    fault = combination_fault(faces, tx.lead_colour, tx.best)
    if fault is not None:
        tx.phase = Phase.ABORTED
        tx.emit(Violation(seat, f"played {list(slots)}: {fault.reason}", slots, faces))
        return
    number = 0
    for face in faces:
        number = number * 10 + NUMBER_OF[face]
    colour = COLOUR_OF[faces[0]]
    tx.trick = (*tx.trick, TrickPlay(seat, slots, number))
    if tx.lead_colour is None:
        tx.lead_colour = colour
    tx.best = number
    tx.best_seat = seat
    tx.emit(Played(seat, slots, faces, colour, number))
    if not tx.hands[seat] and _went_out(tx, seat):
        return
    _advance(tx)


def _pass(state: LieState, seat: int) -> LieStep:
    if state.position == 0:
        raise E.MustLead(seat, "you lead this trick: play at least one card (T5)")
    position = state.position + 1
    if position < len(state.order):  # `_advance` when the trick goes on, written out
        new_state, values = successor(state)
        values["position"] = position
        return _new_tuple(Step, (new_state, _PASSED[seat], ()))
    tx = Transaction(state)
    tx.events = _PASSED[seat]
    _advance(tx)
    return tx.freeze()


# Each seat's one-event tuple of a pass, made once: events are immutable, and a game has ~125.
_PASSED = tuple((Passed(seat),) for seat in range(MAX_PLAYERS))


def _advance(tx: Transaction) -> None:
    position = tx.position + 1
    if position < len(tx.order):
        tx.position = position
        return
    winner = tx.best_seat
    assert winner is not None, "a trick is led with a play, so someone holds it"
    tx.emit(TrickWon(winner, tx.best))
    tx.discard = tx.discard + tuple([slot for play in tx.trick for slot in play.slots])
    tx.trick = ()
    hands = tx.hands
    if hands[winner]:
        _start_trick(tx, winner)
    else:
        _start_trick(tx, _leader_after_out(tx.players, hands, tx.placement[-1]))


def _leader_after_out(players: int, hands: tuple[tuple[int, ...], ...], last_out: int) -> int:
    """T6: the most cards leads; ties go to the first of them clockwise after the last one out."""
    most = max(len(hand) for hand in hands)
    for step in range(1, players + 1):
        seat = (last_out + step) % players
        if len(hands[seat]) == most:
            return seat
    raise AssertionError("someone holds cards")


def _went_out(tx: Transaction, seat: int) -> bool:
    """T6/T7: `seat` is out; True when that ends the round."""
    placement = (*tx.placement, seat)
    tx.placement = placement
    tx.emit(WentOut(seat, len(placement)))
    players: int = tx.players
    options: LieOptions = tx.options
    if len(placement) < options.out_to_end(players):
        return False
    if players <= 3:  # T7: the one player left takes the next placement
        last = next(s for s in range(players) if s not in placement)
        placement = (*placement, last)
        tx.placement = placement
    _end_round(tx, placement)
    return True


def _end_round(tx: Transaction, placement: tuple[int, ...]) -> None:
    options: LieOptions = tx.options
    players: int = tx.players
    tx.emit(RoundEnded(tx.round_no, placement))
    counts = options.prizes_for(players)
    pile: tuple[int, ...] = tx.prize_pile
    prizes = list(tx.prizes)
    for place, seat in enumerate(placement):
        count = counts[place] if place < len(counts) else 0
        if not count:
            continue
        taken, pile = pile[:count], pile[count:]  # T8: taken unseen, from the top
        prizes[seat] = prizes[seat] + taken
        tx.emit(PrizesTaken(seat, place + 1, taken))
    tx.prize_pile = pile
    tx.prizes = tuple(prizes)
    tx.discard = tx.discard + tuple([slot for play in tx.trick for slot in play.slots])
    tx.trick = tx.order = ()
    tx.position = 0
    if tx.round_no >= options.rounds:
        _end_game(tx)
        return
    _next_round(tx)


def _next_round(tx: Transaction) -> None:
    """T9: every card but the prizes won is reshuffled, each keeping its back."""
    won = {slot for seat_prizes in tx.prizes for slot in seat_prizes}
    old_backs = tx.backs
    old = tuple(sorted(slot for slot in old_backs if slot not in won))
    new = tx.alloc(len(old))
    backs = {slot: old_backs[slot] for slot in won}
    for new_slot, old_slot in zip(new, old, strict=True):
        backs[new_slot] = old_backs[old_slot]
    tx.ask(GroupedReshuffle(tx.request_id(), old, new))
    tx.backs = MappingProxyType(backs)
    tx.round_no = tx.round_no + 1
    _lay_out(tx, new)


def _end_game(tx: Transaction) -> None:
    tx.phase = Phase.SCORING
    tx.revealed = NOTHING
    slots = tuple(slot for won in tx.prizes for slot in won)
    if slots:
        tx.ask(Reveal(tx.request_id(), slots, "score"))
        tx.awaiting = AwaitScore()
    else:
        _score(tx)


def _score(tx: Transaction) -> None:
    """T10: the front numbers of one's prizes; ties go to most prize cards, then shared."""
    tx.awaiting = None
    revealed = tx.revealed
    faces = tuple(tuple(revealed[slot] for slot in won) for won in tx.prizes)
    scores = tuple(sum(NUMBER_OF[face] for face in mine) for mine in faces)
    counts = tuple(len(mine) for mine in faces)
    best = max(zip(scores, counts, strict=True))
    winners = tuple(seat for seat in range(tx.players) if (scores[seat], counts[seat]) == best)
    tx.scores = scores
    tx.winners = winners
    tx.phase = Phase.GAME_OVER
    tx.emit(GameOver(winners, scores, counts, faces))


# -- driver resolutions (checked by engine/transaction.py's resolve) -------------------------------
def _resolve(state: LieState, seat: int, resolution: Action | Resolution) -> LieStep:
    return resolve(
        state, seat, resolution, reveal=_resolve_reveal, arrange=_resolve_arrange, ack=_served
    )


def _served(state: LieState, request: Request) -> LieStep:
    """An Ack: a Deal that starts a hand places its card (T3); any other request is served."""
    if type(request) is Deal and _starts_hand(state, request):
        return _place_first(state, request)
    return answered(state)


def _place_first(state: LieState, deal: Deal) -> LieStep:
    """T3: the first card of a hand is placed by the engine once its Deal is answered."""
    seat, slot = deal.seat, deal.slots[0]
    if state.options.hand_size > 1:  # the hand stays incomplete (see `_place_action`)
        new_state, values = successor(state)
        values["pending"] = state.pending[1:]
        _place_in_hand(state, values, seat, slot, _RIGHT)
        return _new_tuple(Step, (new_state, (Placed(seat, slot, _RIGHT),), ()))
    tx = Transaction(state)
    tx.pending = state.pending[1:]
    _place(tx, seat, slot, _RIGHT)
    return tx.freeze()


def _resolve_reveal(state: LieState, request: Reveal, resolution: Faces) -> LieStep:
    faces = resolution.faces
    if len(faces) != len(request.slots):
        raise E.BadResolution(
            E.DRIVER, f"{len(faces)} faces for {len(request.slots)} slots of request {request.id}"
        )
    # .copy() copies the proxy's dict at C speed; dict(proxy) goes key by key (3 µs for 24).
    # A LieState's mappings are always proxies (LieState.__post_init__, the transitions).
    shown = state.revealed
    revealed = shown.copy() if isinstance(shown, MappingProxyType) else dict(shown)
    backs = state.backs
    slots = request.slots
    # The lengths are equal (above): zip without strict=, whose keyword makes the call slower.
    for slot, face in zip(slots, faces):  # noqa: B905
        if type(face) is not int or not 0 <= face < DECK_SIZE:
            raise E.BadResolution(E.DRIVER, f"faces must be card ids 0..{DECK_SIZE - 1}")
        if BACK_OF[face] != backs[slot]:
            raise E.BadResolution(E.DRIVER, f"card {face} does not have the back of slot {slot}")
        revealed[slot] = face  # a copy: the state before keeps its own
    if len(faces) > 1 and len(set(faces)) != len(faces):
        raise E.BadResolution(E.DRIVER, "the same card was revealed twice")
    awaiting = state.awaiting
    if type(awaiting) is AwaitPlay:
        step = _play_goes_on(state, awaiting, tuple(faces), revealed)
        if step is not None:
            return step
    tx = Transaction(state)
    tx.pending = state.pending[1:]
    tx.revealed = MappingProxyType(revealed)
    if type(awaiting) is AwaitPlay:
        _finish_play(tx, awaiting, tuple(faces))
    elif type(awaiting) is AwaitScore:
        _score(tx)
    return tx.freeze()


def _play_goes_on(
    state: LieState, awaiting: AwaitPlay, faces: tuple[int, ...], revealed: dict[int, int]
) -> LieStep | None:
    """`_finish_play` for the commonest reveal: a sound play that neither empties the hand nor
    ends the trick (the next seat has its go). None for every other reveal (the general path)."""
    seat, slots = awaiting.seat, awaiting.slots
    position = state.position + 1
    if (
        position >= len(state.order)
        or not state.hands[seat]
        or combination_fault(faces, state.lead_colour, state.best) is not None
    ):
        return None
    number = 0
    for face in faces:
        number = number * 10 + NUMBER_OF[face]
    colour = COLOUR_OF[faces[0]]
    new_state, values = successor(state)
    values["pending"] = state.pending[1:]
    values["revealed"] = MappingProxyType(revealed)
    values["awaiting"] = None
    values["trick"] = (*state.trick, TrickPlay(seat, slots, number))
    if state.lead_colour is None:
        values["lead_colour"] = colour
    values["best"] = number
    values["best_seat"] = seat
    values["position"] = position
    return _new_tuple(Step, (new_state, (Played(seat, slots, faces, colour, number),), ()))


_INT_ONLY = frozenset({int})


def _resolve_arrange(state: LieState, request: Arrange, resolution: Arrangement) -> LieStep:
    order = tuple(resolution.slots)
    # The types as a set (C speed), not a generator over up to 96 slots: five arrangements a round.
    if sorted(order) != sorted(request.slots) or not set(map(type, order)) <= _INT_ONLY:
        raise E.BadResolution(
            E.DRIVER, f"the arrangement must order exactly the slots of request {request.id}"
        )
    tx = Transaction(state)
    tx.pending = state.pending[1:]
    tx.awaiting = None
    if request.reason == "layout":
        tx.layout = tx.table = order
        tx.emit(TableLaidOut(tx.round_no, order))
    else:
        _form_prize_pile(tx, order)
    return tx.freeze()
