"""What one seat of The Lie may see: the public state (every back), its own fronts, nothing else."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from fairdeal.engine.errors import IllegalAction
from fairdeal.engine.game import Knowledge
from fairdeal.engine.lie.options import LieOptions
from fairdeal.engine.lie.state import BUILD, LieState, Phase, claim_refusal
from fairdeal.engine.records import quick_init
from fairdeal.engine.view import SeatView, StateField


@quick_init
@dataclass(frozen=True, slots=True)
class LieView(SeatView):
    """The view of `seat`. Its hand lists (slot, face): it knows the fronts it claimed (T3)."""

    seat: int
    state: LieState
    knowledge: Knowledge
    # At a networked table: the slots this seat has claimed whose races are not decided yet
    # (T3). They count against the hand; a local table settles every claim at once.
    pending_claims: tuple[int, ...] = ()
    # At a networked table: this seat's placement of its unplaced card is kept for its next step
    # envelope (T3), so it is not offered again, and a claim may ride in that same step.
    placing: bool = False

    # -- public facts, as the state has them (its hand: SeatView.hand, left to right) ----------
    backs = StateField[Mapping[int, int]]()  # slot -> back, for every card in play (T1, T3)
    table = StateField[tuple[int, ...]]()
    players = StateField[int]()
    options = StateField[LieOptions]()
    phase = StateField[Phase]()
    lead_colour = StateField[int | None]()
    best = StateField[int]()
    winners = StateField[tuple[int, ...]]()

    @property
    def hand_faces(self) -> tuple[int, ...]:
        """The fronts of this seat's hand, left to right (every one is known to its owner)."""
        known = self.knowledge
        try:  # the owner knows every front of its hand (a slot in a hand is never revealed)
            return tuple([known[s] for s in self.state.hands[self.seat]])
        except KeyError:
            revealed = self.state.revealed
            return tuple([known.get(s, revealed.get(s, -1)) for s in self.state.hands[self.seat]])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple([len(hand) for hand in self.state.hands])

    @property
    def unplaced(self) -> int | None:
        """The slot this seat took and has not placed yet (T3), or None."""
        return self.state.unplaced[self.seat]

    @property
    def unplaced_face(self) -> int | None:
        """The front of the unplaced card, once it is dealt to this seat (None before)."""
        slot = self.state.unplaced[self.seat]
        return None if slot is None else self.knowledge.get(slot)

    @property
    def held(self) -> int:
        """The cards that count against the hand: placed, taken but unplaced, claims settling."""
        return self.state.held(self.seat, len(self.pending_claims))

    @property
    def room(self) -> int:
        """T3: how many more cards this seat may take, its settling claims counted."""
        return self.state.room(self.seat, len(self.pending_claims))

    @property
    def can_claim(self) -> bool:
        """T3: Phase 1, room in the hand, and the last card taken already placed
        (engine/lie/state.py `claim_refusal`)."""
        return self.claim_refusal is None

    @property
    def claim_refusal(self) -> IllegalAction | None:
        """Why this seat may not claim now, as the typed error (None: it may; T3)."""
        return claim_refusal(
            self.state, self.seat, settling=len(self.pending_claims), placing=self.placing
        )

    @property
    def can_place(self) -> bool:
        """T3: this seat took a card and knows its front: its Deal was answered and the front is
        in this seat's knowledge (so nobody, bot or app, ever places blind)."""
        state = self.state
        slot = state.unplaced[self.seat]
        return (
            slot is not None
            and not self.placing
            and state.phase is BUILD
            and slot in self.knowledge
            and (not state.pending or state.front_known(self.seat))
        )

    @property
    def my_turn(self) -> bool:
        """May this seat act now (claim or place in Phase 1, its go in Phase 2)?"""
        if self.state.phase is BUILD:
            return self.can_claim or self.can_place
        return self.state.to_act() == self.seat

    @property
    def leading(self) -> bool:
        return self.state.position == 0


def view_for(state: LieState, knowledge: Knowledge, seat: int) -> LieView:
    """The view of `seat`, given its private `knowledge` (slot -> face); a snapshot."""
    # .copy() of a dict is C speed; dict(mapping) goes key by key. One view is made per move.
    snapshot = knowledge.copy() if type(knowledge) is dict else dict(knowledge)
    return LieView(seat, state, MappingProxyType(snapshot))
