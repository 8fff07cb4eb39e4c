"""`fairdeal host larry --seats N [--bots K] [--headless] [--name NAME]`: open a Larry table on
the LAN (mDNS), fill K seats with local bot peers and wait for players to take the others.
Headless, a bot plays the host's own seat and every doubt's verification is logged."""

from __future__ import annotations

import argparse
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=["larry"])
    parser.add_argument("--seats", type=int, required=True, help="seats at the table (2-8)")
    parser.add_argument("--bots", type=int, default=0, help="seats filled by local bot peers")
    parser.add_argument("--headless", action="store_true", help="no screen: a bot plays seat 0")
    parser.add_argument("--name", default="fairdeal", help="the table's name on the LAN")
    parser.add_argument("--short", action="store_true", help="short game: one hand (L18)")
    parser.add_argument("--data", type=Path, default=None, help="data directory")
    parser.add_argument("--bind", default="0.0.0.0", help="address to listen on")
    parser.add_argument("--no-mdns", action="store_true", help="do not advertise by mDNS")
    parser.add_argument("--silence-limit", type=float, default=30.0, help="seconds")
    parser.add_argument("--timeout", type=float, default=None, help="give up after SECONDS")


def run(args: argparse.Namespace) -> int:
    import asyncio

    from ui.commands.bot import run_table

    if not 2 <= args.seats <= 8 or not 0 <= args.bots < args.seats:
        raise SystemExit("fairdeal host: 2-8 seats, and fewer bots than seats")
    if not args.headless:
        raise SystemExit(
            "fairdeal host: the table screen is not part of this build; use --headless"
        )
    return asyncio.run(run_table(args, hosting=True))
