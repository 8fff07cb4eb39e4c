"""Bot peers this process runs to fill seats of a table it hosts.

Used by `fairdeal host --bots K` and by a table opened in the app with bots. Each bot has its own
identity and data directory (DATA/bots/INDEX), joins the lobby like any guest and plays
headless (fairdeal.p2p.table.runtime.headless), so a bot seat is checked by every peer exactly like
a human's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from fairdeal.engine.bots import bot_name
from fairdeal.p2p.identity import Identity, load_or_create_identity
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.table.runtime.gather import Seated, join_lobby
from fairdeal.p2p.table.runtime.headless import play_headless

BOT_HOST = "127.0.0.1"  # where local bots reach the host and listen, unless told otherwise


def bot_directory(data: Path, index: int) -> Path:
    return data / "bots" / str(index)


def bot_identity(data: Path, index: int) -> Identity:
    """The identity of local bot `index` (created on first use, kept for the next table)."""
    return load_or_create_identity(bot_directory(data, index), name=bot_name(index))


async def play_seated(
    identity: Identity,
    seated: Awaitable[Seated],
    data: Path,
    *,
    bot: str = "heuristic",
    silence_limit: float = 30.0,
    timeout: float | None = None,
    bot_delay: float = 0.0,
    claim_pace: float = 0.0,
    difficulty: str | None = None,
    keep_waiting: bool = False,
) -> dict[str, Any]:
    """Wait for a seat, play it headless with `bot` to the end, close the table; the result."""
    table = await seated
    try:
        result = await play_headless(
            identity,
            table,
            data,
            bot=bot,
            silence_limit=silence_limit,
            timeout=timeout,
            bot_delay=bot_delay,
            claim_pace=claim_pace,
            difficulty=difficulty,
            keep_waiting=keep_waiting,
        )
    finally:
        await table.close()  # its mesh, and a host's advertisement of the table playing
    result.pop("peer")
    return result


def local_bots(
    data: Path,
    host: str,
    port: int,
    kinds: Sequence[str],
    *,
    bind: str = BOT_HOST,
    silence_limit: float = 30.0,
    timeout: float | None = None,
    bot_delay: float = 0.0,
    claim_pace: float = 0.0,
    difficulty: str | None = None,
    keep_waiting: bool = False,
) -> list[Coroutine[Any, Any, dict[str, Any]]]:
    """One flow per bot (`kinds[i]` for bot i): join the lobby at host:port, play, the result.
    `bot_delay`: seconds each bot thinks before a move, so that people at the table can follow;
    `claim_pace`: seconds between its claims in The Lie's Phase 1 (T3); `difficulty`: its
    choices and human-like reaction times there instead (p2p/table/runtime/reaction.py);
    `keep_waiting`: for a seat that left, rather than end the table
    (p2p/table/runtime/headless.py)."""
    flows = []
    for index, kind in enumerate(kinds):
        identity = bot_identity(data, index)
        flows.append(
            play_seated(
                identity,
                join_lobby(
                    identity,
                    host,
                    port,
                    bind=bind,
                    secrets=SecretStore(bot_directory(data, index) / "secrets"),
                ),
                bot_directory(data, index),
                bot=kind,
                silence_limit=silence_limit,
                timeout=timeout,
                bot_delay=bot_delay,
                claim_pace=claim_pace,
                difficulty=difficulty,
                keep_waiting=keep_waiting,
            )
        )
    return flows
