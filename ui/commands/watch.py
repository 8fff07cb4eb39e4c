"""`fairdeal watch HOST:PORT [--plain] [--data-dir DIR]`: follow a table you have no seat at.

Connects to a seated peer (protocol.md 4.8), receives the table's log as it grows and checks
every signature and proof itself; the app shows the public table live on the replay's screen,
following the end (← → and the other replay keys move back and on; End follows again).
`--plain` prints each step as it comes and ends with the game. A refusal (the table has its 8
watchers) or a fault is one line on stderr, exit 1. When the seat watched through goes away
mid-game, watching goes on through another seat of the table (protocol.md 4.8) and stderr says
so; a game that cannot be followed to its end ends "unfinished", exit 1.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fairdeal.p2p.table.tools.watch import WatchClient
    from fairdeal.ui.launch import AppRunner


def configure(parser: argparse.ArgumentParser) -> None:
    from fairdeal.ui.commands import options

    parser.add_argument("address", metavar="HOST:PORT", help="where a seated peer listens")
    options.add_data_dir(parser, "your identity (default: the per-user data directory)")
    parser.add_argument("--plain", action="store_true", help="print the game as text")
    options.add_timeout(parser, 3600.0, "the watching")


def check(args: argparse.Namespace) -> str | None:
    from fairdeal.ui.table_factory import parse_address

    try:
        parse_address(args.address)
    except ValueError as error:
        return str(error)
    return None


def run(args: argparse.Namespace, runner: AppRunner | None = None) -> int:
    from fairdeal.p2p.identity import load_or_create_identity
    from fairdeal.p2p.table.tools.watch import WatchClient
    from fairdeal.ui.table_factory import parse_address

    host, port = parse_address(args.address)
    identity = load_or_create_identity(args.data_dir)
    if args.plain:
        return asyncio.run(_plain(WatchClient(identity), host, port, args.timeout))
    if runner is None and not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("fairdeal watch: the table screen needs a terminal (or use --plain)", file=sys.stderr)
        return 1
    from fairdeal.ui.watch_app import WatchApp

    app = WatchApp(WatchClient(identity), host, port)
    (runner or WatchApp.run)(app)
    return 0


async def _plain(client: WatchClient, host: str, port: int, timeout: float) -> int:
    from fairdeal.p2p.table.tools.watch import WatchRefused, why_not
    from fairdeal.ui.replay_story import StoryTeller

    try:
        replay = await client.connect(host, port)
    except (WatchRefused, OSError, TimeoutError) as error:
        print(f"fairdeal watch: {why_not(error, host, port)}", file=sys.stderr)
        await client.close()
        return 1
    teller = StoryTeller(replay)
    printed = 0

    def show() -> None:
        nonlocal printed
        # the last frame may still take events: print a step once the next one has begun
        while replay.fault is None and printed < len(replay.frames) - 1:
            for line in teller.lines(printed):
                print(line, flush=True)
            printed += 1

    client.on_update(show)
    client.on_notice(lambda text: print(f"fairdeal watch: {text}", file=sys.stderr, flush=True))
    try:
        await client.follow(timeout)
    except TimeoutError:
        print(f"fairdeal watch: still playing after {timeout:.0f} s", file=sys.stderr)
    finally:
        await client.close()
    if replay.fault is not None:
        print(f"fairdeal watch: {replay.fault.verdict}: {replay.fault}", file=sys.stderr)
        return 1
    if client.stopped is not None:
        print(f"fairdeal watch: {client.stopped}", file=sys.stderr)
        return 1
    while printed < len(replay.frames):
        for line in teller.lines(printed):
            print(line, flush=True)
        printed += 1
    checked = f"watched {replay.report.entries} entries, every signature and proof checked"
    if not client.ended:  # the seats went away (or the timeout came) before the game's end
        print(f"{checked}; the game is unfinished")
        return 1
    print(checked)
    return 0
