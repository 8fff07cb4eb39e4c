"""The Lie's transitions: `new_game`, and `apply(state, seat, action)` for actions and resolutions.

Phase 1 (T3): claims by any seat with room, in the order they reach `apply`; each asks the driver
to deal that slot to the claimer, and once that Deal is answered the claimer places the card at an
end of its hand (Place; the engine places a hand's first card itself). Phase 2 (T5-T7): tricks;
each play asks for a Reveal and is checked on its faces (a contradicted play is a Violation).
Rounds and the prize pile (T4, T8, T9) and scoring (T10) follow. Every transition copies the
state's field dict once and builds the next state from it (as Larry does), which keeps the hot
path cheap.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from fairdeal.engine.events import Violation
from fairdeal.engine.lie import errors as E
from fairdeal.engine.lie.actions import Claim, Pass, Place, Play, Side
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
from fairdeal.engine.lie.options import LieOptions
from fairdeal.engine.lie.state import (
    FINISHED_PHASES,
    NOTHING,
    AwaitArrange,
    AwaitPlay,
    AwaitScore,
    LieState,
    Phase,
    TrickPlay,
)
from fairdeal.engine.requests import (
    Arrange,
    Deal,
    GroupedReshuffle,
    NewGroupedDeck,
    Request,
    Reveal,
)
from fairdeal.engine.resolutions import Ack, Arrangement, Faces
from fairdeal.engine.step import Step


class _Tx:
    """One transition's working copy: the next state's fields, its events and new requests."""

    __slots__ = ("events", "requests", "v")

    def __init__(self, values: dict[str, Any]) -> None:
        self.v = values
        self.events: list[Any] = []
        self.requests: list[Request] = []

    def request_id(self) -> int:
        rid: int = self.v["next_request"]
        self.v["next_request"] = rid + 1
        return rid

    def alloc(self, count: int) -> tuple[int, ...]:
        start: int = self.v["next_slot"]
        self.v["next_slot"] = start + count
        return tuple(range(start, start + count))

    def freeze(self) -> Step:
        values = self.v
        if self.requests:
            values["pending"] = values["pending"] + tuple(self.requests)
        state = object.__new__(LieState)
        object.__setattr__(state, "__dict__", values)
        return Step(state, tuple(self.events), tuple(self.requests))


def new_game(players: int, options: LieOptions | None = None) -> Step:
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
    tx = _Tx(dict(state.__dict__))
    slots = tx.alloc(DECK_SIZE)
    backs = tuple(BACK_OF[card] for card in range(DECK_SIZE))
    tx.requests.append(NewGroupedDeck(tx.request_id(), slots, backs))
    tx.v["backs"] = MappingProxyType(dict(zip(slots, backs, strict=True)))
    _lay_out(tx, slots)
    return tx.freeze()


def _lay_out(tx: _Tx, slots: tuple[int, ...]) -> None:
    """Start Phase 1 of a round: the joint coin lays `slots` out on the table (T3)."""
    v = tx.v
    players: int = v["players"]
    v["phase"] = Phase.BUILD
    v["hands"] = ((),) * players
    v["unplaced"] = (None,) * players
    v["table"] = v["layout"] = v["prize_pile"] = v["discard"] = v["trick"] = v["order"] = ()
    v["first_done"] = v["lead_colour"] = v["best_seat"] = None
    v["trick_no"] = v["position"] = v["best"] = 0
    v["placement"] = ()
    v["revealed"] = NOTHING
    tx.events.append(RoundStarted(v["round_no"], len(slots)))
    tx.requests.append(Arrange(tx.request_id(), slots, "layout"))
    v["awaiting"] = AwaitArrange("layout")


def apply(state: LieState, seat: int, action: Any) -> Step:
    """Validate `action` by `seat` against the public state and return the next Step.

    Resolutions (Ack, Faces, Arrangement) come from the driver with seat == DRIVER. Raises an
    IllegalAction subclass naming the seat; the given state is never changed.
    """
    kind = type(action)
    if kind is Ack:  # the common answer (every claim's Deal): the shortest path
        pending = state.pending
        if seat == E.DRIVER and pending and pending[0].id == action.request:
            request = pending[0]
            request_kind = type(request)
            if request_kind is Deal and _starts_hand(state, request):  # type: ignore[arg-type]
                return _resolve(state, seat, action)
            if request_kind is not Reveal and request_kind is not Arrange:
                values = state.__dict__.copy()
                values["pending"] = pending[1:]
                next_state = object.__new__(LieState)
                object.__setattr__(next_state, "__dict__", values)
                return Step(next_state, (), ())
        return _resolve(state, seat, action)
    if kind is Faces or kind is Arrangement:
        return _resolve(state, seat, action)
    if state.phase in FINISHED_PHASES:
        raise E.GameIsOver(seat, "the game is over")
    if type(seat) is not int or not 0 <= seat < state.players:
        raise E.NoSuchSeat(seat, f"there is no seat {seat} at this table")
    if kind is Claim:
        return _claim(state, seat, action)
    if kind is Place:
        return _place_action(state, seat, action)
    if kind is Play or kind is Pass:
        if state.phase is not Phase.PLAY:
            raise E.NotPlaying(seat, "cards are played only once every hand is complete (T5)")
        if state.pending:
            raise E.WaitingForDriver(seat, "cards are still being revealed")
        turn = state.order[state.position]
        if seat != turn:
            raise E.NotYourTurn(seat, f"it is seat {turn}'s go")
        if kind is Pass:
            return _pass(state, seat)
        return _play(state, seat, action)
    raise E.UnknownAction(seat, f"{kind.__name__} is not an action of The Lie")


# -- Phase 1 ---------------------------------------------------------------------------------------
def _claim(state: LieState, seat: int, action: Claim) -> Step:
    if state.phase is not Phase.BUILD:
        raise E.NotBuilding(seat, "cards are taken from the table only in Phase 1 (T3)")
    if not state.claims_open():
        raise E.WaitingForDriver(seat, "the table is still being laid out")
    unplaced = state.unplaced
    if unplaced[seat] is not None:
        raise E.PlaceFirst(
            seat, f"place your last card (slot {unplaced[seat]}) before taking another (T3)"
        )
    hand = state.hands[seat]
    size = state.options.hand_size
    if len(hand) >= size:
        raise E.HandFull(seat, f"your hand is complete: {size} cards (T3)")
    slot = action.slot
    table = state.table
    try:
        at = table.index(slot)
    except ValueError:
        raise E.SlotTaken(seat, f"slot {slot} is not on the table (T3)") from None
    values = state.__dict__.copy()
    values["table"] = table[:at] + table[at + 1 :]
    now_unplaced = list(unplaced)
    now_unplaced[seat] = slot
    values["unplaced"] = tuple(now_unplaced)
    rid = values["next_request"]
    values["next_request"] = rid + 1
    deal = Deal(rid, seat, (slot,))
    values["pending"] = (*state.pending, deal)
    next_state = object.__new__(LieState)
    object.__setattr__(next_state, "__dict__", values)
    claimed = Claimed(seat, slot, state.backs[slot], len(hand) + 1)
    return Step(next_state, (claimed,), (deal,))


def _starts_hand(state: LieState, deal: Deal) -> bool:
    """Is `deal` the first card of its seat's hand, which the engine places itself (T3)?"""
    seat = deal.seat
    return (
        state.phase is Phase.BUILD
        and not state.hands[seat]
        and state.unplaced[seat] is not None
        and state.unplaced[seat] in deal.slots
    )


