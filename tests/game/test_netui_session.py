"""p2p.table.tools.session without a screen: gathering, failing to gather, leaving before the
start."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from fairdeal.engine.larry import Doubt, IllegalAction, LarryOptions
from fairdeal.p2p.table.core.api import Notice
from fairdeal.p2p.table.tools.session import _bot_kinds, host_table, join_table

from .loopback import loopback_settings, short_host

WAIT_S = 20.0


def dead_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def test_a_join_nobody_answers_ends_the_session_with_the_reason(tmp_path: Path) -> None:
    session = join_table(
        host="127.0.0.1", port=dead_port(), name="Tess", settings=loopback_settings(tmp_path)
    )
    await session.start()
    async with asyncio.timeout(WAIT_S):
        seen = [event async for event in session.events()]  # ends when the session gives up
    assert all(isinstance(event, Notice) for event in seen)
    assert "Could not sit down" in seen[-1].text  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="still being set up"):
        await session.act(Doubt())
    await session.close()


async def test_leaving_a_table_before_it_starts_stops_listening(tmp_path: Path) -> None:
    """Nobody may sit at a lobby whose host has left (fairdeal.p2p.table.runtime.gather closes its
    mesh)."""
    session = short_host(tmp_path, seats=3, bots=1)
    assert [seat.name for seat in session.seats] == ["Tess", "(open seat)", "(open seat)"]
    await session.start()
    await session.wait_for(lambda: session.address is not None, WAIT_S)
    assert session.address is not None
    host, port = session.address
    await session.wait_for(lambda: session.event_count > 0, WAIT_S)
    assert "waiting for 1 friend" in session.history.events[0].text  # type: ignore[union-attr]
    _, writer = await asyncio.open_connection(host, port)  # open while the table gathers
    writer.close()
    await session.close()
    with pytest.raises(ConnectionRefusedError):
        await asyncio.open_connection(host, port)


def test_bad_tables_are_refused_and_bot_kinds_are_given_per_seat(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="2 to 8"):
        host_table(
            seats=9, bots=1, options=LarryOptions(), name="T", settings=loopback_settings(tmp_path)
        )
    with pytest.raises(ValueError, match="fewer bots"):
        host_table(
            seats=3, bots=3, options=LarryOptions(), name="T", settings=loopback_settings(tmp_path)
        )
    with pytest.raises(ValueError, match="negative"):
        host_table(
            seats=3,
            bots=1,
            options=LarryOptions(),
            name="T",
            bot_delay=-0.5,
            settings=loopback_settings(tmp_path),
        )
    assert _bot_kinds("heuristic, random", 3) == ["heuristic", "random", "heuristic"]
    assert _bot_kinds("random", 2) == ["random", "random"]


async def test_the_local_bot_peers_are_given_the_tables_bot_delay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app's bot delay reaches the bot peers a hosted table starts (they think as long as
    the bots of a local table)."""
    import fairdeal.p2p.table.tools.session as table_session

    asked: list[dict[str, object]] = []
    started = asyncio.Event()

    def local_bots(*_: object, **arguments: object) -> list[object]:
        asked.append(arguments)
        started.set()
        return []  # no bot joins: the test only looks at what they were given

    monkeypatch.setattr(table_session, "local_bots", local_bots)
    session = short_host(tmp_path, seats=3, bots=2, bot_delay=0.6)
    await session.start()
    async with asyncio.timeout(WAIT_S):
        await started.wait()
    await session.close()
    (arguments,) = asked
    assert arguments["bot_delay"] == 0.6
