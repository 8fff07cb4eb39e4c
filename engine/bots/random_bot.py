"""A bot that plays a random legal action.

It first picks a kind of move (doubt, face-down, face-up, accept) and then a random action of
that kind, so the many face-down announcements do not drown the rare doubt. It forgets to call
"Larry" (L15) with probability `forget_larry`, which exercises the penalty.
"""

from __future__ import annotations

import random

from engine.actions import Action, PlayFaceDown
from engine.legal import (
    accept_actions,
    announce_floor,
    doubt_actions,
    face_up_actions,
    larry_flag,
)
from engine.state import Phase
from engine.view import LarryView


class RandomBot:
    name = "random"

    def __init__(self, rng: random.Random, forget_larry: float = 0.1) -> None:
        self.rng = rng
        self.forget_larry = forget_larry

    def choose(self, view: LarryView) -> Action:
        rng = self.rng
        if view.phase is Phase.GOING_OUT:
            return rng.choice(doubt_actions(view) + accept_actions(view))
        state = view.state
        hand = state.hands[view.seat]
        options: list[str] = []
        if state.pile:
            options.append("doubt")
        if not state.obligated[view.seat]:
            options.extend(("down", "down", "down"))
        options.append("up")
        while options:
            kind = rng.choice(options)
            options = [option for option in options if option != kind]
            if kind == "doubt":
                return doubt_actions(view)[0]
            if kind == "down":
                slot = rng.choice(hand)
                announce = rng.randint(announce_floor(view), state.limit)
                return PlayFaceDown(slot, announce, self._larry(len(hand) - 1))
            face_up = face_up_actions(view)
            if face_up:
                action = rng.choice(face_up)
                if action.larry and rng.random() < self.forget_larry:
                    return type(action)(action.slot, action.claim, action.target, action.give)
                return action
        raise RuntimeError(f"seat {view.seat} has no legal action")  # unreachable by the rules

    def _larry(self, left: int) -> bool:
        call = larry_flag(left)
        return call and self.rng.random() >= self.forget_larry
