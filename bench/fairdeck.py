"""Fair-deck benchmarks: shuffle and share proofs, a whole Larry setup, The Lie's layout.

Usage (from the repository root):  .venv/bin/python bench/fairdeck.py [--quick] [--json PATH]

Figures are medians of repeated runs, in CPU time of this (single-threaded) process, i.e. on one
core; wall-clock medians are printed next to them (they only differ when other processes compete
for the cores). Targets (quiet machine): shuffle prove / verify ≤ 25 / 35 ms for
54 cards and ≤ 45 / 65 ms for 96; share prove / verify ≤ 0.12 / 0.20 ms; The Lie's 6-seat
layout (16 groups) on a critical path ≤ 700 ms. "verify" always includes strict parsing of the
plain data (every received point validated), since that is what a peer does with a message.
Each shuffle figure is measured twice. The headline (`shuffle_prove_54`, …), which the targets
judge, is on a deck already shuffled once: every later shuffle of the chain, 7 of 8 at an 8-seat
table. Ending in "_first", on the public starting deck (every A = G: a deck's first shuffle,
where some products have known logarithms and which is 13–17 % cheaper), for information.
`chain_check_…` is what one seat of an 8-seat table does with the other 7 shuffles of a chain:
parse them and check each alone (`_alone`, protocol.md 6.4's equations one proof at a time) or
all in one random linear combination (`_batch`, p2p/deck/batch.py, what a seat does).

The table scenarios run the sessions as a table does: each seat verifies the other seats'
shuffles on its own worker thread while the chain goes on, the next shuffler proving at once
(p2p/deck/chains.py). Per seat and step they report CPU of every thread, and the critical path
on a model table of machines with two cores each (`TimedTable`: every call's measured CPU,
replayed on each seat's loop and worker clocks), and the CPU of all seats over 2: what one
2-core machine running every seat waits at least. Larry's scenario ends with an L14 reshuffle
of 40 cards and the deal of its top card. The libsodium calibration and load average, and the
CPU other processes used meanwhile (bench/calibration.py), are printed and written, with a
warning when loaded.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from calibration import BenchRun, cpu_median_us

from fairdeal.p2p.deck import DeckSession, ListReady, Slot
from fairdeal.p2p.deck.cards import card_point
from fairdeal.p2p.deck.chain_check import verify_batch
from fairdeal.p2p.deck.group import (
    G,
    Point,
    add,
    hash_to_scalar,
    mul,
    mul_base,
    pedersen_generators,
    point_sum,
)
from fairdeal.p2p.deck.keys import SecretKey, joint_key
from fairdeal.p2p.deck.masking import MaskedCard
from fairdeal.p2p.deck.messages import ShuffleMessage, parse_message
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.deck.shares import DecryptionShare, make_share
from fairdeal.p2p.deck.shuffle import ShuffleStatement, shuffle_and_prove, verify

TABLE_ID = b"bench-table"
TARGETS_MS = {
    "shuffle_prove_54": 25.0,  # a later shuffle: see the module's docstring
    "shuffle_verify_54": 35.0,
    "shuffle_prove_96": 45.0,
    "shuffle_verify_96": 65.0,
    "share_prove": 0.12,
    "share_verify": 0.20,
}
LIE_LAYOUT_TARGET_MS = 700.0
LARRY_HAND = {2: 12, 3: 9, 4: 7, 5: 6, 6: 5, 7: 5, 8: 5}  # RULINGS L3
RESHUFFLED = 40  # an L14 reshuffle at 8 seats takes a discard pile of 38-40 cards


WALL: dict[str, float] = {}
"""Median wall-clock times, printed next to the CPU times (they differ when the machine is busy)."""
SAMPLES: dict[str, tuple[list[float], list[float]]] = {}
"""Every (CPU, wall) sample so far per figure: rounds spread over the run pool into one median, so
that a burst of load from another process spoils only part of a figure's samples."""


def median_ms(run: Callable[[], Any], repeat: int, name: str) -> float:
    """Median CPU time of this process (one core), in ms, over this call's samples and those of
    earlier rounds; the wall-clock median goes to WALL."""
    cpu, wall = SAMPLES.setdefault(name, ([], []))
    for _ in range(repeat):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        run()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    WALL[name] = statistics.median(wall) * 1000
    return statistics.median(cpu) * 1000