def _place_action(state: LieState, seat: int, action: Place) -> Step:
    if state.phase is not Phase.BUILD:
        raise E.NotBuilding(seat, "cards are placed in a hand only in Phase 1 (T3)")
    slot = state.unplaced[seat]
    if slot is None:
        raise E.NothingToPlace(seat, "you hold no taken card to place: take one first (T3)")
    if not state.front_known(seat):
        raise E.WaitingForDriver(
            seat, f"the front of slot {slot} is still being dealt to you: place it once seen (T3)"
        )
    side = action.side
    if side is not Side.RIGHT and side is not Side.LEFT:
        if side not in _SIDES:
            raise E.UnknownAction(seat, f"side must be left or right, not {side!r}")
        side = Side(side)
    tx = _Tx(state.__dict__.copy())
    _place(tx, seat, slot, side)
    return tx.freeze()


def _place(tx: _Tx, seat: int, slot: int, side: Side) -> None:
    """T3: `slot` goes to the far `side` of `seat`'s hand; a full hand may be "Done!"."""
    v = tx.v
    hand: tuple[int, ...] = v["hands"][seat]
    new_hand = (slot, *hand) if side is Side.LEFT else (*hand, slot)
    hands = list(v["hands"])
    hands[seat] = new_hand
    v["hands"] = tuple(hands)
    unplaced = list(v["unplaced"])
    unplaced[seat] = None
    v["unplaced"] = tuple(unplaced)
    tx.events.append(Placed(seat, slot, side))
    size: int = v["options"].hand_size
    if len(new_hand) < size:
        return
    first = v["first_done"] is None  # the first hand completed, in the order applied (T3)
    if first:
        v["first_done"] = seat
    tx.events.append(HandComplete(seat, first))
    if all(len(h) == size for h in hands):
        _end_build(tx)


