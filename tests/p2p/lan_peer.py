"""A peer process for the namespace tests: it reports what it does as JSON lines on stdout.

    python tests/p2p/lan_peer.py advertise --table-id HEX --name NAME --port N
    python tests/p2p/lan_peer.py browse --table-id HEX

Discovery uses the default (every real interface), as a player's laptop would. The process runs
until SIGTERM, then withdraws what it advertised.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from p2p.discovery import (
    TableAd,
    TableAdvertiser,
    TableBrowser,
    local_addresses,
    open_zeroconf,
)


def report(event: str, **fields: object) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


async def until_terminated() -> None:
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()


async def advertise(args: argparse.Namespace) -> None:
    aiozc = open_zeroconf()
    ad = TableAd(
        table_id=args.table_id,
        name=args.name,
        game=args.game,
        seats_taken=1,
        seats_total=args.seats,
        host_fingerprint=args.fingerprint,
    )
    advertiser = TableAdvertiser(aiozc, ad, port=args.port, addresses=local_addresses())
    await advertiser.start()
    report("advertised", instance=advertiser.instance, addresses=local_addresses())
    await until_terminated()
    await advertiser.close()
    await aiozc.async_close()


async def browse(args: argparse.Namespace) -> None:
    aiozc = open_zeroconf()
    browser = TableBrowser(aiozc)
    await browser.start()
    report("browsing")
    table = await browser.wait_for(lambda t: t.ad.table_id == args.table_id, args.timeout)
    report("found", table=table.to_json())
    await until_terminated()
    await browser.close()
    await aiozc.async_close()


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    advertise_parser = sub.add_parser("advertise")
    advertise_parser.add_argument("--table-id", required=True)
    advertise_parser.add_argument("--name", default="LAN table")
    advertise_parser.add_argument("--game", default="larry")
    advertise_parser.add_argument("--seats", type=int, default=3)
    advertise_parser.add_argument("--fingerprint", default="LAN-TEST")
    advertise_parser.add_argument("--port", type=int, default=47000)
    browse_parser = sub.add_parser("browse")
    browse_parser.add_argument("--table-id", required=True)
    browse_parser.add_argument("--timeout", type=float, default=15.0)
    args = parser.parse_args()
    asyncio.run(advertise(args) if args.mode == "advertise" else browse(args))


if __name__ == "__main__":
    main()
