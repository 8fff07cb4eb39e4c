"""Whole games of Larry over the network: `simulate` with 4 and 8 bot peers (one OS process each,
loopback, full protocol) and what it costs.

Usage (from the repository root):  .venv/bin/python bench/game.py [--quick] [--runs R]
                                                                   [--json PATH]

Per table size it reports (medians over the runs):

* setup: from a peer starting its table to the first action of hand 1 (join, keys with proofs,
  joint coin, the shuffle chain with every proof verified by every peer, the deal), slowest peer;
* move latency: from an action applied at a peer until the table awaits the next action there
  (every reveal, deal and proof it caused), median and p99 over all peers and moves;
* doubt resolution: from a doubt applied at a peer until that peer holds the verification
  (every pile card's shares checked, the verdict), median and p99;
* whole game: wall time of the slowest peer; CPU seconds and peak RSS per peer (max over peers).

Targets (this 2-core machine, quiet): setup ≤ 0.6 s with 4 peers and ≤ 2.0 s with 8, move
latency p99 with 8 peers ≤ 400 ms, L14 reshuffles included (issue 12); doubt resolution ≤ 50 ms
and peak RSS ≤ 150 MB per peer (issue 5). `--quick` plays short games (one hand).

Wall-clock figures depend on what else runs: the libsodium calibration and the load average
(bench/calibration.py) are printed before and after, with a warning when the machine was
loaded. CPU seconds per peer are medians over the runs (of the busiest peer of each run).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from calibration import calibrate, calibration_line, load_warning

from fairdeal.p2p.table.simulate import simulate

TARGETS = {
    4: {"setup_s": 0.6, "doubt_ms": 50.0, "rss_mb": 150.0},
    8: {"setup_s": 2.0, "move_p99_ms": 400.0, "doubt_ms": 50.0, "rss_mb": 150.0},
}


def run_size(peers: int, runs: int, short: bool) -> dict[str, Any]:
    summaries = []
    for run in range(runs):
        with tempfile.TemporaryDirectory() as directory:
            summary = simulate(peers, Path(directory), short=short, seed=run, timeout=600)
        if summary["result"] != "finished" or not summary["agree"]:
            raise SystemExit(f"{peers} peers, run {run}: {summary['result']} {summary['fault']}")
        summaries.append(summary)

    def median(path: tuple[str, ...]) -> float:
        values = []
        for summary in summaries:
            value: Any = summary
            for key in path:
                value = value[key]
            values.append(value)
        return round(statistics.median(values), 3)

    return {
        "peers": peers,
        "runs": runs,
        "short": short,
        "hands": [s["hands"] for s in summaries],
        "setup_s": median(("time", "setup_seconds")),
        "move_median_ms": median(("move_latency_ms", "median")),
        "move_p99_ms": median(("move_latency_ms", "p99")),
        "doubt_median_ms": median(("doubt_resolution_ms", "median")),
        "doubt_p99_ms": median(("doubt_resolution_ms", "p99")),
        "game_s": median(("time", "game_seconds")),
        "cpu_s_per_peer_max": round(
            statistics.median(max(p["cpu_seconds"] for p in s["per_peer"]) for s in summaries), 3
        ),
        "peak_rss_mb_max": round(
            max(max(p["peak_rss_mb"] for p in s["per_peer"]) for s in summaries), 1
        ),
    }


def verdict(result: dict[str, Any]) -> str:
    target = TARGETS[result["peers"]]
    checks = [
        ("setup", result["setup_s"] <= target["setup_s"], f"{target['setup_s']} s"),
        *(
            [("move p99", result["move_p99_ms"] <= limit, f"{limit} ms")]
            if (limit := target.get("move_p99_ms")) is not None
            else []
        ),
        ("doubt", result["doubt_median_ms"] <= target["doubt_ms"], f"{target['doubt_ms']} ms"),
        ("rss", result["peak_rss_mb_max"] <= target["rss_mb"], f"{target['rss_mb']} MB"),
    ]
    return ", ".join(f"{name} {'ok' if ok else 'MISSED'} (≤ {limit})" for name, ok, limit in checks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short games (one hand)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    args = parser.parse_args()
    before = calibrate()
    print(calibration_line(before, "before"))
    results = []
    for peers in args.sizes:
        result = run_size(peers, args.runs, args.quick)
        results.append(result)
        print(
            f"{peers} peers ({args.runs} runs, hands {result['hands']}): "
            f"setup {result['setup_s']:.2f} s | move median {result['move_median_ms']:.1f} ms, "
            f"p99 {result['move_p99_ms']:.1f} ms | doubt median {result['doubt_median_ms']:.1f} "
            f"ms, p99 {result['doubt_p99_ms']:.1f} ms | game {result['game_s']:.1f} s | "
            f"CPU/peer {result['cpu_s_per_peer_max']:.2f} s | peak RSS "
            f"{result['peak_rss_mb_max']:.0f} MB"
        )
        print(f"  targets: {verdict(result)}")
    after = calibrate()
    print(calibration_line(after, "after"))
    # The load average after the run is the peers' own; the slowdown of libsodium still counts.
    warning = load_warning([before, {**after, "load_1min": 0.0}])
    if warning:
        print(warning)
    if args.json is not None:
        report = {"results": results, "calibration": [before, after], "loaded_warning": warning}
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