_SIDES = frozenset({"left", "right"})


def _end_build(tx: _Tx) -> None:
    """T4: every hand is complete; the untaken cards become the prize pile, in a fair order."""
    v = tx.v
    remaining: tuple[int, ...] = v["table"]
    if remaining:
        tx.requests.append(Arrange(tx.request_id(), remaining, "prize_pile"))
        v["awaiting"] = AwaitArrange("prize_pile")
    else:
        _form_prize_pile(tx, ())


def _form_prize_pile(tx: _Tx, order: tuple[int, ...]) -> None:
    v = tx.v
    v["table"] = ()
    v["prize_pile"] = order
    backs = v["backs"]
    tx.events.append(PrizePileFormed(order, tuple([backs[slot] for slot in order])))
    v["phase"] = Phase.PLAY
    _start_trick(tx, v["first_done"])  # T3: the first to complete leads trick 1


# -- Phase 2 ---------------------------------------------------------------------------------------
def _start_trick(tx: _Tx, leader: int) -> None:
    v = tx.v
    players: int = v["players"]
    hands = v["hands"]
    order = []
    for step in range(players):
        seat = (leader + step) % players
        if hands[seat]:
            order.append(seat)
    v["order"] = tuple(order)
    v["position"] = 0
    v["trick"] = ()
    v["lead_colour"] = v["best_seat"] = None
    v["best"] = 0
    v["trick_no"] = trick_no = v["trick_no"] + 1
    tx.events.append(TrickStarted(trick_no, leader))


def _play(state: LieState, seat: int, action: Play) -> Step:
    slots = action.slots
    count = len(slots)
    if not 1 <= count <= 3:
        raise E.BadCombination(seat, f"play 1 to 3 cards, not {count} (T5)")
    hand = state.hands[seat]
    if slots[0] not in hand:
        raise E.CardNotInHand(seat, f"slot {slots[0]} is not in your hand")
    start = hand.index(slots[0])
    if hand[start : start + count] != slots:
        missing = [slot for slot in slots if slot not in hand]
        if missing:
            raise E.CardNotInHand(seat, f"slot {missing[0]} is not in your hand")
        raise E.NotAdjacent(
            seat, "the cards must lie side by side in your hand, named left to right (T5)"
        )
    tx = _Tx(dict(state.__dict__))
    hands = list(state.hands)
    hands[seat] = hand[:start] + hand[start + count :]  # the hand closes up (T5)
    tx.v["hands"] = tuple(hands)
    tx.requests.append(Reveal(tx.request_id(), slots, "play"))
    tx.v["awaiting"] = AwaitPlay(seat, slots)
    return tx.freeze()


def _finish_play(tx: _Tx, pending: AwaitPlay, faces: tuple[int, ...]) -> None:
    v = tx.v
    v["awaiting"] = None
    seat, slots = pending.seat, pending.slots
    fault = combination_fault(faces, v["lead_colour"], v["best"])
    if fault is not None:
        v["phase"] = Phase.ABORTED
        tx.events.append(Violation(seat, f"played {list(slots)}: {fault.reason}", slots, faces))
        return
    number = 0
    for face in faces:
        number = number * 10 + NUMBER_OF[face]
    colour = COLOUR_OF[faces[0]]
    v["trick"] = (*v["trick"], TrickPlay(seat, slots, number))
    if v["lead_colour"] is None:
        v["lead_colour"] = colour
    v["best"] = number
    v["best_seat"] = seat
    tx.events.append(Played(seat, slots, faces, colour, number))
    if not v["hands"][seat] and _went_out(tx, seat):
        return
    _advance(tx)


