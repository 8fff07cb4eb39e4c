"""`fairdeal selfplay GAME --players N --games K --seed S [--bot-kind KINDS] [--short] [--json]`.

Plays complete games between local bots with the oracle driver and prints wins per seat, mean
actions per hand (Larry) or round (The Lie) and games per second.
"""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    from fairdeal.engine.games import game_names

    # Self-play needs only the engine, so every game of the registry is offered here.
    parser.add_argument(
        "game",
        choices=game_names(),
        metavar="GAME",
        help=f"the game to play: {', '.join(game_names())}",
    )
    from fairdeal.ui.commands import options

    options.add_seats(
        parser,
        f"seats at the table ({options.seat_ranges()}; default 4)",
        old="--players",
        dest="players",
        type=int,
        default=4,
    )
    parser.add_argument(
        "--games", type=int, default=100, metavar="N", help="how many games to play (default 100)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for decks and bots")
    options.add_bot_kind(parser, per_seat=True)
    # the older name here (elsewhere --bots counts bot seats; here every seat is a bot)
    parser.add_argument("--bots", dest="bot_kind", type=options.bot_kinds, help=argparse.SUPPRESS)
    from fairdeal.ui.screen_game import screen_games

    shorts = [r for r in screen_games() if r.selfplay_short_refusal is None and r.short_help]
    kinds = " or ".join(f"{r.title}'s short game: {r.short_help}" for r in shorts)
    parser.add_argument("--short", action="store_true", help=kinds)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def run(args: argparse.Namespace) -> int:
    import json
    import random
    import time
    from dataclasses import replace

    from fairdeal.engine.games import get_game
    from fairdeal.engine.selfplay import make_bots, play_game
    from fairdeal.p2p.table.core.presenter import presenter_for
    from fairdeal.ui.commands.layers import Layer, refuse_missing
    from fairdeal.ui.screen_game import screen_game

    if args.games < 1:
        raise SystemExit("fairdeal selfplay: --games must be at least 1")
    # the rules and bots play; a short game is what the app's record says it is
    refuse_missing("selfplay", args.game, [Layer.BOTS, *([Layer.SCREENS] if args.short else [])])
    game = get_game(args.game)
    try:
        options = game.default_options()
        if args.short:
            record = screen_game(args.game)
            if record.selfplay_short_refusal is not None:
                raise ValueError(record.selfplay_short_refusal)
            options = replace(options, **record.short_changes)
        options.validate(args.players)
        rng = random.Random(args.seed)
        make_bots(args.bot_kind, args.players, rng, args.game)  # fail early on a bad spec
    except ValueError as error:
        raise SystemExit(f"fairdeal selfplay: {error}") from None
    wins = [0.0] * args.players
    hands = actions = 0
    names: list[str] = []
    cpu_started, started = time.process_time(), time.perf_counter()
    for _ in range(args.games):
        bots = make_bots(args.bot_kind, args.players, rng, args.game)
        names = [bot.name for bot in bots]
        result = play_game(bots, options, seed=rng.randrange(1 << 32), game=game)
        for seat in result.winners:
            wins[seat] += 1 / len(result.winners)  # L18, T10: equal totals share the win
        hands += result.hands
        actions += result.actions
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    unit = presenter_for(args.game).round_name
    figures = {
        "game": args.game,
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "short": args.short,
        "bots": names,
        "wins": wins,
        "win_share": [w / args.games for w in wins],
        f"{unit}s": hands,
        f"mean_actions_per_{unit}": actions / hands,
        f"{unit}s_per_second": hands / elapsed if elapsed else 0.0,
        "games_per_second": args.games / elapsed if elapsed else 0.0,
        "games_per_cpu_second": args.games / cpu if cpu else 0.0,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"{game.title}, {args.players} players, {args.games} games ({hands} {unit}s), "
        f"seed {args.seed}"
    )
    for seat, (name, won) in enumerate(zip(names, wins, strict=True)):
        print(f"  seat {seat} {name:<10} wins {won:8.1f}  ({won / args.games:6.1%})")
    print(f"mean actions per {unit}: {figures[f'mean_actions_per_{unit}']:.1f}")
    print(f"{unit}s per second:      {figures[f'{unit}s_per_second']:.0f}")
    print(f"games per second:      {figures['games_per_second']:.0f}")
    return 0
