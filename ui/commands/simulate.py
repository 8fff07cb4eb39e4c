"""`fairdeal simulate GAME --peers N [--short] [--seed S] --out DIR`: N bot peers as separate
processes over loopback with the full protocol; every transcript goes into DIR and a JSON summary
(result, scores, time in setup, moves and doubts, CPU and RSS per peer; for The Lie also the
claim latency, races decided and void claims) is printed."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

PEERS = {"larry": (2, 8), "lie": (2, 6)}  # L3, T2
TITLES = {"larry": "Larry", "lie": "The Lie"}


def configure(parser: argparse.ArgumentParser) -> None:
    from fairdeal.ui.commands import options
    from fairdeal.ui.game_options import LIE_HAND_SIZE

    options.add_game_argument(parser, "simulate")
    options.add_seats(
        parser,
        "seats, each a bot peer in its own process: 2-8 for Larry, 2-6 for The Lie (default 4)",
        old="--peers",
        dest="peers",
        type=options.seats,
        default=4,
    )
    parser.add_argument(
        "--short", action="store_true", help="a short game: one hand (L18) or one round (The Lie)"
    )
    parser.add_argument(
        "--hand-size",
        type=options.ranged(LIE_HAND_SIZE),  # 1-12, refused at the command line (exit 2)
        default=None,
        metavar="N",
        help="The Lie: how many cards per hand, 1-12 (default 12, T3; fewer make a quick game)",
    )
    options.add_claim_pace(parser, 0.0, "default 0: as fast as allowed, one card at a time")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bots' choices")
    options.add_bot_kind(parser, per_seat=True)
    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="directory for the transcripts"
    )
    options.add_timeout(parser, 600.0, "the game")


def table_options(args: argparse.Namespace) -> Any:
    """The options of the simulated game (the rulebook's, but for --short and --hand-size)."""
    from fairdeal.engine.games import get_game

    default = get_game(args.game).default_options()
    if args.game == "larry":
        if args.hand_size is not None:
            raise SystemExit("fairdeal simulate: --hand-size is an option of The Lie")
        return replace(default, short_game=args.short)
    changes: dict[str, Any] = {"rounds": 1} if args.short else {}
    if args.hand_size is not None:
        changes["hand_size"] = args.hand_size
    return replace(default, **changes)


def run(args: argparse.Namespace) -> int:
    from fairdeal.p2p.table.simulate import simulate

    low, high = PEERS[args.game]
    if not low <= args.peers <= high:
        raise SystemExit(f"fairdeal simulate: {TITLES[args.game]} takes {low} to {high} peers")
    options = table_options(args)
    try:
        options.validate(args.peers)
    except ValueError as error:
        raise SystemExit(f"fairdeal simulate: {error}") from None
    summary = simulate(
        args.peers,
        args.out,
        options=options,
        seed=args.seed,
        bot=args.bot_kind,
        timeout=args.timeout,
        claim_pace=args.pace,
    )
    print(json.dumps(summary, indent=2))
    return 0 if summary["result"] == "finished" and summary["agree"] else 1