def _pass(state: LieState, seat: int) -> Step:
    if state.position == 0:
        raise E.MustLead(seat, "you lead this trick: play at least one card (T5)")
    tx = _Tx(dict(state.__dict__))
    tx.events.append(Passed(seat))
    _advance(tx)
    return tx.freeze()


def _advance(tx: _Tx) -> None:
    v = tx.v
    position = v["position"] + 1
    if position < len(v["order"]):
        v["position"] = position
        return
    winner: int = v["best_seat"]
    tx.events.append(TrickWon(winner, v["best"]))
    v["discard"] = v["discard"] + tuple([slot for play in v["trick"] for slot in play.slots])
    v["trick"] = ()
    hands = v["hands"]
    if hands[winner]:
        _start_trick(tx, winner)
    else:
        _start_trick(tx, _leader_after_out(v["players"], hands, v["placement"][-1]))


def _leader_after_out(players: int, hands: tuple[tuple[int, ...], ...], last_out: int) -> int:
    """T6: the most cards leads; ties go to the first of them clockwise after the last one out."""
    most = max(len(hand) for hand in hands)
    for step in range(1, players + 1):
        seat = (last_out + step) % players
        if len(hands[seat]) == most:
            return seat
    raise AssertionError("someone holds cards")


def _went_out(tx: _Tx, seat: int) -> bool:
    """T6/T7: `seat` is out; True when that ends the round."""
    v = tx.v
    placement = (*v["placement"], seat)
    v["placement"] = placement
    tx.events.append(WentOut(seat, len(placement)))
    players: int = v["players"]
    options: LieOptions = v["options"]
    if len(placement) < options.out_to_end(players):
        return False
    if players <= 3:  # T7: the one player left takes the next placement
        last = next(s for s in range(players) if s not in placement)
        placement = (*placement, last)
        v["placement"] = placement
    _end_round(tx, placement)
    return True


def _end_round(tx: _Tx, placement: tuple[int, ...]) -> None:
    v = tx.v
    options: LieOptions = v["options"]
    players: int = v["players"]
    tx.events.append(RoundEnded(v["round_no"], placement))
    counts = options.prizes_for(players)
    pile: tuple[int, ...] = v["prize_pile"]
    prizes = list(v["prizes"])
    for place, seat in enumerate(placement):
        count = counts[place] if place < len(counts) else 0
        if not count:
            continue
        taken, pile = pile[:count], pile[count:]  # T8: taken unseen, from the top
        prizes[seat] = prizes[seat] + taken
        tx.events.append(PrizesTaken(seat, place + 1, taken))
    v["prize_pile"] = pile
    v["prizes"] = tuple(prizes)
    v["discard"] = v["discard"] + tuple([slot for play in v["trick"] for slot in play.slots])
    v["trick"] = v["order"] = ()
    v["position"] = 0
    if v["round_no"] >= options.rounds:
        _end_game(tx)
        return
    _next_round(tx)


def _next_round(tx: _Tx) -> None:
    """T9: every card but the prizes won is reshuffled, each keeping its back."""
    v = tx.v
    won = {slot for seat_prizes in v["prizes"] for slot in seat_prizes}
    old_backs = v["backs"]
    old = tuple(sorted(slot for slot in old_backs if slot not in won))
    new = tx.alloc(len(old))
    backs = {slot: old_backs[slot] for slot in won}
    for new_slot, old_slot in zip(new, old, strict=True):
        backs[new_slot] = old_backs[old_slot]
    tx.requests.append(GroupedReshuffle(tx.request_id(), old, new))
    v["backs"] = MappingProxyType(backs)
    v["round_no"] = v["round_no"] + 1
    _lay_out(tx, new)


def _end_game(tx: _Tx) -> None:
    v = tx.v
    v["phase"] = Phase.SCORING
    v["revealed"] = NOTHING
    slots = tuple(slot for won in v["prizes"] for slot in won)
    if slots:
        tx.requests.append(Reveal(tx.request_id(), slots, "score"))
        v["awaiting"] = AwaitScore()
    else:
        _score(tx)