def fixed_base_table(point: Point, window: int = 8) -> list[list[Point]]:
    """rows[j][d − 1] = d·2^(window·j)·P: what a precomputed table for a point fixed for a whole
    game (the joint key, a Pedersen generator) would hold, built with rbcl's additions."""
    rows = []
    base = point
    for _ in range((253 + window - 1) // window):
        row = [base]
        for _ in range(2, 1 << window):
            row.append(add(row[-1], base))
        rows.append(row)
        base = add(row[-1], base)
    return rows


def table_mul(k: int, rows: list[list[Point]], window: int = 8) -> Point:
    digits = [(k >> (window * j)) & ((1 << window) - 1) for j in range(len(rows))]
    return point_sum(rows[j][d - 1] for j, d in enumerate(digits) if d)


def bench_precomputation() -> dict[str, float]:
    """Does a fixed-base table pay through rbcl? rbcl has no table API, so a table lookup costs
    one point addition per window: 32 additions for 8-bit windows against one scalar mult."""
    point = mul_base(424242)
    k = hash_to_scalar(b"bench/table")  # a full-size scalar: every window digit is non-zero
    start = time.process_time()
    rows = fixed_base_table(point)
    build_ms = (time.process_time() - start) * 1000
    assert table_mul(k, rows) == mul(k, point)
    return {
        "table_build_ms": build_ms,
        "table_mul_us": cpu_median_us(lambda: table_mul(k, rows), calls=20),
        "mul_us": cpu_median_us(lambda: mul(k, point)),
    }


def bench_shuffle(cards: int, repeat: int) -> dict[str, float]:
    """One seat's shuffle of `cards` cards, proved and verified: the headline figures on a deck
    already shuffled once (every later shuffle of a chain: no point has a known logarithm),
    those ending in "_first" on the public starting deck (every A = G, a deck's first
    shuffle)."""
    keys = [SecretKey.generate(seat) for seat in range(4)]
    joint = joint_key([k.public for k in keys])
    start = tuple(MaskedCard(G, add(card_point("bench", c), joint)) for c in range(cards))
    pedersen_generators(cards)  # generators are cached per process, as in a real game
    shuffled = shuffle_and_prove(TABLE_ID, "d0", 0, joint, start).outputs
    figures: dict[str, float] = {}
    for deck, suffix in ((start, "_first"), (shuffled, "")):
        result = shuffle_and_prove(TABLE_ID, "d0", 1, joint, deck)
        message = ShuffleMessage(1, "d0", result.outputs, result.proof).to_data()

        def verify_message(deck: tuple[MaskedCard, ...] = deck, message: Any = message) -> None:
            parsed = parse_message(message, 1, 4)
            assert isinstance(parsed, ShuffleMessage)
            statement = ShuffleStatement(TABLE_ID, "d0", 1, joint, deck, parsed.deck)
            verify(statement, parsed.proof)

        prove, check = f"shuffle_prove_{cards}{suffix}", f"shuffle_verify_{cards}{suffix}"
        figures[prove] = median_ms(
            lambda deck=deck: shuffle_and_prove(TABLE_ID, "d0", 1, joint, deck), repeat, prove
        )
        figures[check] = median_ms(verify_message, repeat, check)
    return figures


def bench_chain_check(cards: int, seats: int, repeat: int) -> dict[str, float]:
    """Seat 0's check of seats 1..N−1's shuffles of one chain, messages parsed: each alone,
    then in one batch."""
    keys = [SecretKey.generate(seat) for seat in range(seats)]
    joint = joint_key([k.public for k in keys])
    deck = tuple(MaskedCard(G, add(card_point("bench", c), joint)) for c in range(cards))
    pedersen_generators(cards)
    inputs, messages = [], []
    for seat in range(seats):
        result = shuffle_and_prove(TABLE_ID, "d0", seat, joint, deck)
        inputs.append(deck)
        messages.append(ShuffleMessage(seat, "d0", result.outputs, result.proof).to_data())
        deck = result.outputs

    def parsed() -> list[tuple[ShuffleStatement, Any]]:
        pairs = []
        for seat in range(1, seats):
            message = parse_message(messages[seat], seat, seats)
            assert isinstance(message, ShuffleMessage)
            st = ShuffleStatement(TABLE_ID, "d0", seat, joint, inputs[seat], message.deck)
            pairs.append((st, message.proof))
        return pairs

    def alone() -> None:
        for st, proof in parsed():
            verify(st, proof)

    name = f"chain_check_{cards}_{seats}_seats"
    return {
        f"{name}_alone": median_ms(alone, repeat, f"{name}_alone"),
        f"{name}_batch": median_ms(lambda: verify_batch(parsed()), repeat, f"{name}_batch"),
    }


def bench_share(repeat: int) -> dict[str, float]:
    key = SecretKey.generate(2)
    joint = joint_key([key.public, SecretKey.generate(1).public])
    card = MaskedCard(G, add(card_point("bench", 7), joint)).rerandomise(12345, joint)
    data = make_share(TABLE_ID, key, card).to_data()

    def verify_share() -> None:
        DecryptionShare.from_data(data, 7).verify(TABLE_ID, key.public, card)

    return {
        "share_prove": median_ms(lambda: make_share(TABLE_ID, key, card), repeat, "share_prove"),
        "share_verify": median_ms(verify_share, repeat, "share_verify"),
    }


class TimedWorker(ThreadPoolExecutor):
    """One seat's verify worker, recording the CPU time (thread time) of every job, in the
    order they were submitted."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="bench-verify")
        self.jobs: list[Future[float]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        cpu: Future[float] = Future()

        def timed() -> Any:
            start = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                cpu.set_result(time.thread_time() - start)

        self.jobs.append(cpu)
        return super().submit(timed)


class TimedTable:
    """Like LoopbackTable, but timing every call per seat, grouped by the current step, and
    replaying the times on a model table where each seat has two cores: its loop and its
    verify worker. A message reaches the others when its author's call ends; a seat takes its
    messages in log order once its loop is free; a check starts once the worker is free; the
    call that makes a list ready ends no earlier than the seat's checks (p2p/deck/chains.py)."""

    def __init__(self, seats: int):
        self.workers = [TimedWorker() for _ in range(seats)]
        self.sessions = [
            DeckSession(TABLE_ID, seat, seats, parallel=self.workers[seat]) for seat in range(seats)
        ]
        self.per_seat: dict[str, list[float]] = {}
        self.critical: dict[str, float] = {}
        self._step = ""
        self._queue: deque[tuple[int, dict[str, Any], float]] = deque()
        self._loop_free = [0.0] * seats
        self._worker_free = [0.0] * seats

    def close(self) -> None:
        for worker in self.workers:
            worker.shutdown()

    def _timed(self, seat: int, call: Callable[[], Output], arrival: float) -> None:
        """Run one call; its CPU (this thread plus the checks it submitted) goes to the seat,
        and its place on the model table's clock follows (see the class docstring)."""
        worker = self.workers[seat]
        jobs = len(worker.jobs)
        begin = max(self._loop_free[seat], arrival)
        start = time.thread_time()
        out = call()
        own = time.thread_time() - start
        checks = [job.result() for job in worker.jobs[jobs:]]  # their CPU, once they ran
        for cpu in checks:
            self._worker_free[seat] = max(self._worker_free[seat], begin) + cpu
        end = begin + own
        if any(isinstance(event, ListReady) for event in out.events):
            end = max(end, self._worker_free[seat])
        self._loop_free[seat] = end
        self.per_seat[self._step][seat] += own + sum(checks)
        self._queue += [(seat, m, end) for m in out.messages]

    def step(self, name: str, command: Callable[[DeckSession], Output]) -> None:
        """Run a command on every seat and deliver until quiet; record its critical path:
        when the last seat is done on the model table (seats work in parallel there)."""
        self._step = name
        self.per_seat[name] = [0.0] * len(self.sessions)
        self._loop_free = [0.0] * len(self.sessions)
        self._worker_free = [0.0] * len(self.sessions)
        for session in self.sessions:
            self._timed(session.seat or 0, lambda s=session: command(s), 0.0)
        while self._queue:
            sender, message, published = self._queue.popleft()
            targets = [message["to"]] if "to" in message else range(len(self.sessions))
            for seat in targets:
                session = self.sessions[seat]
                self._timed(seat, lambda s=session, m=message, f=sender: s.handle(f, m), published)
        self.critical[name] = max(self._loop_free)

    def report(self) -> dict[str, dict[str, float]]:
        return {
            name: {
                "total_cpu_ms": sum(times) * 1000,
                "max_seat_ms": max(times) * 1000,
                "critical_path_ms": self.critical[name] * 1000,
            }
            for name, times in self.per_seat.items()
        }


def bench_larry(seats: int) -> dict[str, dict[str, float]]:
    """Keys, first-player coin (L5), the 54-card shuffle chain (L1), the deal (L3), and an L14
    reshuffle of 40 cards (a discard pile mid-hand) with the deal of its top card."""
    table = TimedTable(seats)
    try:
        table.step("keys", lambda s: s.start())
        table.step("coin", lambda s: s.coin("first-player"))
        table.step("shuffle", lambda s: s.new_deck("larry", "larry", range(54)))
        hand = LARRY_HAND[seats]
        owners = {Slot("larry", i): i % seats for i in range(hand * seats)}
        table.step("deal", lambda s: s.deal(owners))
        assert all(
            table.sessions[owner].known_card(slot) is not None for slot, owner in owners.items()
        )
        pile = [Slot("larry", i) for i in range(54 - RESHUFFLED, 54)]
        table.step("reshuffle", lambda s: s.reshuffle("pile", pile))
        table.step("draw", lambda s: s.deal({Slot("pile", 0): 0}))
        assert table.sessions[0].known_card(Slot("pile", 0)) is not None
    finally:
        table.close()
    return table.report()


def bench_lie_layout(seats: int) -> dict[str, dict[str, float]]:
    """The Lie (T1): 16 masked lists of 6 (one per back), each shuffled by every seat, and the
    joint coin that lays the groups out on the table."""
    table = TimedTable(seats)

    def shuffle_groups(session: DeckSession) -> Output:
        out = Output()
        for group in range(16):
            out.extend(session.new_deck(f"back-{group}", f"lie/back-{group}", range(6)))
        return out

    try:
        table.step("keys", lambda s: s.start())
        table.step("coin", lambda s: s.coin("layout"))
        table.step("shuffle", shuffle_groups)
        assert all(s.list_ready("back-15") for s in table.sessions)
    finally:
        table.close()
    return table.report()


def median_reports(reports: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Per step and figure, the median over runs."""
    return {
        step: {k: statistics.median(r[step][k] for r in reports) for k in numbers}
        for step, numbers in reports[0].items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (smoke run)")
    args = parser.parse_args(argv)
    rounds, repeat, scenario_runs = (1, 3, 1) if args.quick else (4, 4, 3)

    run = BenchRun()
    figures: dict[str, Any] = {"benchmark": "fairdeck"}
    for _ in range(rounds):  # interleaved rounds, pooled: see SAMPLES
        for cards in (54, 96):
            figures.update(bench_shuffle(cards, repeat))
        figures.update(bench_share(50 if args.quick else 150))
        figures.update(bench_chain_check(54, 8, 1 if args.quick else 2))
    print("proofs (median ms: CPU time of one core, wall clock)   target   ok")
    print("  (shuffles: a later shuffle of the chain; _first: a deck's first, no target)")
    for name, target in TARGETS_MS.items():
        ok = "yes" if figures[name] <= target else "NO"
        print(f"  {name:<24} {figures[name]:10.3f} {WALL[name]:10.3f} {target:10.2f}   {ok}")
        if (first := f"{name}_first") in figures:
            print(f"  {first:<24} {figures[first]:10.3f} {WALL[first]:10.3f}")
    for chain in (k[: -len("_alone")] for k in list(figures) if k.endswith("_alone")):
        alone, batch = figures[f"{chain}_alone"], figures[f"{chain}_batch"]
        print(
            f"  {chain}: each alone {alone:.1f} ms, one batch {batch:.1f} ms"
            f" ({(1 - batch / alone) * 100:.0f} % less CPU)"
        )
    figures["wall_ms"] = dict(WALL)

    pre = bench_precomputation()
    figures["precomputation"] = pre
    print(
        f"fixed-base table (8-bit windows through rbcl additions): k·P {pre['table_mul_us']:.0f}"
        f" µs against {pre['mul_us']:.0f} µs for a scalar mult, {pre['table_build_ms']:.0f} ms"
        " to build per point: "
        + ("it would pay" if pre["table_mul_us"] < pre["mul_us"] else "it does not pay, unused")
    )

    scenarios = {
        "larry_4_seats": lambda: bench_larry(4),
        "larry_8_seats": lambda: bench_larry(8),
        "lie_layout_6_seats": lambda: bench_lie_layout(6),
    }
    for name, scenario in scenarios.items():
        report = median_reports([scenario() for _ in range(scenario_runs)])
        figures[name] = report
        print(
            f"{name}  (median of {scenario_runs}; ms: CPU of all seats / busiest seat /"
            " critical path on a table of 2-core machines / all seats on one 2-core machine,"
            " at least)"
        )
        for step, numbers in report.items():
            print(
                f"  {step:<10} {numbers['total_cpu_ms']:10.1f} {numbers['max_seat_ms']:10.1f}"
                f" {numbers['critical_path_ms']:10.1f} {numbers['total_cpu_ms'] / 2:10.1f}"
            )
        total = sum(n["critical_path_ms"] for n in report.values())
        figures[name]["all_steps_critical_path_ms"] = total  # type: ignore[assignment]
        print(f"  {'all steps':<10} {'':>10} {'':>10} {total:10.1f}")
    lie = figures["lie_layout_6_seats"]["all_steps_critical_path_ms"]
    ok = "yes" if lie <= LIE_LAYOUT_TARGET_MS else "NO"
    print(
        f"The Lie 6-seat layout: critical path {lie:.0f} ms,"
        f" target {LIE_LAYOUT_TARGET_MS:.0f} ms: {ok}"
    )

    figures |= run.finish()
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, sort_keys=True))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
