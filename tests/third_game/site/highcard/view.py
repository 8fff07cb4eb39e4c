"""What one seat sees, the actions it may take, and the bots (who have nothing to decide)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from highcard.actions import Action, Show
from highcard.rules import check_turn
from highcard.state import HighCardState

KINDS = ("random", "heuristic")  # the names simulate and the table ask for; both just show


@dataclass(frozen=True, slots=True)
class HighCardView:
    """`seat`'s view: its own card's face (once dealt), the cards shown, whose turn it is."""

    seat: int
    state: HighCardState  # public already: nothing in it is hidden from any seat
    my_face: int | None

    @property
    def to_act(self) -> int | None:
        return self.state.to_act()


def view_for(state: HighCardState, knowledge: Mapping[int, int], seat: int) -> HighCardView:
    own = state.hands[seat] if 0 <= seat < state.players else ()
    return HighCardView(seat, state, knowledge.get(own[0]) if own else None)


def check_action(view: HighCardView, action: object) -> None:
    check_turn(view.state, view.seat, action)


def legal_actions(view: HighCardView) -> tuple[Action, ...]:
    return (Show(),) if view.to_act == view.seat else ()


@dataclass
class ShowBot:
    """There is no choice in high card: a bot shows when its turn comes."""

    name: str = "show"
    pace: float = 0.0

    def choose(self, view: HighCardView) -> Action:
        return Show()


def make_bot(kind: str, rng: random.Random) -> ShowBot:
    if kind not in KINDS:
        raise ValueError(f"unknown bot {kind!r} (choose {' or '.join(KINDS)})")
    return ShowBot(kind)
