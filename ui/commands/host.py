"""`fairdeal host GAME --seats N [--bots K] [--bot-kind KIND] [--headless] [--name NAME]`:
open a table of GAME on the LAN (mDNS), fill K seats with local bot peers and wait for players to
take the others. The game's options (its numbers, such as `--rounds`, and `--short`; listed in
its record, ui/screen_game.py) go into the lobby's terms that every seat signs.
Headless, a bot plays the host's own seat and every proof is logged. Otherwise
the Textual app opens straight on the table, hosted exactly as the app's own "open a table on the
network" does (`TableSpec(networked=True)`), with you in seat 0."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fairdeal.ui.launch import AppRunner

HEADLESS_TABLE_NAME = "fairdeal"


def configure(parser: argparse.ArgumentParser) -> None:
    from fairdeal.ui.commands import options

    options.add_game_argument(parser, "host")
    options.add_seats(
        parser,
        f"seats at the table: {options.seat_ranges(rulings=True)}",
        type=options.seats,
        required=True,
    )
    options.add_bots(
        parser, 0, "how many seats local bot peers take (default 0; friends take the rest)"
    )
    options.add_bot_kind(parser, per_seat=True)
    parser.add_argument("--headless", action="store_true", help="no screen: a bot plays seat 0")
    parser.add_argument(
        "--name",
        default=None,
        help=f"headless: the table's name on the LAN (default {HEADLESS_TABLE_NAME!r}); "
        "in the app: your name (the table is NAME's table)",
    )
    options.add_short(parser)
    options.add_game_options(parser)
    options.add_difficulty(parser, "default normal in the app; headless: flat out without it")
    options.add_claim_pace(parser, None, "default: none in the app, 0 headless")
    options.add_data_dir(parser)
    options.add_bind(parser)
    parser.add_argument(
        "--no-mdns",
        action="store_true",
        help="no mDNS: do not advertise (nor, in the app, look for tables)",
    )
    options.add_silence_limit(parser, 30.0)
    options.add_keep_waiting(parser)
    options.add_timeout(parser, None, "gathering the seats")


def check(args: argparse.Namespace) -> str | None:
    from fairdeal.ui.commands import options
    from fairdeal.ui.game_options import seats_problem

    problem = seats_problem(args.game, args.seats)
    if problem is not None:
        return f"--seats {args.seats}: {problem}"
    problem = options.game_options_problem(args, args.seats)
    if problem is not None:
        return problem
    if args.bots >= args.seats:
        return (
            f"--bots {args.bots}: a table of {args.seats} keeps a seat for you "
            f"(at most {args.seats - 1} bots)"
        )
    kinds = args.bot_kind.split(",")
    if len(kinds) > max(args.bots, 1):
        return f"--bot-kind lists {len(kinds)} kinds for {args.bots} bot seat(s)"
    return None


def run(args: argparse.Namespace) -> int:
    import asyncio

    from fairdeal.ui.commands.bot import run_table

    if args.headless:
        if args.name is None:
            args.name = HEADLESS_TABLE_NAME
        return asyncio.run(run_table(args, hosting=True))
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise SystemExit(
            "fairdeal host: the table screen needs a terminal (stdin and stdout); "
            "use --headless to host without a screen"
        )
    return run_app(args)


def run_app(args: argparse.Namespace, runner: AppRunner | None = None) -> int:
    """The Textual app on a table opened on the network: we take seat 0, `--bots` local bot
    peers sit down at once, friends take the other seats."""
    from fairdeal.engine.bots import DEFAULT_DIFFICULTY
    from fairdeal.ui.commands import options

    spec = options.table_spec(
        args,
        seats=args.seats,
        bots=args.bots,
        seat=0,
        claim_pace=args.pace,
        difficulty=args.difficulty or DEFAULT_DIFFICULTY,
        networked=True,
    )
    return options.open_app(
        args,
        spec,
        advertise=not args.no_mdns,
        silence_limit=args.silence_limit,
        gather_timeout=args.timeout,
        runner=runner,
    )
