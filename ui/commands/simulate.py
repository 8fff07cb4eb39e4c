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


def configure(parser: argparse.ArgumentParser) -> None:
    from fairdeal.ui.commands import options
    from fairdeal.ui.screen_game import screen_games

    options.add_game_argument(parser, "simulate")
    options.add_seats(
        parser,
        "seats, each a bot peer in its own process: "
        f"{options.seat_ranges(style='range first')} (default 4)",
        old="--peers",
        dest="peers",
        type=options.seats,
        default=4,
    )
    options.add_short(parser, "a short game")
    for record in screen_games():
        for option, help_text in record.simulate_numbers:  # refused at the command line (exit 2)
            parser.add_argument(
                option.flag,
                dest=option.name,
                type=options.ranged(option),
                default=None,
                metavar="N",
                help=f"{record.title}: {help_text}",
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
    from fairdeal.ui.screen_game import SCREENS, screen_game, screen_games

    record = screen_game(args.game) if args.game in SCREENS.names() else None
    own = {option.name for option, _ in record.simulate_numbers} if record else set()
    changes: dict[str, Any] = dict(record.short_changes) if record and args.short else {}
    for other in screen_games():
        for option, _ in other.simulate_numbers:
            value = getattr(args, option.name, None)
            if value is None:
                continue
            if option.name not in own:
                raise SystemExit(f"fairdeal simulate: {option.flag} is an option of {other.title}")
            changes[option.name] = value
    return replace(get_game(args.game).default_options(), **changes)


def run(args: argparse.Namespace) -> int:
    from fairdeal.engine.games import get_game
    from fairdeal.p2p.table.tools.simulate import simulate
    from fairdeal.ui.commands.layers import Layer, refuse_missing

    # a short game is what the app's record says it is
    needs = [Layer.TABLE, Layer.BOTS, *([Layer.SCREENS] if args.short else [])]
    refuse_missing("simulate", args.game, needs)
    rules = get_game(args.game)
    low, high = rules.min_players, rules.max_players
    if not low <= args.peers <= high:
        raise SystemExit(f"fairdeal simulate: {rules.title} takes {low} to {high} peers")
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
