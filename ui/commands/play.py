"""`fairdeal play`: a game (`--game NAME`, the registry's default otherwise) in this terminal.

In a terminal it opens the Textual app on a table against local bots, ready to play (`--lobby`
opens the lobby instead); with `--bots` fewer than the other seats the table is opened on the
network for friends to take the rest, as `fairdeal host` does. With `--plain`, or when stdin or
stdout is not a terminal, a game with a plain-text game in its record (ui/screen_game.py) plays
with text prompts; a game without one is played in the app only, for the reason it gives.
"""

from __future__ import annotations

import argparse
import sys

DEFAULT_BOT_DELAY = 0.6  # seconds a bot "thinks" in the app: long enough to follow the game


def configure(parser: argparse.ArgumentParser) -> None:
    from fairdeal.ui.commands import options

    options.add_game_argument(parser, default=options.default_game())
    options.add_seats(
        parser,
        f"seats at the table: {options.seat_ranges()} (default 4)",
        old="--players",
        dest="players",
        type=options.seats,
        default=4,
    )
    options.add_bots(
        parser,
        None,
        "how many of the other seats bots take (default: all of them; fewer opens the table on "
        "the network, the rest for friends)",
    )
    options.add_bot_kind(parser, per_seat=True)
    parser.add_argument(
        "--seat",
        type=int,
        default=0,
        metavar="SEAT",
        help="your seat number, 0 to N-1 (0 starts hand 1)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for a repeatable game")
    options.add_short(parser)
    options.add_game_options(parser)
    options.add_difficulty(parser, "default normal")
    options.add_claim_pace(parser, None, "default: none, the difficulty decides")
    parser.add_argument(
        "--bot-delay",
        type=options.seconds,
        default=DEFAULT_BOT_DELAY,
        metavar="S",
        help=f"seconds a bot thinks before it moves in the app (default {DEFAULT_BOT_DELAY:g})",
    )
    parser.add_argument("--lobby", action="store_true", help="open the app's lobby, not a table")
    parser.add_argument("--name", default=None, help="your name at the table")
    options.add_data_dir(parser)
    options.add_no_mdns(parser, "no mDNS: do not look for tables on the network")
    options.add_bind(parser, "listen and look for tables")
    parser.add_argument(
        "--plain", action="store_true", help="plain text prompts instead of the Textual app"
    )


def check(args: argparse.Namespace) -> str | None:
    """The argument errors only the combination shows (None: the arguments make a table)."""
    from fairdeal.ui.commands import options

    others = args.players - 1
    bots = bot_seats(args)
    problem = options.game_options_problem(args, args.players)  # the game's player count too
    if problem is not None:
        return f"--seats {args.players}: {problem}" if "players" in problem else problem
    record = options.screen_record(args.game)
    if args.plain and record.plain is None:
        return f"{record.app_only}: it is played in the app only"
    if bots > others:
        return f"--bots {bots}: a table of {args.players} has {others} other seat(s)"
    if not 0 <= args.seat < args.players:
        return f"--seat {args.seat}: the seats of a {args.players}-seat table are 0-{others}"
    if args.seat != 0 and bots < others:
        return "--seat: a table on the network seats its host at 0"
    if args.plain and bots < others:
        return "--plain plays against bots only: leave --bots out, or play in the app"
    kinds = args.bot_kind.split(",")
    if len(kinds) > max(bots, 1):
        return f"--bot-kind lists {len(kinds)} kinds for {bots} bot seat(s)"
    return None


def bot_seats(args: argparse.Namespace) -> int:
    """--bots, or every seat but yours."""
    return args.players - 1 if args.bots is None else int(args.bots)


def run(args: argparse.Namespace) -> int:

    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if not terminal and not args.plain and (args.lobby or bot_seats(args) < args.players - 1):
        # the lobby and a table on the network live in the app only; a plain game is not it
        what = "--lobby opens" if args.lobby else "a table on the network (--bots) opens in"
        raise SystemExit(
            f"fairdeal play: {what} the app, which needs a terminal on stdin and stdout "
            "(this output is not one)"
        )
    if args.plain or not terminal:
        return run_plain(args)
    return run_app(args)


def run_app(args: argparse.Namespace) -> int:
    """The Textual app on a table of one human (`--seat`) and local bots, or (fewer bots than
    the other seats) on a table opened on the network."""
    from fairdeal.engine.bots import DEFAULT_DIFFICULTY
    from fairdeal.ui.commands import options

    spec = options.table_spec(
        args,
        seats=args.players,
        bots=bot_seats(args),
        seat=args.seat,
        seed=args.seed,
        bot_delay=args.bot_delay,
        claim_pace=None if args.pace is None else max(0.0, args.pace),
        difficulty=args.difficulty or DEFAULT_DIFFICULTY,
    )
    try:
        spec.validate()
    except ValueError as error:
        raise SystemExit(f"fairdeal play: {error}") from None
    return options.open_app(args, spec, open_table=not args.lobby)


def run_plain(args: argparse.Namespace) -> int:
    """The game in plain text, as its record plays it (ui/screen_game.py); a game without a
    plain-text game is refused with its reason."""
    from fairdeal.ui.commands import options

    record = options.screen_record(args.game)
    if record.plain is None:
        raise SystemExit(
            f"fairdeal play: {record.app_only}; it is played in the "
            "app only (run it in a terminal, without --plain)"
        )
    return record.plain(args)
