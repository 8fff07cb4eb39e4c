"""`fairdeal tables`: list the fairdeal tables advertised on the network, then exit."""

from __future__ import annotations

import argparse

DEFAULT_TIMEOUT_S = 2.0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT_S,
        metavar="S",
        help=f"seconds to listen for tables (default {DEFAULT_TIMEOUT_S:g})",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON array instead of text")
    from fairdeal.ui.commands.options import bind_address

    parser.add_argument(
        "--bind",
        dest="interface",
        type=bind_address,
        action="append",
        metavar="ADDR",
        help="look for tables only on this IP address of this machine (repeatable; "
        "127.0.0.1 for this machine alone; default: all of them)",
    )
    parser.add_argument(  # the older spelling
        "--interface", dest="interface", action="append", help=argparse.SUPPRESS
    )


def run(args: argparse.Namespace) -> int:
    import asyncio
    import json

    from fairdeal.p2p.lobby.discovery import discover_tables

    if args.timeout <= 0:
        raise SystemExit("fairdeal tables: --timeout must be positive")
    tables = asyncio.run(discover_tables(args.timeout, args.interface))
    if args.json:
        print(json.dumps([table.to_json() for table in tables], indent=2))
        return 0
    if not tables:
        print(f"no fairdeal tables found in {args.timeout:g} s")
        return 0
    rows = [
        (
            table.ad.name,
            table.ad.game,
            f"{table.ad.seats_taken}/{table.ad.seats_total}",
            table.ad.status,
            table.ad.host_key_text,
            f"{table.addresses[0]}:{table.port}",
        )
        for table in tables
    ]
    header = ("TABLE", "GAME", "SEATS", "STATUS", "HOST KEY", "ADDRESS")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        print("  ".join(cells).rstrip())
    return 0
