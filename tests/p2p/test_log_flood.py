"""A flood of hostile connections does not flood the log (it wrote a line per
connection, 7 MB for a flood); every error is still counted and reported to the mesh."""

from __future__ import annotations

import asyncio
import logging

import pytest

from fairdeal.p2p.identity import Identity
from fairdeal.p2p.net.loglimit import DEFAULT_BURST, LogLimiter
from fairdeal.p2p.net.mesh import Mesh

FLOOD = 150


async def test_a_flood_of_hostile_connections_logs_a_bounded_number_of_lines(
    caplog: pytest.LogCaptureFixture,
) -> None:
    mesh = Mesh(Identity.generate("target", lambda n: b"\x05" * n))
    host, port = await mesh.start("127.0.0.1", 0)
    seen = asyncio.Event()
    errors: list[object] = []

    def count(error: object) -> None:
        errors.append(error)
        if len(errors) == FLOOD:
            seen.set()

    mesh.on_error(count)
    caplog.set_level(logging.INFO, logger="fairdeal")
    try:
        for _ in range(FLOOD):
            _reader, writer = await asyncio.open_connection(host, port)
            writer.write(b"\xff\xff\xff\xff")  # a length prefix above the handshake cap
            await writer.drain()
            writer.close()
        async with asyncio.timeout(30):
            await seen.wait()
    finally:
        await mesh.close()
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(errors) == FLOOD  # each one is still reported
    assert len(lines) <= 2 * DEFAULT_BURST, len(lines)  # handshake and mesh: a burst each


def test_the_limiter_says_how_many_lines_it_dropped(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    logger = logging.getLogger("fairdeal.test.limiter")
    limiter = LogLimiter(logger, burst=3, window=10.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="fairdeal.test.limiter"):
        for i in range(50):
            limiter.warning("bad thing %d", i)
        assert [r.getMessage() for r in caplog.records] == [f"bad thing {i}" for i in range(3)]
        now[0] = 11.0
        limiter.warning("bad thing %d", 50)
    messages = [r.getMessage() for r in caplog.records]
    assert messages[3] == "47 more such line(s) in the last 11 s were not logged"
    assert messages[4] == "bad thing 50"