def _score(tx: _Tx) -> None:
    """T10: the front numbers of one's prizes; ties go to most prize cards, then shared."""
    v = tx.v
    v["awaiting"] = None
    revealed = v["revealed"]
    faces = tuple(tuple(revealed[slot] for slot in won) for won in v["prizes"])
    scores = tuple(sum(NUMBER_OF[face] for face in mine) for mine in faces)
    counts = tuple(len(mine) for mine in faces)
    best = max(zip(scores, counts, strict=True))
    winners = tuple(seat for seat in range(v["players"]) if (scores[seat], counts[seat]) == best)
    v["scores"] = scores
    v["winners"] = winners
    v["phase"] = Phase.GAME_OVER
    tx.events.append(GameOver(winners, scores, counts, faces))


# -- driver resolutions ----------------------------------------------------------------------------
def _resolve(state: LieState, seat: int, resolution: Any) -> Step:
    if seat != E.DRIVER:
        raise E.BadResolution(seat, "only the driver answers requests")
    pending = state.pending
    if not pending:
        raise E.BadResolution(seat, "no request is outstanding")
    request = pending[0]
    if resolution.request != request.id:
        raise E.BadResolution(
            seat, f"answer for request {resolution.request}, expected request {request.id}"
        )
    kind = type(request)
    if kind is Reveal:
        if type(resolution) is not Faces:
            raise E.BadResolution(seat, f"request {request.id} is a Reveal: answer with Faces")
        return _resolve_reveal(state, request, resolution)  # type: ignore[arg-type]
    if kind is Arrange:
        if type(resolution) is not Arrangement:
            raise E.BadResolution(
                seat, f"request {request.id} is an Arrange: answer with its order"
            )
        return _resolve_arrange(state, request, resolution)  # type: ignore[arg-type]
    if type(resolution) is not Ack:
        raise E.BadResolution(seat, f"request {request.id} is answered with Ack")
    if kind is Deal and _starts_hand(state, request):  # type: ignore[arg-type]
        tx = _Tx(dict(state.__dict__))
        tx.v["pending"] = pending[1:]
        _place(tx, request.seat, request.slots[0], Side.RIGHT)  # type: ignore[union-attr]
        return tx.freeze()
    values = dict(state.__dict__)
    values["pending"] = pending[1:]
    next_state = object.__new__(LieState)
    object.__setattr__(next_state, "__dict__", values)
    return Step(next_state, (), ())


def _resolve_reveal(state: LieState, request: Reveal, resolution: Faces) -> Step:
    faces = resolution.faces
    if len(faces) != len(request.slots):
        raise E.BadResolution(
            E.DRIVER, f"{len(faces)} faces for {len(request.slots)} slots of request {request.id}"
        )
    backs = state.backs
    for slot, face in zip(request.slots, faces, strict=True):
        if type(face) is not int or not 0 <= face < DECK_SIZE:
            raise E.BadResolution(E.DRIVER, f"faces must be card ids 0..{DECK_SIZE - 1}")
        if BACK_OF[face] != backs[slot]:
            raise E.BadResolution(E.DRIVER, f"card {face} does not have the back of slot {slot}")
    if len(set(faces)) != len(faces):
        raise E.BadResolution(E.DRIVER, "the same card was revealed twice")
    tx = _Tx(dict(state.__dict__))
    tx.v["pending"] = state.pending[1:]
    revealed = dict(state.revealed)
    revealed.update(zip(request.slots, faces, strict=True))
    tx.v["revealed"] = MappingProxyType(revealed)
    awaiting = state.awaiting
    if type(awaiting) is AwaitPlay:
        _finish_play(tx, awaiting, tuple(faces))
    elif type(awaiting) is AwaitScore:
        _score(tx)
    return tx.freeze()


def _resolve_arrange(state: LieState, request: Arrange, resolution: Arrangement) -> Step:
    order = tuple(resolution.slots)
    if sorted(order) != sorted(request.slots) or any(type(s) is not int for s in order):
        raise E.BadResolution(
            E.DRIVER, f"the arrangement must order exactly the slots of request {request.id}"
        )
    tx = _Tx(dict(state.__dict__))
    v = tx.v
    v["pending"] = state.pending[1:]
    v["awaiting"] = None
    if request.reason == "layout":
        v["layout"] = v["table"] = order
        tx.events.append(TableLaidOut(v["round_no"], order))
    else:
        _form_prize_pile(tx, order)
    return tx.freeze()
