"""Where a table's setup waits: a timeline of one simulated table's setup, every peer.

Usage (from the repository root):  .venv/bin/python bench/setup_timeline.py [--game larry|lie]
                                                                    [--seats N] [--seed S]
                                                                    [--json PATH] [--envelopes]

Runs `fairdeal simulate` (one OS process per bot peer, loopback, the full protocol, a short
game) with every peer started through bench/timeline_peer.py, which records when each setup
envelope was signed, sent, first received and applied at each peer, each fsync on the loop,
the event loop's waits in `select` and the deck worker's jobs. Prints, per peer, where its
time went from process start to the setup's end, and, along the log, where the table waited.
Timings under the recorder are a little longer than the benchmark's (each event is a Python
call or two).
"""

from __future__ import annotations

import argparse
import json
import stat
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from calibration import BenchRun

from fairdeal.engine.lie import LieOptions
from fairdeal.p2p.table.tools.simulate import Simulation

HERE = Path(__file__).resolve().parent


def overlap(intervals: list[list[float]], start: float, end: float) -> float:
    return sum(max(0.0, min(i[1], end) - max(i[0], start)) for i in intervals)


def run(game: str, seats: int, seed: int) -> list[dict[str, Any]]:
    import asyncio

    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        wrapper = root / "python"
        wrapper.write_text(
            f'#!/bin/sh\nexec "{sys.executable}" "{HERE / "timeline_peer.py"}" "$@"\n'
        )
        wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
        options = LieOptions(rounds=1) if game == "lie" else None
        simulation = Simulation(
            seats,
            root / "table",
            short=True,
            seed=seed,
            python=str(wrapper),
            options=options,
            timeout=300,
        )
        summary = asyncio.run(simulation.run())
        if summary["result"] != "finished":
            raise SystemExit(f"the game did not finish: {summary['result']} {summary['fault']}")
        return [
            json.loads((root / "table" / f"seat{s}" / "timeline.json").read_text())
            for s in range(seats)
        ]


def first(events: list[list[Any]], name: str) -> float:
    return next(e[0] for e in events if e[1] == name)


