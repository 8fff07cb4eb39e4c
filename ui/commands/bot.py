"""`fairdeal bot [--table NAME | --peer HOST:PORT]`: join a table of Larry or The Lie on the LAN
as a bot, found by name over mDNS or dialled directly; the game and its options are the lobby's
(the bot agrees only to a game it has, with options that make one); logs every proof; prints
the result as one JSON line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fairdeal.p2p.identity import Identity
    from fairdeal.p2p.table.runtime.gather import Seated
    from fairdeal.p2p.table.tools.resume import ResumePoint

# play(seated, identity, data directory) -> the seat's result
Play = Callable[[Awaitable["Seated"], "Identity", Path], Awaitable[dict[str, Any]]]


def configure(parser: argparse.ArgumentParser) -> None:
    from fairdeal.ui.commands import options

    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", metavar="NAME", help="the table's name on the LAN (mDNS)")
    where.add_argument("--peer", metavar="HOST:PORT", help="the host's address and TCP port")
    options.add_data_dir(parser, "the bot's identity and transcripts (default: the per-user one)")
    options.add_bot_kind(parser, per_seat=False)
    parser.add_argument(
        "--name",
        dest="bot_name",
        default=None,
        help="the bot's name at the table, shown as NAME (bot) (default: the identity's name)",
    )
    options.add_difficulty(parser, "default: none, it grabs at --pace")
    options.add_claim_pace(parser, 0.0, "default 0: as fast as it can")
    options.add_bind(parser)
    options.add_silence_limit(parser, 30.0)
    options.add_keep_waiting(parser)
    options.add_timeout(parser, None, "finding, gathering or playing the table")


def check(args: argparse.Namespace) -> str | None:
    if args.peer is not None:
        from fairdeal.ui.table_factory import parse_address

        try:
            parse_address(args.peer)
        except ValueError as error:
            return f"--peer: {error}"
    return None


async def run_table(args: argparse.Namespace, hosting: bool) -> int:
    """Host (with local bots) or join, then play headless; print one JSON result per seat."""
    import asyncio
    import json
    import logging
    import sys

    from fairdeal.engine.bots import as_bot
    from fairdeal.p2p.identity import default_data_dir, load_or_create_identity
    from fairdeal.p2p.log.transcript import SecretStore
    from fairdeal.p2p.table.runtime.gather import find_table, join_lobby, open_lobby
    from fairdeal.p2p.table.runtime.local_bots import BOT_HOST, local_bots, play_seated
    from fairdeal.p2p.table.tools.rejoin import resume_seated, unfinished_table

    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s: %(message)s")
    data: Path = args.data_dir or default_data_dir()
    # A bot plays this seat: it says so at the table (the name is not saved in the identity).
    stored = load_or_create_identity(data)
    identity = stored.named(as_bot(getattr(args, "bot_name", None) or stored.name))
    timeout = args.timeout
    pace = args.pace or 0.0  # `host --headless` without --pace: its bots grab as fast as they can
    difficulty = args.difficulty  # None: they grab at `pace`

    async def report(flow: Awaitable[dict[str, Any]]) -> dict[str, Any]:
        result = await flow
        print(json.dumps(result), flush=True)
        return result

    def play(
        seated_coro: Awaitable[Seated], ident: Identity, directory: Path
    ) -> Awaitable[dict[str, Any]]:
        return report(
            play_seated(
                ident,
                seated_coro,
                directory,
                bot=args.bot_kind.split(",")[0],
                silence_limit=args.silence_limit,
                timeout=timeout,
                claim_pace=pace,
                difficulty=difficulty,
                keep_waiting=args.keep_waiting,
            )
        )

    if not hosting:
        target = None
        if args.peer:
            host, _, port = args.peer.rpartition(":")
            target = (host, int(port))
        # Run again after a crash: the seat this identity left at that table, taken back.
        point = unfinished_table(data, identity, host=target)
        if point is not None:
            seated = resume_seated(point, args.bind)
        else:
            if target is None:
                target = await find_table(args.table, timeout or 30.0)
            secrets = SecretStore(data / "secrets")  # a table id played here before is refused
            seated = join_lobby(identity, target[0], target[1], bind=args.bind, secrets=secrets)
        result = await play(seated, identity, data)
        return 0 if result["over"] and result["fault"] is None else 1

    point = unfinished_table(data, identity, seat=0)
    if point is not None:  # the host ran again after a crash: its seat and its bots' seats
        return await _resume_hosted(point, args, data, play)

    options = _table_options(args)
    address: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    host_flow = play(
        open_lobby(
            identity,
            args.seats,
            options,
            name=args.name,
            bind=args.bind,
            advertise=not args.no_mdns,
            on_address=address.set_result,
            timeout=timeout,
        ),
        identity,
        data,
    )
    host_task = asyncio.ensure_future(host_flow)
    bound_host, port = await address
    print(json.dumps({"listening": [bound_host, port]}), flush=True)  # for `bot --peer`
    named = args.bot_kind.split(",")
    kinds = [named[min(index, len(named) - 1)] for index in range(args.bots)]
    limit = args.silence_limit
    # The bots dial the host where it listens, and listen there too: `--bind 127.0.0.2` is
    # not reachable at 127.0.0.1.
    near = BOT_HOST if bound_host in ("0.0.0.0", "") else bound_host
    flows = local_bots(
        data,
        near,
        port,
        kinds,
        bind=near,
        silence_limit=limit,
        timeout=timeout,
        claim_pace=pace,
        difficulty=difficulty,
        keep_waiting=args.keep_waiting,
    )
    bots = [report(flow) for flow in flows]
    results = await asyncio.gather(host_task, *bots)
    return 0 if all(r["over"] and r["fault"] is None for r in results) else 1


def _table_options(args: argparse.Namespace) -> Any:
    """The options of the table `host --headless` opens (already checked by `host.check`)."""
    from fairdeal.ui.commands.options import number_choices
    from fairdeal.ui.game_options import game_options

    return game_options(
        args.game, seats=args.seats, short_game=args.short, numbers=number_choices(args)
    )


async def _resume_hosted(
    point: ResumePoint, args: argparse.Namespace, data: Path, play: Play
) -> int:
    """`host --headless` again after a crash: seat 0 listens on its old port and the local
    bots that sat at that table take their seats back too (they died with the host)."""
    import asyncio
    import json

    from fairdeal.p2p.table.runtime.local_bots import bot_directory, bot_identity
    from fairdeal.p2p.table.tools.rejoin import resume_seated, unfinished_table

    seated = await resume_seated(point, args.bind)
    print(json.dumps({"listening": list(seated.mesh.address or ()), "resumed": True}), flush=True)

    async def ready() -> Seated:
        return seated

    flows = [play(ready(), point.identity, data)]
    index = 0
    while bot_directory(data, index).is_dir():
        directory = bot_directory(data, index)
        bot = bot_identity(data, index)
        bot_point = unfinished_table(directory, bot, table=point.signed.roster.table_id)
        if bot_point is not None:
            flows.append(play(resume_seated(bot_point, args.bind), bot, directory))
        index += 1
    results = await asyncio.gather(*flows)
    return 0 if all(r["over"] and r["fault"] is None for r in results) else 1


def run(args: argparse.Namespace) -> int:
    import asyncio

    from fairdeal.p2p.lobby.session import LobbyClosed

    try:
        return asyncio.run(run_table(args, hosting=False))
    except LobbyClosed as error:  # say why, no traceback
        print(f"fairdeal bot: {error}", file=sys.stderr)
        return 1
    # Any other OSError (a read-only or full data directory, a dial that failed) is worded by
    # fairdeal.ui.cli.explain, the one place that says what to do about it.
