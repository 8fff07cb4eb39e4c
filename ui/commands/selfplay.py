"""`fairdeal selfplay larry --players N --games K --seed S [--bot-kind KINDS] [--short] [--json]`.

Plays complete games between local bots with the oracle driver and prints wins per seat, mean
actions per hand and hands per second.
"""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    from fairdeal.ui.commands import options

    options.add_game_argument(parser, "play")
    parser.add_argument(
        "--players", type=int, default=4, metavar="N", help="seats at the table, 2-8 (default 4)"
    )
    parser.add_argument(
        "--games", type=int, default=100, metavar="N", help="how many games to play (default 100)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for decks and bots")
    parser.add_argument(
        "--bot-kind",
        default="random",
        metavar="KIND[,KIND…]",
        help="the bots' kind, or a comma list by seat, the last filling the rest "
        '(e.g. "heuristic,random"; default random)',
    )
    parser.add_argument("--bots", dest="bot_kind", help=argparse.SUPPRESS)  # the older name
    parser.add_argument("--short", action="store_true", help="short game: one hand (L18)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def run(args: argparse.Namespace) -> int:
    import json
    import random
    import time

    from fairdeal.engine.larry.options import LarryOptions
    from fairdeal.engine.selfplay import make_bots, play_game

    if args.games < 1:
        raise SystemExit("fairdeal selfplay: --games must be at least 1")
    try:
        options = LarryOptions(short_game=args.short)
        options.validate(args.players)
        rng = random.Random(args.seed)
        make_bots(args.bot_kind, args.players, rng)  # fail early on a bad spec
    except ValueError as error:
        raise SystemExit(f"fairdeal selfplay: {error}") from None
    wins = [0.0] * args.players
    hands = actions = 0
    names: list[str] = []
    started = time.perf_counter()
    for _ in range(args.games):
        bots = make_bots(args.bot_kind, args.players, rng)
        names = [bot.name for bot in bots]
        result = play_game(bots, options, seed=rng.randrange(1 << 32))
        for seat in result.winners:
            wins[seat] += 1 / len(result.winners)  # L18: equal totals share the win
        hands += result.hands
        actions += result.actions
    elapsed = time.perf_counter() - started
    figures = {
        "game": "larry",
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "short": args.short,
        "bots": names,
        "wins": wins,
        "win_share": [w / args.games for w in wins],
        "hands": hands,
        "mean_actions_per_hand": actions / hands,
        "hands_per_second": hands / elapsed if elapsed else 0.0,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"Larry, {args.players} players, {args.games} games ({hands} hands), seed {args.seed}")
    for seat, (name, won) in enumerate(zip(names, wins, strict=True)):
        print(f"  seat {seat} {name:<10} wins {won:8.1f}  ({won / args.games:6.1%})")
    print(f"mean actions per hand: {figures['mean_actions_per_hand']:.1f}")
    print(f"hands per second:      {figures['hands_per_second']:.0f}")
    return 0
