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
    """`seat`'s view: the faces it knows (its own card's, once dealt), the cards shown, whose
    turn it is."""

    seat: int
    state: HighCardState  # public already: nothing in it is hidden from any seat
    knowledge: Mapping[int, int]  # slot -> face (fairdeal.engine.game.KnowingView)

    @property
    def my_face(self) -> int | None:
        own = self.state.hands[self.seat] if 0 <= self.seat < self.state.players else ()
        return self.knowledge.get(own[0]) if own else None

    @property
    def to_act(self) -> int | None:
        return self.state.to_act()


def view_for(state: HighCardState, knowledge: Mapping[int, int], seat: int) -> HighCardView:
    return HighCardView(seat, state, dict(knowledge))


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
