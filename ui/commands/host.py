"""`fairdeal host larry --seats N [--bots K] [--headless] [--name NAME]`: open a Larry table on
the LAN (mDNS), fill K seats with local bot peers and wait for players to take the others.
Headless, a bot plays the host's own seat and every doubt's verification is logged. Otherwise
the Textual app opens straight on the table, hosted exactly as the app's own "open a table on the
network" does (`TableSpec(networked=True)`), with you in seat 0."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fairdeal.ui.launch import AppRunner

HEADLESS_TABLE_NAME = "fairdeal"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=["larry", "lie"])
    parser.add_argument("--seats", type=int, required=True, help="seats at the table (2-8)")
    parser.add_argument("--bots", type=int, default=0, help="seats filled by local bot peers")
    parser.add_argument("--headless", action="store_true", help="no screen: a bot plays seat 0")
    parser.add_argument(
        "--name",
        default=None,
        help=f"headless: the table's name on the LAN (default {HEADLESS_TABLE_NAME!r}); "
        "in the app: your name (the table is NAME's table)",
    )
    parser.add_argument("--short", action="store_true", help="short game: one hand (L18)")
    parser.add_argument("--data", type=Path, default=None, help="data directory")
    parser.add_argument("--bind", default="0.0.0.0", help="address to listen on")
    parser.add_argument(
        "--no-mdns",
        action="store_true",
        help="no mDNS: do not advertise (nor, in the app, look for tables)",
    )
    parser.add_argument("--silence-limit", type=float, default=30.0, help="seconds")
    parser.add_argument("--timeout", type=float, default=None, help="give up after SECONDS")


def run(args: argparse.Namespace) -> int:
    import asyncio

    from fairdeal.ui.commands.bot import run_table
    from fairdeal.ui.table_factory import LIE_UNAVAILABLE

    if args.game != "larry":  # issue 10 brings networked Lie tables
        raise SystemExit(f"fairdeal host: {LIE_UNAVAILABLE}; try: fairdeal play --game lie")
    if not 2 <= args.seats <= 8 or not 0 <= args.bots < args.seats:
        raise SystemExit("fairdeal host: 2-8 seats, and fewer bots than seats")
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
    from fairdeal.ui.launch import run_app as launch
    from fairdeal.ui.table_factory import TableSpec

    spec = TableSpec(
        seats=args.seats, bots=args.bots, seat=0, short_game=args.short, networked=True
    )
    return launch(
        spec,
        data_dir=args.data,
        name=args.name,
        bind=args.bind,
        discovery=not args.no_mdns,
        advertise=not args.no_mdns,
        silence_limit=args.silence_limit,
        gather_timeout=args.timeout,
        runner=runner,
    )
