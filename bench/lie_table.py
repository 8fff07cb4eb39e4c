"""The Lie's table driver in memory (sans-IO, no sockets): what the protocol costs each peer.

Usage (from the repository root):  .venv/bin/python bench/lie_table.py [--sizes 4 6]
                                                                        [--game] [--json PATH]

All peers run in this one process, one after another, with the full fair deck; each peer's
work is timed on its own (CPU seconds spent in its table's `apply` and `start`). Per table size:

* setup: keys, the 16-list shuffle chain (every shuffle proved by its seat and verified by every
  other), the layout coin; CPU per peer (max over peers) and summed over all peers (the chain
  is sequential: a LAN table's setup takes at least the max, at most about the sum);
* Phase 1 with 12-card hands: driver CPU per claim at each peer (the claim, its race, the deal
  shares, their proofs), mean over claims and peers;
* with `--game`: a whole 3-round game, CPU per peer (max);
* peak RSS of this process, which holds every peer at once (an upper bound for one peer).

The networked figures of The Lie's table (claim latency p50/p99 from a signed claim to the front
known to the claimer, over loopback) are `bench/game.py --game lie`'s. The libsodium calibration
and load average before and after, and the CPU other processes used meanwhile
(bench/calibration.py), are printed and written, with a warning when the machine was loaded.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from calibration import BenchRun

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fairdeal.engine.lie import LieOptions, Phase
from fairdeal.p2p import platform
from fairdeal.p2p.games.lie.table import LieTable
from fairdeal.p2p.log.envelope import Envelope
from tests.game.lie_sansio import LieSansIO

TARGETS = {"setup_s": 2.0, "rss_mb": 150.0}


class TimedLieTable(LieTable):
    """A LieTable that adds up the CPU time it spends, per kind of work."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cpu = 0.0

    def apply(self, envelope: Envelope) -> None:
        started = time.process_time()
        super().apply(envelope)
        self.cpu += time.process_time() - started

    def start(self) -> None:
        started = time.process_time()
        super().start()
        self.cpu += time.process_time() - started


def claims_open(net: LieSansIO) -> bool:
    return all(t.state is not None and t.claiming() for t in net.tables)


def phase_2(net: LieSansIO) -> bool:
    return all(t.state is not None and t.state.phase is not Phase.BUILD for t in net.tables)


def run_size(peers: int, game: bool) -> dict[str, Any]:
    options = LieOptions(rounds=3 if game else 1)
    net = LieSansIO(peers, options, seed=peers, table_class=TimedLieTable)
    tables: list[TimedLieTable] = net.tables  # type: ignore[assignment]
    net.run(claims=lambda _s, _t: None, until=claims_open)
    setup = [t.cpu for t in tables]
    before = [t.cpu for t in tables]
    net.run(until=phase_2)
    claims = sum(len(h) for h in tables[0].state.hands) + tables[0].void_claims
    per_claim = [(t.cpu - b) / claims for t, b in zip(tables, before, strict=True)]
    result: dict[str, Any] = {
        "peers": peers,
        "setup_cpu_s_max_peer": max(setup),
        "setup_cpu_s_all_peers": sum(setup),
        "claims": claims,
        "ties": tables[0].ties,
        "steps": tables[0].steps,
        "claim_cpu_ms_mean_per_peer": 1000 * sum(per_claim) / len(per_claim),
    }
    if game:
        net.run()
        assert all(t.fault is None and t.state.over for t in tables)
        result["game_cpu_s_max_peer"] = max(t.cpu for t in tables)
    result["peak_rss_mb_process"] = platform.current().peak_rss_mb()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 6])
    parser.add_argument("--game", action="store_true", help="also play a whole 3-round game")
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    args = parser.parse_args()
    run = BenchRun()
    results = []
    for peers in args.sizes:
        result = run_size(peers, args.game)
        results.append(result)
        # Every peer shares this machine's 2 cores: the CPU of all peers over 2 is a lower
        # bound for a LAN table's setup wall time here (the 16 chains pipeline across seats).
        bound = result["setup_cpu_s_all_peers"] / 2
        print(
            f"{peers} peers:"
            f" setup CPU {result['setup_cpu_s_max_peer']:.2f} s per peer (max),"
            f" {result['setup_cpu_s_all_peers']:.2f} s all peers, so ≥ {bound:.2f} s wall on 2"
            f" cores (target ≤ {TARGETS['setup_s']} s with 6 peers);"
            f" {result['claims']} claims, {result['ties']} ties, {result['steps']} steps,"
            f" {result['claim_cpu_ms_mean_per_peer']:.1f} ms driver CPU per claim per peer"
            + (
                f"; 3-round game {result['game_cpu_s_max_peer']:.1f} s CPU per peer (max)"
                if args.game
                else ""
            )
            + f"; peak RSS {result['peak_rss_mb_process']:.0f} MB (whole process)"
        )
    return run.conclude({"benchmark": "lie_table", "results": results}, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
