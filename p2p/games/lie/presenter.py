"""What The Lie's engine events mean at a table: one translation for every front end.

The local table, the networked table (p2p/games/lie/table.py), replay, simulate and the audit
ask this presenter (through p2p.table.core.presenter) which fronts an event opened, where a round or
a trick begins, how the game stands and which figures a simulation reports, so that none of them
looks inside The Lie's events or state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairdeal.engine.lie.events import Claimed, GameOver, Played, RoundStarted, TrickStarted
from fairdeal.engine.lie.state import LieState
from fairdeal.p2p.table.core.api import CardsVerified, ProofStatus, TableEvent, VerifiedCard
from fairdeal.p2p.table.core.presenter import Mark, Presenter, shuffled
from fairdeal.p2p.table.runtime.latency import latency


class LiePresenter(Presenter[LieState]):
    round_name = "round"  # T9

    def mark(self, event: object) -> Mark | None:
        if isinstance(event, RoundStarted):
            return Mark.ROUND
        if isinstance(event, TrickStarted):
            return Mark.TRICK
        return None

    def table_events(
        self,
        event: object,
        before: LieState | None,
        after: LieState,
        proof: ProofStatus,
        me: int,
        knowledge: Mapping[int, int],
        players: int,
    ) -> tuple[TableEvent, ...]:
        """A round's deck shuffled by every seat; the fronts as the fair deck opens them: a
        claim's to its claimer only (T3), a play's to all (T5), every seat's prizes at the end
        of the game (T10)."""
        if self.mark(event) is Mark.ROUND:
            return shuffled(players)
        if isinstance(event, Claimed):
            face = knowledge.get(event.slot)
            if event.seat != me or face is None:
                return ()
            return (self.claimed_card(event.slot, me, face, proof),)
        return self.shown_cards(event, after.prizes, proof)

    def claimed_card(self, slot: int, seat: int, face: int, proof: ProofStatus) -> CardsVerified:
        """The front a claim dealt to `seat`, this seat: nobody else sees it (T3)."""
        return CardsVerified("claim", seat, (VerifiedCard(slot, seat, face, False, proof),))

    def shown_cards(
        self, event: object, prizes: Sequence[Sequence[int]], proof: ProofStatus
    ) -> tuple[CardsVerified, ...]:
        """The fronts an event shows everyone: a combination played (T5), every seat's prizes
        at the end of the game (T10; `prizes`: each seat's prize slots, the state's); none for
        any other event."""
        if isinstance(event, Played):
            pairs = zip(event.slots, event.cards, strict=True)
            cards = tuple(VerifiedCard(slot, event.seat, face, True, proof) for slot, face in pairs)
            return (CardsVerified("play", event.seat, cards),)
        if not isinstance(event, GameOver):
            return ()
        shown: list[CardsVerified] = []
        for seat, (slots, faces) in enumerate(zip(prizes, event.prizes, strict=True)):
            if slots:
                pairs = zip(slots, faces, strict=True)
                cards = tuple(VerifiedCard(s, seat, face, True, proof) for s, face in pairs)
                shown.append(CardsVerified("prizes", seat, cards))
        return tuple(shown)

    def rounds(self, state: LieState) -> int:
        return state.round_no

    def standing(self, state: LieState) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        """The rounds played and, per seat, the prize cards won so far: their points stay unseen
        until the game ends (T8), so only a finished game has leaders (T10)."""
        rounds = state.round_no if state.over else state.round_no - 1
        if state.over and state.winners:
            return rounds, state.scores, state.winners
        return rounds, tuple(len(won) for won in state.prizes), ()

    def figures(
        self, first: Mapping[str, Any], results: Sequence[Mapping[str, Any]]
    ) -> dict[str, Any]:
        """Claim latency (median is the p50), Phase 1's steps (in all and per round), ties and
        void claims (every peer counts the same ones: they follow one log), and Phase 1's
        envelopes per card taken (protocol.md 10.11)."""
        counters = first.get("counters", {})
        claims = [x for r in results for x in r.get("claim_latencies", [])]
        steps = counters.get("steps", 0)
        per_round = [v for k, v in sorted(counters.items()) if k.startswith("steps_round_")]
        taken = counters.get("cards_taken", 0)
        seats = len(results)
        return {
            "rounds": first["hands"],
            "claim_latency_ms": latency(claims),
            "steps": steps,
            "steps_per_round": per_round,
            "ties": counters.get("ties", 0),
            "void_claims": counters.get("void_claims", 0),
            "cards_taken": taken,
            "envelopes_per_card": round(steps * seats / taken, 2) if taken else None,
        }


PRESENTER = LiePresenter()
