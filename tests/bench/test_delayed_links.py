"""bench/delayed_links.py: the relays that make loopback a home Wi-Fi for bench/game.py hold
every byte at least the delay less the jitter each way, and keep a stream's bytes in order."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import ModuleType


async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    while data := await reader.read(1 << 16):
        writer.write(data)
        await writer.drain()
    writer.close()


def test_a_relay_holds_each_way_and_keeps_the_order(
    load_bench: Callable[[str], ModuleType],
) -> None:
    links_module = load_bench("delayed_links")

    async def run() -> tuple[float, bytes, list[float]]:
        server = await asyncio.start_server(echo, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        links = links_module.DelayedLinks(2, delay_ms=20, jitter_ms=5, seed=1)
        await links.open(lambda seat: port if seat == 1 else None)
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", links.port(0, 1))
            loop = asyncio.get_running_loop()
            started = loop.time()
            writer.write(b"x")
            await writer.drain()
            assert await reader.readexactly(1) == b"x"
            round_trip = loop.time() - started
            sent = b"".join(bytes([i % 256]) * 100 for i in range(300))
            for i in range(0, len(sent), 1000):  # many small chunks, each held anew
                writer.write(sent[i : i + 1000])
                await writer.drain()
            echoed = await reader.readexactly(len(sent))
            writer.close()
            return round_trip, echoed == sent and echoed, list(links.held)
        finally:
            await links.close()
            server.close()

    round_trip, echoed, held = asyncio.run(run())
    assert round_trip >= 2 * 0.015  # 20 ± 5 ms each way: at least 15 ms there and back
    assert echoed  # every byte, in the order sent
    assert held and all(0.015 <= h <= 0.025 for h in held)
