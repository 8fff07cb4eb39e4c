"""`fairdeal play`: open the Textual app on a table against local bots, ready to play.

`--lobby` opens the lobby instead; `--plain` plays in plain text (no Textual) on stdin/stdout.
"""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_BOT_DELAY = 0.6  # seconds a bot "thinks": long enough to follow the game


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seats", type=int, default=4, help="players at the table, 2-8 (L3)")
    parser.add_argument("--short", action="store_true", help="a short game: one hand (L18)")
    parser.add_argument("--seed", type=int, default=None, help="seed the deck and the bots")
    parser.add_argument(
        "--bots", choices=("heuristic", "random"), default="heuristic", help="how the bots play"
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=DEFAULT_BOT_DELAY,
        metavar="S",
        help=f"seconds a bot thinks before it moves (default {DEFAULT_BOT_DELAY:g})",
    )
    parser.add_argument("--lobby", action="store_true", help="open the lobby, not a table")
    parser.add_argument("--name", default=None, help="your name at the table")
    parser.add_argument("--data-dir", type=Path, default=None, help="where your identity lives")
    parser.add_argument(
        "--no-discovery", action="store_true", help="do not look for tables on the network"
    )
    parser.add_argument("--plain", action="store_true", help="plain text instead of the app")


def run(args: argparse.Namespace) -> int:
    from ui.table_factory import TableSpec

    spec = TableSpec(
        seats=args.seats,
        bots=args.seats - 1,
        short_game=args.short,
        seed=args.seed,
        bot_kind=args.bots,
        bot_delay=max(0.0, args.bot_delay),
    )
    try:
        spec.validate()
    except ValueError as error:
        raise SystemExit(f"fairdeal play: {error}") from None
    if args.plain:
        from ui.plain import play_plain

        return play_plain(spec)

    from dataclasses import replace

    from ui.app import FairdealApp
    from ui.player import load_player
    from ui.table_finder import FixedFinder, ZeroconfFinder

    player = load_player(args.data_dir, args.name)
    spec = replace(spec, name=player.name, fingerprint=player.fingerprint)
    app = FairdealApp(
        player,
        table=None if args.lobby else spec,
        finder=FixedFinder() if args.no_discovery else ZeroconfFinder(),
        table_defaults=spec,
    )
    app.run()
    return 0
