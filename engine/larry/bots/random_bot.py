"""A bot that plays a random legal action.

It first picks a kind of move (doubt, face-down, face-up) and then a random action of that kind,
so the many face-down announcements do not drown the rare doubt. It forgets to call "Larry"
(L15) with probability `forget_larry`, which exercises the penalty. It is the benchmark's bot,
so the common moves are drawn directly instead of listing every legal action first.
"""

from __future__ import annotations

import random

from fairdeal.engine.larry.actions import Action, Doubt, PlayFaceDown, PlayFaceUp
from fairdeal.engine.larry.cards import CardKind, deck_of
from fairdeal.engine.larry.legal import (
    accept_actions,
    announce_floor,
    doubt_actions,
    face_up_actions,
    larry_flag,
)
from fairdeal.engine.larry.state import Phase
from fairdeal.engine.larry.view import LarryView


class RandomBot:
    name = "random"

    def __init__(self, rng: random.Random, forget_larry: float = 0.1) -> None:
        self.rng = rng
        self.forget_larry = forget_larry

    def choose(self, view: LarryView) -> Action:
        rng = self.rng
        state = view.state
        if state.phase is Phase.GOING_OUT:
            return rng.choice(doubt_actions(view) + accept_actions(view))
        seat = view.seat
        obligated = state.obligated[seat]
        # Weights: doubt 1 (with a pile), face-down 3 (unless obliged, L12), face-up 1.
        can_doubt = bool(state.pile)
        down = 0 if obligated else 3
        pick = rng.random() * (can_doubt + down + 1)
        if pick < can_doubt:
            return Doubt()
        if pick < can_doubt + down:
            return self._face_down(view)
        action = self._face_up(view) if not obligated else self._obliged(view)
        if action is not None:
            return action
        if not obligated:
            return self._face_down(view)
        if can_doubt:
            return Doubt()
        raise RuntimeError(f"seat {seat} has no legal action")  # unreachable by the rules

    def _face_down(self, view: LarryView) -> PlayFaceDown:
        hand = view.state.hands[view.seat]
        slot = hand[int(self.rng.random() * len(hand))]
        floor = announce_floor(view)
        announce = floor + int(self.rng.random() * (view.state.limit - floor + 1))
        return PlayFaceDown(slot, announce, self._larry(len(hand) - 1))

    def _face_up(self, view: LarryView) -> PlayFaceUp | None:
        """A random action card of the hand, played for its effect with random choices."""
        rng = self.rng
        state = view.state
        seat = view.seat
        hand = state.hands[seat]
        deck = deck_of(state.options)
        known = view.knowledge
        playable = []
        for slot in hand:
            kind = deck[known[slot]].kind
            if kind is CardKind.NUMBER or kind is CardKind.GLOAT:
                continue
            if kind is CardKind.GIVE_AWAY_1 and len(hand) < 3:  # L11
                continue
            playable.append((slot, kind))
        if not playable:
            return None
        slot, kind = rng.choice(playable)
        target = None
        give = None
        if kind is not CardKind.CHANGE_DIRECTION:
            target = rng.choice([other for other in range(state.players) if other != seat])
        if kind is CardKind.GIVE_AWAY_1:
            give = rng.choice([other for other in hand if other != slot])
        left = len(hand) - (2 if give is not None else 1)
        return PlayFaceUp(slot, kind, target, give, self._larry(left))

    def _obliged(self, view: LarryView) -> Action | None:
        face_up = face_up_actions(view)
        if not face_up:
            return None
        action = self.rng.choice(face_up)
        if action.larry and self.rng.random() < self.forget_larry:
            return PlayFaceUp(action.slot, action.claim, action.target, action.give)
        return action

    def _larry(self, left: int) -> bool:
        call = larry_flag(left)
        return call and self.rng.random() >= self.forget_larry
