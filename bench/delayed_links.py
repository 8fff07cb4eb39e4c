"""A network like a home Wi-Fi for `bench/game.py --link-delay`: every byte between two peers
passes a small user-space TCP relay that holds it for a while (this machine's kernel has no
netem to do it).

For each ordered pair of seats (a, b) a relay listens on loopback; seat a is told to reach
seat b there, and the relay connects on to b's real port. Each direction of each connection
holds every chunk it reads for a delay drawn anew, uniform in DELAY ± JITTER milliseconds, and
sends the chunks in the order read (a chunk never overtakes the one before it, as on one TCP
stream). The relays run in the bench's own process, on its event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Callable
from typing import Any

from fairdeal.p2p.table.tools.simulate import Simulation

HOST = "127.0.0.1"
CHUNK = 1 << 16


class DelayedLinks:
    """One relay per ordered pair of seats; `port(a, b)`: where seat a reaches seat b."""

    def __init__(self, seats: int, delay_ms: float, jitter_ms: float, seed: int = 0) -> None:
        if not 0 <= jitter_ms <= delay_ms:
            raise ValueError("the jitter is 0 to the delay")
        self.seats = seats
        self.delay = delay_ms / 1000
        self.jitter = jitter_ms / 1000
        self.rng = random.Random(seed)
        self.servers: dict[tuple[int, int], asyncio.Server] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.held: list[float] = []  # every delay drawn, seconds (for the report)

    def draw(self) -> float:
        held = self.rng.uniform(self.delay - self.jitter, self.delay + self.jitter)
        self.held.append(held)
        return held

    async def open(self, target: Callable[[int], int | None]) -> None:
        """Listen for every pair; `target(b)`: seat b's real port, asked when a seat dials."""
        for a in range(self.seats):
            for b in range(self.seats):
                if a != b:
                    self.servers[(a, b)] = await asyncio.start_server(
                        lambda r, w, b=b: self._relay(r, w, target(b)), HOST, 0
                    )

    def port(self, a: int, b: int) -> int:
        port: int = self.servers[(a, b)].sockets[0].getsockname()[1]
        return port

    async def _relay(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, port: int | None
    ) -> None:
        if port is None:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(HOST, port)
        except OSError:
            writer.close()
            return
        task = asyncio.current_task()
        assert task is not None
        self.tasks.add(task)
        try:
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        finally:
            self.tasks.discard(task)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def send() -> None:
            while True:
                due, data = await queue.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if not data:
                    break
                sink.write(data)
                await sink.drain()

        sender = loop.create_task(send())
        last = 0.0
        try:
            while data := await source.read(CHUNK):
                last = max(loop.time() + self.draw(), last)  # in order, as one TCP stream
                queue.put_nowait((last, data))
        except (ConnectionError, OSError):
            pass
        queue.put_nowait((last, b""))
        with contextlib.suppress(ConnectionError, OSError):
            await sender
        sink.close()

    async def close(self) -> None:
        for server in self.servers.values():
            server.close()
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class DelayedSimulation(Simulation):
    """`p2p.table.tools.simulate.Simulation` with every seat's links through `DelayedLinks`."""

    def __init__(self, peers: int, *args: Any, links: DelayedLinks, **kwargs: Any) -> None:
        if kwargs.get("watchers"):
            raise ValueError("watchers dial seats directly: not with delayed links")
        super().__init__(peers, *args, **kwargs)
        self.links = links

    async def start(self) -> None:
        await self.links.open(lambda seat: self.peers[seat].port)
        await super().start()

    def wire(self, seat: int, dial: str = "higher") -> None:
        addresses = [
            [HOST, self.links.port(seat, other) if other != seat else self.peers[seat].port]
            for other in range(len(self.peers))
        ]
        process = self.peers[seat].process
        assert process is not None and process.stdin is not None
        process.stdin.write((json.dumps({"addresses": addresses, "dial": dial}) + "\n").encode())

    async def run(self) -> dict[str, Any]:
        try:
            return await super().run()
        finally:
            await self.links.close()


def simulate_delayed(
    peers: int, directory: Any, delay_ms: float, jitter_ms: float, **kwargs: Any
) -> dict[str, Any]:
    """`simulate` over delayed links; the summary gains `link_delay_ms` (the delays drawn)."""
    links = DelayedLinks(peers, delay_ms, jitter_ms, seed=int(kwargs.get("seed", 0)))
    summary = asyncio.run(DelayedSimulation(peers, directory, links=links, **kwargs).run())
    held = sorted(links.held)
    summary["link_delay_ms"] = {
        "drawn": len(held),
        "min": round(held[0] * 1000, 2) if held else None,
        "median": round(held[len(held) // 2] * 1000, 2) if held else None,
        "max": round(held[-1] * 1000, 2) if held else None,
    }
    return summary