def analyse(peers: list[dict[str, Any]], show_envelopes: bool) -> dict[str, Any]:
    spawned = min(first(p["events"], "process") for p in peers)
    rows = []
    for seat, peer in enumerate(peers):
        ev = peer["events"]
        table, setup = first(ev, "table"), first(ev, "setup")
        ups = [e[0] for e in ev if e[1] == "up"]
        fsyncs = [e for e in ev if e[1] == "fsync" and table <= e[0] <= setup]
        cpu_at_setup = next(e[2] for e in ev if e[1] == "setup")
        cpu_at_table = next(e[2] for e in ev if e[1] == "table")
        at_table = next(e for e in ev if e[1] == "table")
        at_setup = next(e for e in ev if e[1] == "setup")
        loop_cpu = at_setup[3] - at_table[3]
        loop_runnable = at_setup[5] - at_table[5]
        jobs = [w for w in peer["work"] if table <= w[0] <= setup]
        deck_on_loop = sum(c for t, c in peer["deck_cpu"] if table <= t <= setup)
        rows.append(
            {
                "seat": seat,
                "start_s": first(ev, "process") - spawned,
                "imports_s": first(ev, "imported") - first(ev, "process"),
                "to_listen_s": first(ev, "listening") - first(ev, "imported"),
                "wait_wiring_s": table - first(ev, "listening"),
                "table_at_s": table - spawned,
                "mesh_up_s": (max(ups) - table) if ups else None,  # < 0: up before the table
                "setup_s": setup - table,
                "idle_s": overlap(peer["idle"], table, setup),
                "worker_s": overlap(peer["work"], table, setup),
                "fsyncs": len(fsyncs),
                "fsync_s": sum(e[2] for e in fsyncs),
                "cpu_before_table_s": cpu_at_table,
                "cpu_setup_s": cpu_at_setup - cpu_at_table,
                "loop_cpu_s": loop_cpu,
                "deck_on_loop_cpu_s": deck_on_loop,
                "worker_cpu_s": sum(w[2] for w in jobs),
                "worker_wall_s": sum(w[1] - w[0] for w in jobs),
                "worker_runnable_s": sum(w[3] for w in jobs),
                "worker_queued_s": sum(w[0] - w[4] for w in jobs),
                "worker_jobs": len(jobs),
                "loop_runnable_s": loop_runnable,
                "polls": peer["polls"],
                "cpu_end_s": peer["cpu_end"],
            }
        )
    print(
        "seat | start | imports | to listen | listen→table | last channel up | setup "
        "| idle in select | deck worker | fsyncs (s) | CPU before table, in setup"
    )
    for r in rows:
        up = "-" if r["mesh_up_s"] is None else f"{r['mesh_up_s'] * 1000:.0f}"
        print(
            f"{r['seat']:4} | {r['start_s'] * 1000:5.0f} | {r['imports_s'] * 1000:7.0f} | "
            f"{r['to_listen_s'] * 1000:9.0f} | {r['wait_wiring_s'] * 1000:12.0f} | {up:>15} | "
            f"{r['setup_s'] * 1000:5.0f} | {r['idle_s'] * 1000:14.0f} | "
            f"{r['worker_s'] * 1000:11.0f} | {r['fsyncs']:3} ({r['fsync_s'] * 1000:4.0f}) | "
            f"{r['cpu_before_table_s'] * 1000:.0f}, {r['cpu_setup_s'] * 1000:.0f}"
        )
    print(
        "\nseat | loop thread in setup: CPU (of it the deck), waiting for a core | deck worker:"
        " jobs, CPU, waiting for a core, for the GIL or else, queued | loop's selects (not waiting)"
    )
    for r in rows:
        print(
            f"{r['seat']:4} | {r['loop_cpu_s'] * 1000:6.0f} "
            f"({r['deck_on_loop_cpu_s'] * 1000:4.0f}),"
            f" {r['loop_runnable_s'] * 1000:4.0f} | {r['worker_jobs']:3}, "
            f"{r['worker_cpu_s'] * 1000:4.0f}, {r['worker_runnable_s'] * 1000:4.0f}, "
            f"{(r['worker_wall_s'] - r['worker_cpu_s'] - r['worker_runnable_s']) * 1000:4.0f}, "
            f"{r['worker_queued_s'] * 1000:4.0f} | {sum(r['polls'])} ({r['polls'][0]})"
        )
    print("\nloop thread CPU in setup by what (inclusive, mean over peers, ms)")
    labels = sorted({k for p in peers for k in p["costs"]})
    for label in sorted(labels, key=lambda k: -sum(p["costs"].get(k, 0) for p in peers)):
        mean = statistics.mean(p["costs"].get(label, 0.0) for p in peers)
        print(f"  {mean * 1000:6.1f}  {label}")
    deck_mean = statistics.mean(r["deck_on_loop_cpu_s"] for r in rows)
    threads: dict[str, list[float]] = {}
    for peer in peers:
        at_table = next(e for e in peer["events"] if e[1] == "table")[6]
        at_setup = next(e for e in peer["events"] if e[1] == "setup")[6]
        for name, cpu in at_setup.items():
            threads.setdefault(name, []).append(cpu - at_table.get(name, 0.0))
    print(
        "CPU in setup by thread (mean per peer, clock ticks): "
        + ", ".join(f"{n} {statistics.mean(v) * 1000:.0f} ms" for n, v in threads.items())
    )
    every_fsync = [f for p in peers for f in p.get("fsyncs", [])]
    print(
        f"fsyncs in setup, any thread: {len(every_fsync) / len(peers):.1f} per peer, "
        f"{sum(f[1] for f in every_fsync) / len(peers) * 1000:.1f} ms wall, "
        f"{sum(f[2] for f in every_fsync) / len(peers) * 1000:.1f} ms CPU per peer"
    )
    print(f"  {deck_mean * 1000:6.1f}  the deck's calls on the loop (inside the above)")
    print("(milliseconds; start: process start after the first peer's; setup: from the peer")
    print(" starting its table to the first action)")

    # Along the log: every setup envelope in log order, as seat 0 applied it.
    setup_end = max(first(p["events"], "setup") for p in peers)
    order = [e for e in peers[0]["events"] if e[1] == "apply" and e[0] <= setup_end]
    signed: dict[tuple[int, int], float] = {}
    sent: dict[tuple[int, int], float] = {}
    for peer in peers:
        for e in peer["events"]:
            if e[1] == "sign":
                signed[(e[2], e[3])] = e[0]
            elif e[1] == "sent":
                for seat, seq in e[2]:
                    sent[(seat, seq)] = e[0]
    applied: list[dict[str, float]] = [{} for _ in peers]
    received: list[dict[str, float]] = [{} for _ in peers]
    for s, peer in enumerate(peers):
        for e in peer["events"]:
            if e[1] == "apply":
                applied[s].setdefault(e[5], e[0])
            elif e[1] == "recv":
                received[s].setdefault(e[3], e[4])
    t0 = min(first(p["events"], "table") for p in peers)
    phases: dict[str, dict[str, float]] = {}
    previous_applied_at_author: float | None = None
    if show_envelopes:
        print(
            "\n  # | seat kind              | signed | waited | →sent | →last recv | →all applied"
        )
    for index, e in enumerate(order):
        seat, seq, kind, sig = e[2], e[3], e[4], e[5]
        t_sign = signed.get((seat, seq))
        t_sent = sent.get((seat, seq))
        recvs = [received[s].get(sig) for s in range(len(peers)) if s != seat]
        last_recv = max((r for r in recvs if r is not None), default=None)
        last_applied = max(a[sig] for a in applied if sig in a)
        waited = None
        if t_sign is not None and index > 0:
            previous_sig = order[index - 1][5]
            at_author = applied[seat].get(previous_sig)
            if at_author is not None:
                waited = t_sign - at_author
        phase = phases.setdefault(kind, {"n": 0, "from": 1e18, "to": 0.0, "sign_to_sent": 0.0})
        phase["n"] += 1
        phase["from"] = min(phase["from"], t_sign or last_applied)
        phase["to"] = max(phase["to"], last_applied)
        if t_sign is not None and t_sent is not None:
            phase["sign_to_sent"] += t_sent - t_sign
        if show_envelopes:
            ms = lambda x: "   -  " if x is None else f"{x * 1000:6.1f}"  # noqa: E731
            to_sent = None if t_sent is None or t_sign is None else t_sent - t_sign
            print(
                f"{index:3} | {seat:4} {kind:17} | {ms(None if t_sign is None else t_sign - t0)} | "
                f"{ms(waited)} | {ms(to_sent)}"
                f" | {ms(None if last_recv is None or t_sent is None else last_recv - t_sent)}"
                f" | {ms(last_applied - t0)}"
            )
        previous_applied_at_author = last_applied
    del previous_applied_at_author
    print("\nphase (log order)     | envelopes | from (ms) | to (ms) | mean sign→sent (ms)")
    for kind, p in phases.items():
        print(
            f"{kind:21} | {p['n']:9} | {(p['from'] - t0) * 1000:9.0f} | "
            f"{(p['to'] - t0) * 1000:7.0f} | {p['sign_to_sent'] / p['n'] * 1000:.1f}"
        )
    setups = [r["setup_s"] for r in rows]
    print(
        f"\nslowest setup {max(setups):.3f} s (median {statistics.median(setups):.3f}); "
        f"last table start {max(r['table_at_s'] for r in rows):.3f} s after the first spawn; "
        f"CPU in setup, all peers: {sum(r['cpu_setup_s'] for r in rows):.2f} s "
        f"(÷ 2 cores: {sum(r['cpu_setup_s'] for r in rows) / 2:.2f} s)"
    )
    return {"peers": rows, "phases": phases}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["larry", "lie"], default="larry")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envelopes", action="store_true", help="print every setup envelope")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    bench = BenchRun()
    peers = run(args.game, args.seats, args.seed)
    result = analyse(peers, args.envelopes)
    result.update(bench.finish())
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
