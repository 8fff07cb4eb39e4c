"""A seat on its way out flushes what it sent last, but never waits for good on a peer that
reads nothing: `Mesh.drain` waits until every peer has taken its bytes, so a peer that stops
reading kept a headless seat's last flush, its process and (for the app's local bots) the app's
close waiting for ever. `drain_within` gives up after its timeout (p2p/table/runtime/headless.py,
p2p/table/runtime/peer.py)."""

from __future__ import annotations

import asyncio

from tests.p2p.test_core_mesh import close_all, start_meshes

BOUND_S = 0.5
WAIT_S = 10.0


async def test_a_peer_that_reads_nothing_does_not_hold_the_last_flush() -> None:
    sender, reader = await start_meshes(2)
    try:
        await sender.connect(*reader.address, expected_peer=reader.identity.key)
        await reader.wait_for_peers([sender.identity.key], WAIT_S)
        channel = reader.channel(sender.identity.key)
        assert channel is not None
        channel._writer.transport.pause_reading()  # type: ignore[attr-defined]
        for _ in range(40):  # more than the sockets' buffers hold
            sender.send(reader.identity.key, {"t": "junk", "x": b"0" * 900_000})
        async with asyncio.timeout(WAIT_S):
            assert await sender.drain_within(BOUND_S) is False
        channel._writer.transport.resume_reading()  # type: ignore[attr-defined]
        async with asyncio.timeout(WAIT_S):
            assert await sender.drain_within(WAIT_S) is True  # read again: it all goes out
    finally:
        await close_all([sender, reader])


async def test_a_flush_that_goes_out_says_so() -> None:
    sender, reader = await start_meshes(2)
    try:
        await sender.connect(*reader.address, expected_peer=reader.identity.key)
        sender.send(reader.identity.key, {"t": "junk", "x": b"small"})
        assert await sender.drain_within(WAIT_S) is True
    finally:
        await close_all([sender, reader])
