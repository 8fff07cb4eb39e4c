"""The Lie's Phase 1 race: what a person at human speed gets against three default bots.

Usage (from the repository root):  .venv/bin/python bench/phase1_share.py [--rounds 20]
                                     [--difficulty normal | --pace S] [--step-ms 60] [--json PATH]

A scripted player takes the best back on the table (the highest back number; T1: a back's
number or colour is true of its front), one card at a time, at a human pace: 0.8-1.2 s per
take-and-place, uniform (seven tenths to take, three to place, as the bots split theirs). Three
heuristic bots race it as a table's bots do at `--difficulty`: each take and each place waits a
reaction time drawn from p2p/table/runtime/reaction.py, each take picks among the good backs as the
bot's spread says (engine/lie/bots/paced.py). Every seat chooses from the table as it is when
it acts. `--pace S` races the bots of before instead: a take every S seconds, placed at once,
always the card their self-play rating puts first.

The clock is simulated (no sleeping): 20 rounds take a second. The network is the lockstep's
(protocol.md 10.11): time runs in steps of `--step-ms`; the claims of one step are settled at
its end, two claims of one card by a draw (the step's seed), the later ones void, and a card's
front reaches its taker one step later. 60 ms is a step at a home-Wi-Fi table (bench/game.py
`--link-delay`: claim to front p50). Each round is round 1 of a seeded 4-seat game with 12-card
hands, so every seat fills its hand; what differs is the backs it got.

Printed: the player's mean back number per card taken and the bots' (all three together), the
ratio (target: the player within 10 % of the bots at the default difficulty), the void claims of
each side and Phase 1's simulated length; the calibration and load (bench/calibration.py).
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calibration import BenchRun

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fairdeal.engine import OracleDriver
from fairdeal.engine.bots import DEFAULT_DIFFICULTY, DIFFICULTIES, make_bot
from fairdeal.engine.lie import Claim, LieOptions, Phase, Place, Side, view_for
from fairdeal.engine.lie.cards import BACK_OF
from fairdeal.p2p.table.runtime.reaction import reactions

SEATS = 4
PLAYER = 0
TAKE_SHARE = 0.7  # of a take-and-place, the take (the bots' normal split: 0.7 s and 0.3 s)
TARGET = 0.10  # the player's mean back within 10 % of the bots'


def back_number(slot_back: int) -> int:
    return slot_back % 4 + 1  # a back index is colour * 4 + (number - 1) (engine/lie/cards.py)


@dataclass
class Seat:
    next_at: float  # when it next acts (simulated seconds)
    taken: list[int] = field(default_factory=list)  # the backs' numbers of the cards it took
    voids: int = 0
    pending_place: float = 0.0  # the player's place time, drawn with its take


class Race:
    """Phase 1 of one round between the player and the bots, in lockstep steps."""

    def __init__(self, seed: int, difficulty: str | None, step: float, pace: float) -> None:
        self.rng = random.Random(seed)
        self.step = step
        self.driver = OracleDriver(SEATS, LieOptions(rounds=1), seed=seed)
        self.bots = {
            s: make_bot("heuristic", random.Random(seed * 10 + s), "lie", difficulty)
            for s in range(SEATS)
            if s != PLAYER
        }
        self.reactions = reactions(difficulty or DEFAULT_DIFFICULTY)
        self.pace = pace
        self.clock = random.Random(seed + 1_000_003)  # the reaction times
        self.seats = [Seat(0.0) for _ in range(SEATS)]
        for s in range(SEATS):
            self.seats[s].next_at = self._take_time(s)

    def _take_time(self, seat: int) -> float:
        if seat == PLAYER:
            whole = self.clock.uniform(0.8, 1.2)
            self.seats[seat].pending_place = whole * (1 - TAKE_SHARE)
            return whole * TAKE_SHARE
        if self.pace:
            return self.pace
        return self.reactions.draw(self.clock, follow_up=False)

    def _place_time(self, seat: int) -> float:
        if seat == PLAYER:
            return self.seats[seat].pending_place
        if self.pace:
            return 0.0
        return self.reactions.draw(self.clock, follow_up=True)

    def run(self) -> float:
        """Play Phase 1 to its end; its simulated length in seconds."""
        state = self.driver.state
        assert state.claims_open()
        now = 0.0
        waiting: list[tuple[float, int]] = [(s.next_at, i) for i, s in enumerate(self.seats)]
        heapq.heapify(waiting)
        while self.driver.state.phase is Phase.BUILD and waiting:
            end = (int(waiting[0][0] / self.step) + 1) * self.step  # the step of the next act
            claims: dict[int, list[int]] = {}
            places: list[tuple[int, Place]] = []
            view_state = self.driver.state  # what every seat sees in this step
            while waiting and waiting[0][0] < end:
                _, seat = heapq.heappop(waiting)
                action = self._choose(seat, view_state)
                if isinstance(action, Place):
                    places.append((seat, action))
                elif isinstance(action, Claim):
                    claims.setdefault(action.slot, []).append(seat)
            now = end
            for seat, place in places:  # placements first (T3), then the claims they open
                self.driver.act(seat, place)
                heapq.heappush(waiting, (now + self._take_time(seat), seat))
            for slot, seats in claims.items():
                winner = self.rng.choice(seats)  # a tie in one step: the step's seed decides
                for seat in seats:
                    if seat != winner:  # void (T3): it looks again and reaches for another
                        self.seats[seat].voids += 1
                        heapq.heappush(waiting, (now + self._take_time(seat), seat))
                if slot not in self.driver.state.table:  # cannot happen: one claim per slot
                    raise AssertionError(f"slot {slot} claimed twice")
                back = BACK_OF[self.driver.faces[slot]]
                self.driver.act(winner, Claim(slot))
                self.seats[winner].taken.append(back_number(back))
                # its front reaches the taker a step later; then it places it
                heapq.heappush(waiting, (now + self.step + self._place_time(winner), winner))
        return now

    def _choose(self, seat: int, state: Any) -> Claim | Place | None:
        view = view_for(state, self.driver.knowledge[seat], seat)
        if view.can_place:
            if seat == PLAYER:
                return Place(Side.RIGHT)
            action = self.bots[seat].choose(view)
            assert isinstance(action, Place)
            return action
        if not view.can_claim or not state.table:
            return None  # a full hand: done
        if seat == PLAYER:  # the best back first: the highest number, the leftmost of them
            best = max(state.table, key=lambda s: (back_number(view.backs[s]), -s))
            return Claim(best)
        action = self.bots[seat].choose(view)
        assert isinstance(action, Claim)
        return action


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--difficulty", choices=DIFFICULTIES, default=DEFAULT_DIFFICULTY)
    parser.add_argument("--pace", type=float, default=0.0, help="the fixed pace of before")
    parser.add_argument("--step-ms", type=float, default=60.0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    run = BenchRun()
    player: list[int] = []
    bots: list[int] = []
    voids = [0, 0]
    lengths = []
    for seed in range(args.rounds):
        difficulty = None if args.pace else args.difficulty
        race = Race(seed, difficulty, args.step_ms / 1000, args.pace)
        lengths.append(race.run())
        player += race.seats[PLAYER].taken
        voids[0] += race.seats[PLAYER].voids
        for s in range(SEATS):
            if s != PLAYER:
                bots += race.seats[s].taken
                voids[1] += race.seats[s].voids
    mine, theirs = statistics.fmean(player), statistics.fmean(bots)
    ratio = mine / theirs
    bots_are = f"a fixed pace of {args.pace:g} s" if args.pace else args.difficulty
    print(
        f"{args.rounds} rounds, 4 seats, 12-card hands, bots at {bots_are}, "
        f"steps of {args.step_ms:g} ms (simulated clock)"
    )
    print(f"player (0.8-1.2 s per take-and-place, best back first): mean back {mine:.3f}")
    print(f"bots (3, heuristic): mean back {theirs:.3f}")
    verdict = "within" if abs(ratio - 1) <= TARGET else "NOT within"
    print(f"player / bots = {ratio:.3f} ({verdict} {TARGET:.0%})")
    print(
        f"void claims: player {voids[0]}, bots {voids[1]}; Phase 1 lasted "
        f"{statistics.median(lengths):.1f} s (median)"
    )
    figures: dict[str, Any] = {
        "rounds": args.rounds,
        "difficulty": None if args.pace else args.difficulty,
        "pace": args.pace or None,
        "step_ms": args.step_ms,
        "player_mean_back": round(mine, 4),
        "bots_mean_back": round(theirs, 4),
        "ratio": round(ratio, 4),
        "player_cards": len(player),
        "bot_cards": len(bots),
        "void_claims_player": voids[0],
        "void_claims_bots": voids[1],
        "phase1_median_s": round(statistics.median(lengths), 2),
    }
    return run.conclude(figures, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
