"""`fairdeal simulate larry --peers N [--short] [--seed S] --out DIR`: N bot peers as separate
processes over loopback with the full protocol; every transcript goes into DIR and a JSON summary
(result, scores, time in setup, moves and doubts, CPU and RSS per peer) is printed."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    from fairdeal.ui.commands import options

    options.add_game_argument(parser, "simulate")
    parser.add_argument(
        "--peers", type=options.seats, default=4, metavar="N", help="bot peers, 2-8 (default 4)"
    )
    parser.add_argument("--short", action="store_true", help="a short game: one hand (L18)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bots' choices")
    options.add_bot_kind(parser, per_seat=False, default="heuristic")
    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="directory for the transcripts"
    )
    options.add_timeout(parser, 600.0, "the game")


def run(args: argparse.Namespace) -> int:
    from fairdeal.p2p.table.simulate import simulate

    if not 2 <= args.peers <= 8:
        raise SystemExit("fairdeal simulate: Larry takes 2 to 8 peers")
    summary = simulate(
        args.peers,
        args.out,
        short=args.short,
        seed=args.seed,
        bot=args.bot_kind,
        timeout=args.timeout,
    )
    print(json.dumps(summary, indent=2))
    return 0 if summary["result"] == "finished" and summary["agree"] else 1
