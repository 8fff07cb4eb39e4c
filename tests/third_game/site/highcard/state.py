"""High card's public state: which slot each seat holds, which cards are up, whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from fairdeal.engine.requests import Request
from highcard.cards import HighCardOptions


class Phase(Enum):
    SHOWING = "showing"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class HighCardState:
    """Immutable and public. `hands[seat]` is the one slot dealt to that seat; `shown[seat]` its
    face once shown; `turn` the next seat to show; `pending` the driver's requests, in order."""

    players: int
    options: HighCardOptions
    hands: tuple[tuple[int, ...], ...]
    shown: tuple[int | None, ...]
    turn: int
    pending: tuple[Request, ...]
    next_request: int
    phase: Phase = Phase.SHOWING
    winners: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def rounds(self) -> int:
        """One game is one hand (fairdeal.engine.game.PublicState: the rounds begun)."""
        return 1

    def to_act(self) -> int | None:
        """The seat that may show now: None while requests are pending or once all are up."""
        if self.pending or self.over or self.turn >= self.players:
            return None
        return self.turn

    def all_slots(self) -> list[int]:
        return [slot for hand in self.hands for slot in hand]
