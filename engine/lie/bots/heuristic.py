"""A bot of The Lie that builds same-colour runs and spends them well, on its view only.

- Phase 1: for each back on the table (16 at most, so a claim costs little) and each end of its
  hand, the chance that the hidden front continues the colour at that end (T1: a back of that
  colour hides it 3 times in 6, any other back once in 6), plus a little for high numbers (more
  at a difficulty, as a person values them: PacedBot.number_weight); it
  takes the best card (at a difficulty, PacedBot.play_at, one of the good ones at random, the
  better the likelier, so bots at one table do not all reach for the same card). Once it sees
  the front (T3) it places it where it extends a run of its colour (the higher number first
  where both ends match), else at the end of the longer run:
  the shorter run is the one an extension still helps (T5 plays at most 3 cards; measured,
  this wins about 2 points more of games against random bots than the other end).
- Phase 2: leading, it plays its longest run (3 cards make the biggest numbers), highest first;
  following, it plays when it can, preferring plays that do not break a longer run and, among
  those, the most cards (going out early places first). It passes only when nothing is legal.
"""

from __future__ import annotations

import math

from fairdeal.engine.lie.actions import Action, Claim, Pass, Place, Play, Side
from fairdeal.engine.lie.bots.paced import PacedBot
from fairdeal.engine.lie.cards import BACKS, COLOUR_OF, NUMBER_OF, fronts_behind
from fairdeal.engine.lie.combination import combination_fault, number_of
from fairdeal.engine.lie.legal import combinations
from fairdeal.engine.lie.state import BUILD
from fairdeal.engine.lie.view import LieView

# Per back and colour: the chance the front has that colour, and the mean number if it has.
_MATCH: tuple[tuple[float, ...], ...] = tuple(
    tuple(sum(c == colour for c, _ in fronts_behind(back)) / 6 for colour in range(4))
    for back in range(BACKS)
)
_MEAN_NUMBER: tuple[float, ...] = tuple(
    sum(n for _, n in fronts_behind(back)) / 6 for back in range(BACKS)
)


class HeuristicBot(PacedBot):
    name = "heuristic"

    def choose(self, view: LieView) -> Action:
        if view.state.phase is BUILD:
            if view.can_place:
                return self._place(view)
            return self._claim(view)
        return self._play(view)

    # -- Phase 1 -----------------------------------------------------------------------------
    def _claim(self, view: LieView) -> Claim:
        faces = view.hand_faces
        backs = view.backs
        first_of: dict[int, int] = {}
        for slot in view.table:
            first_of.setdefault(backs[slot], slot)
        if not faces:
            if self.spread:
                return self._spread_claim(
                    view, {b: _MEAN_NUMBER[b] * self.number_weight for b in first_of}
                )
            back = max(first_of, key=lambda b: (_MEAN_NUMBER[b], -b))
            return Claim(first_of[back])
        ends = {COLOUR_OF[faces[0]], COLOUR_OF[faces[-1]]}
        scores: dict[int, float] = {}
        best: tuple[float, int] | None = None
        for back, slot in first_of.items():
            match = _MATCH[back]
            score = max(match[colour] for colour in ends) + _MEAN_NUMBER[back] * self.number_weight
            scores[back] = score
            if best is None or score > best[0]:
                best = (score, slot)
        assert best is not None
        if self.spread:
            return self._spread_claim(view, scores)
        return Claim(best[1])

    def _spread_claim(self, view: LieView, scores: dict[int, float]) -> Claim:
        """A back drawn with weight exp((score - best) / spread), so the best is likeliest, one
        nearly as good nearly as likely, a poor one seldom; then any card of that back, so two
        bots that want one back seldom reach for the same card."""
        top = max(scores.values())
        backs = sorted(scores)
        weights = [math.exp((scores[back] - top) / self.spread) for back in backs]
        point = self.rng.random() * sum(weights)
        chosen = backs[-1]
        for back, weight in zip(backs, weights, strict=True):
            point -= weight
            if point < 0:
                chosen = back
                break
        slots = [slot for slot in view.table if view.backs[slot] == chosen]
        return Claim(slots[self.rng.randrange(len(slots))])

    def _place(self, view: LieView) -> Place:
        """T3: the front is known now; put it where it extends a run of its colour."""
        face = view.unplaced_face
        faces = view.hand_faces
        assert face is not None and faces, "the engine places a hand's first card"
        colour = COLOUR_OF[face]
        left, right = faces[0], faces[-1]
        on_left, on_right = COLOUR_OF[left] == colour, COLOUR_OF[right] == colour
        if on_left and on_right:  # a run reads left to right: the higher digit goes first
            return Place(Side.LEFT if NUMBER_OF[face] >= NUMBER_OF[left] else Side.RIGHT)
        if on_left or on_right:
            return Place(Side.LEFT if on_left else Side.RIGHT)
        runs = _run_lengths(faces)
        return Place(Side.LEFT if runs[0] > runs[-1] else Side.RIGHT)

    # -- Phase 2 -----------------------------------------------------------------------------
    def _play(self, view: LieView) -> Action:
        runs = combinations(view)
        slots = view.state.hands[view.seat]
        faces = view.hand_faces
        lead, best = view.lead_colour, view.best
        candidates = [
            (run_slots, run_faces)
            for run_slots, run_faces in runs
            if combination_fault(run_faces, lead, best) is None
        ]
        if not candidates:
            return Pass()
        run_length = _run_lengths(faces)
        index = {slot: i for i, slot in enumerate(slots)}

        def score(entry: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[int, int, int]:
            run_slots, run_faces = entry
            start = index[run_slots[0]]
            breaks = int(len(run_slots) < min(3, run_length[start]))
            return (-breaks if not view.leading else 0, len(run_slots), number_of(run_faces))

        chosen = max(candidates, key=score)
        return Play(chosen[0])


def _run_lengths(faces: tuple[int, ...]) -> list[int]:
    """For each position, the length of the same-colour run it belongs to."""
    lengths = [0] * len(faces)
    start = 0
    for i in range(1, len(faces) + 1):
        if i == len(faces) or COLOUR_OF[faces[i]] != COLOUR_OF[faces[start]]:
            for j in range(start, i):
                lengths[j] = i - start
            start = i
    return lengths
