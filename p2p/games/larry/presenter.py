"""What Larry's engine events mean at a table: one translation for every front end.

The local table, replay and the audit ask this presenter (through p2p.table.core.presenter) what a
doubt opened, where a hand begins and how the game stands, so that none of them looks inside
Larry's events or state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fairdeal.engine.larry import LarryOptions, LarryState
from fairdeal.engine.larry.events import Doubted, DoubtResolved, HandStarted, Reshuffled
from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.p2p.table.core.api import ProofStatus, SetupProgress, TableEvent, VerifiedCard
from fairdeal.p2p.table.core.presenter import Mark, Presenter, shuffled


class LarryPresenter(Presenter[LarryState]):
    round_name = "hand"

    def mark(self, event: object) -> Mark | None:
        return Mark.ROUND if isinstance(event, HandStarted) else None

    def opens_verification(self, event: object) -> bool:
        return isinstance(event, Doubted)  # its pile is opened and verified (L9)

    def table_events(
        self,
        event: object,
        before: LarryState | None,
        after: LarryState,
        proof: ProofStatus,
        me: int,
        knowledge: Mapping[int, int],
        players: int,
    ) -> tuple[TableEvent, ...]:
        """A new hand's deck shuffled by every seat and dealt (L3); a reshuffle (L14); a
        doubt's pile opened (L9)."""
        if isinstance(event, DoubtResolved) and before is not None:
            return (doubt_verification(event, pile_of(before), before.pile_totals, proof),)
        if isinstance(event, Reshuffled):
            return (SetupProgress("reshuffle", None, 1, 1, 0),)
        if isinstance(event, HandStarted):
            return (*shuffled(players), SetupProgress("deal", None, players, players, 0))
        return ()

    def standing(self, state: LarryState) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        """The hands scored and the running totals (L17); the leaders once a hand is scored."""
        hands = state.hand_no if state.over else state.hand_no - 1
        scores = state.scores
        best = max(scores)
        leaders = tuple(s for s, score in enumerate(scores) if score == best) if hands else ()
        return hands, scores, leaders

    def join_terms_fault(self, options: object) -> str | None:
        """protocol.md 10.1: every seat joins with first_seat 0; the joint coin picks it (L5)."""
        if not isinstance(options, LarryOptions) or options.first_seat == 0:
            return None
        return f"the join's first_seat is {options.first_seat}, not 0"


PileCard = tuple[int, int, bool]  # (slot, the seat that played it, whether it lay face up)


def pile_of(state: LarryState) -> tuple[PileCard, ...]:
    """The pile as it lies in `state`, card by card."""
    return tuple(
        (slot, seat, slot in state.revealed)
        for slot, seat in zip(state.pile, state.pile_seats, strict=True)
    )


def doubt_verification(
    event: DoubtResolved, pile: Sequence[PileCard], said: Sequence[int], proof: ProofStatus
) -> DoubtVerification:
    """L9/L16: the pile as it lay before the doubt, card by card (who played it, whether it lay
    face up), with the faces the doubt revealed and their proofs; `said`, the total announced
    with each card; the true total and the verdict."""
    cards = tuple(
        VerifiedCard(slot, seat, face, face_up, proof)
        for (slot, seat, face_up), face in zip(pile, event.cards, strict=True)
    )
    return DoubtVerification(
        doubter=event.doubter,
        last_player=event.last_player,
        cards=cards,
        announced=event.announced,
        true_total=event.total,
        gloats=event.gloats,
        correct=event.correct,
        loser=event.loser,
        said=tuple(said) if len(said) == len(cards) else (),
    )


PRESENTER = LarryPresenter()
