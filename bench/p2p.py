"""Network benchmarks on loopback: envelope latency across a mesh, handshake time, frames/s.

Usage (from the repository root):  .venv/bin/python bench/p2p.py [--quick] [--transcripts]
                                                    [--processes] [--rounds N] [--json PATH]

* latency: one peer signs an envelope; the time until every other peer has received, verified
  and applied it (p50, p99), for 4 and 8 peers, all peers in this one process on one event loop
  (so the receivers' work is serialised on one core: a pessimistic setting). Authors rotate in
  seat order; each envelope is sent after the previous one was applied everywhere. The CPU time
  per envelope (all peers together) is printed too: unlike the latency it does not depend on
  what else the machine is running.
  `--transcripts` also appends and fsyncs every applied envelope to a transcript file.
  `--processes` also runs each peer in its own process (timestamps from the system-wide
  monotonic clock), closer to a real table where every peer verifies in parallel.
* handshake: open_channel to a listening peer until the channel is ready (median).
* frames/s: small messages through one encrypted channel, sender to receiver.

Targets (bench/README.md, p2p.py): latency p50 ≤ 2 ms and p99 ≤ 10 ms with 8 peers. The
libsodium calibration and load average before and after, and the CPU other processes used meanwhile
(bench/calibration.py), are printed and written, with a warning when the machine was loaded.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import multiprocessing.connection
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from calibration import BenchRun

from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import Roster, TableLog, seat_order
from fairdeal.p2p.log.transcript import Transcript
from fairdeal.p2p.net.channel import ChannelServer, SecureChannel, open_channel
from fairdeal.p2p.net.mesh import Mesh

TARGET_P50_MS = 2.0
TARGET_P99_MS = 10.0


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def warm_latency(latencies: list[float]) -> dict[str, float]:
    """p50, p99 and max of the latencies after the first ones (a tenth, at most 20), which
    include connections and caches warming up."""
    warm = latencies[min(20, len(latencies) // 10) :]
    return {
        "p50_ms": statistics.median(warm),
        "p99_ms": percentile(warm, 0.99),
        "max_ms": max(warm),
        "samples": len(warm),
    }


async def mesh_latency(count: int, rounds: int, transcripts: Path | None) -> dict[str, float]:
    identities = [Identity.generate(f"bench{i}") for i in range(count)]
    roster = Roster(b"bench-table", tuple(identity.key for identity in identities))
    meshes = [Mesh(identity) for identity in identities]
    syncs = []
    for seat, mesh in enumerate(meshes):
        await mesh.start()
        transcript = (
            Transcript.create(transcripts / f"{count}-{seat}.transcript", roster, seat)
            if transcripts is not None
            else None
        )
        log = TableLog(roster, seat_order(list(range(count))))
        syncs.append(TableSync(mesh, log, identities[seat], seat, transcript))
    for a in range(count):
        for b in range(a + 1, count):
            address = meshes[b].address
            assert address is not None
            await meshes[a].connect(*address, expected_peer=identities[b].key)
    for seat, mesh in enumerate(meshes):
        await mesh.wait_for_peers([k for i, k in enumerate(roster.keys) if i != seat], 10)

    pending: dict[bytes, tuple[int, asyncio.Future[float]]] = {}

    def listener(envelope: Envelope) -> None:
        entry = pending.get(envelope.id)
        if entry is None:
            return
        remaining, future = entry
        remaining -= 1
        pending[envelope.id] = (remaining, future)
        if remaining == 0:
            future.set_result(time.perf_counter())

    for sync in syncs:
        sync.log.on_applied(listener)
    latencies = []
    loop = asyncio.get_running_loop()
    cpu_started = time.process_time()
    for n in range(rounds):
        author = syncs[n % count]
        future: asyncio.Future[float] = loop.create_future()
        started = time.perf_counter()
        envelope = author.log.author(author.identity, author.seat, "bench", {"n": n})
        pending[envelope.id] = (count, future)
        if author.transcript is not None:
            author.transcript.append_signed(envelope)
        author._take(envelope, "self")
        author.mesh.broadcast(envelope.to_wire())
        finished = await asyncio.wait_for(future, 5)
        latencies.append((finished - started) * 1000)
        del pending[envelope.id]
    cpu_ms = (time.process_time() - cpu_started) * 1000 / rounds
    await asyncio.gather(*(mesh.close() for mesh in meshes))
    for sync in syncs:
        if sync.transcript is not None:
            sync.transcript.close()
    return warm_latency(latencies) | {"cpu_ms_per_envelope": cpu_ms}


def _bench_identity(seat: int) -> Identity:
    return Identity.generate(f"bench{seat}", random_bytes=lambda n: bytes([seat + 1]) * n)


def _process_peer(seat: int, count: int, conn: Connection) -> None:
    """One peer in its own process, driven by the coordinator over `conn`."""
    asyncio.run(_process_peer_main(seat, count, conn))


async def _process_peer_main(seat: int, count: int, conn: Connection) -> None:
    loop = asyncio.get_running_loop()
    identity = _bench_identity(seat)
    roster = Roster(b"bench-table", tuple(_bench_identity(i).key for i in range(count)))
    mesh = Mesh(identity)
    _, port = await mesh.start()
    sync = TableSync(mesh, TableLog(roster, seat_order(list(range(count)))), identity, seat)
    sync.log.on_applied(
        lambda envelope: conn.send(("applied", envelope.body["n"], time.perf_counter_ns()))
    )
    conn.send(("port", port))
    while True:
        # a worker thread waits on the pipe: Windows's event loop cannot watch a pipe's fd
        command: tuple[Any, ...] = await loop.run_in_executor(None, conn.recv)
        if command[0] == "peers":
            for other, other_port in enumerate(command[1]):
                if other > seat:
                    await mesh.connect("127.0.0.1", other_port, roster.keys[other])
            await mesh.wait_for_peers([k for i, k in enumerate(roster.keys) if i != seat], 10)
            conn.send(("ready",))
        elif command[0] == "sign":
            started = time.perf_counter_ns()
            sync.publish("bench", {"n": command[1]})
            conn.send(("signed", command[1], started))
        else:
            break
    await mesh.close()


def mesh_latency_processes(count: int, rounds: int) -> dict[str, float]:
    """Like mesh_latency, but each peer is its own process (as on a real table, where every
    peer verifies in parallel; on this 2-core machine at most two at a time)."""
    context = multiprocessing.get_context("spawn")
    pipes = [context.Pipe() for _ in range(count)]
    processes = [
        context.Process(target=_process_peer, args=(seat, count, pipes[seat][1]), daemon=True)
        for seat in range(count)
    ]
    for process in processes:
        process.start()
    conns = [pipe[0] for pipe in pipes]
    ports = [conn.recv()[1] for conn in conns]
    for conn in conns:
        conn.send(("peers", ports))
    for conn in conns:
        assert conn.recv() == ("ready",)
    latencies = []
    for n in range(rounds):
        author = n % count
        conns[author].send(("sign", n))
        started = None
        applied_at = {}
        while started is None or len(applied_at) < count:
            for seat in range(count):
                while conns[seat].poll():
                    message = conns[seat].recv()
                    if message[0] == "signed":
                        started = message[2]
                    elif message[0] == "applied" and message[1] == n:
                        applied_at[seat] = message[2]
            if started is None or len(applied_at) < count:
                multiprocessing.connection.wait(conns, timeout=5)
        others = [t for seat, t in applied_at.items() if seat != author]
        latencies.append((max(others) - started) / 1e6)
    for conn in conns:
        conn.send(("stop",))
    for process in processes:
        process.join(10)
    return warm_latency(latencies)


async def handshake_time(repeats: int) -> dict[str, float]:
    server_identity, client_identity = Identity.generate("server"), Identity.generate("client")
    accepted: asyncio.Queue[SecureChannel] = asyncio.Queue()
    server = ChannelServer(server_identity, accepted.put)
    host, port = await server.start()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        channel = await open_channel(host, port, client_identity, expected_peer=server_identity.key)
        times.append((time.perf_counter() - started) * 1000)
        other = await accepted.get()
        await channel.close()
        await other.close()
    await server.close()
    return {"median_ms": statistics.median(times), "p99_ms": percentile(times, 0.99)}


async def frames_per_second(frames: int) -> dict[str, float]:
    server_identity, client_identity = Identity.generate("server"), Identity.generate("client")
    accepted: asyncio.Queue[SecureChannel] = asyncio.Queue()
    server = ChannelServer(server_identity, accepted.put)
    host, port = await server.start()
    sender = await open_channel(host, port, client_identity)
    receiver = await accepted.get()

    async def receive_all() -> None:
        for _ in range(frames):
            await receiver.recv()

    started = time.perf_counter()
    receiving = asyncio.ensure_future(receive_all())
    for n in range(frames):
        sender.send({"t": "bench", "n": n, "pad": b"\x00" * 64})
        if n % 256 == 0:
            await sender.drain()
    await sender.drain()
    await receiving
    elapsed = time.perf_counter() - started
    await sender.close()
    await receiver.close()
    await server.close()
    return {"frames_per_s": frames / elapsed, "frames": frames}


async def run(
    quick: bool, transcripts: bool, rounds: int | None = None, processes: bool = False
) -> dict[str, Any]:
    rounds = rounds or (200 if quick else 2000)
    figures: dict[str, Any] = {"transcripts": transcripts}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) if transcripts else None
        for count in (4, 8):
            figures[f"latency_{count}_peers"] = await mesh_latency(count, rounds, folder)
    if processes:
        loop = asyncio.get_running_loop()
        for count in (4, 8):
            figures[f"latency_{count}_processes"] = await loop.run_in_executor(
                None, mesh_latency_processes, count, rounds
            )
    figures["handshake"] = await handshake_time(50 if quick else 300)
    figures["channel"] = await frames_per_second(5000 if quick else 50000)
    eight = figures["latency_8_peers"]
    figures["targets_met"] = eight["p50_ms"] <= TARGET_P50_MS and eight["p99_ms"] <= TARGET_P99_MS
    return figures


def report(figures: dict[str, Any]) -> None:
    note = " (with fsync'd transcripts)" if figures["transcripts"] else ""
    for count in (4, 8):
        lat = figures[f"latency_{count}_peers"]
        print(
            f"sign → all applied, {count} peers{note}: p50 {lat['p50_ms']:.3f} ms, "
            f"p99 {lat['p99_ms']:.3f} ms, max {lat['max_ms']:.3f} ms ({lat['samples']} samples); "
            f"CPU {lat['cpu_ms_per_envelope']:.3f} ms per envelope for all {count} peers"
        )
    print(
        f"  target with 8 peers: p50 ≤ {TARGET_P50_MS} ms, p99 ≤ {TARGET_P99_MS} ms: "
        f"{'met' if figures['targets_met'] else 'NOT met'}"
    )
    for count in (4, 8):
        lat = figures.get(f"latency_{count}_processes")
        if lat is not None:
            print(
                f"sign → all applied, {count} peers in {count} processes: "
                f"p50 {lat['p50_ms']:.3f} ms, p99 {lat['p99_ms']:.3f} ms, "
                f"max {lat['max_ms']:.3f} ms"
            )
    hs = figures["handshake"]
    print(f"handshake: median {hs['median_ms']:.3f} ms, p99 {hs['p99_ms']:.3f} ms")
    print(f"channel: {figures['channel']['frames_per_s']:,.0f} frames/s (90-byte messages)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--transcripts", action="store_true", help="fsync a transcript per peer")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--rounds", type=int, help="envelopes per latency run (default 2000)")
    parser.add_argument(
        "--processes", action="store_true", help="also run each peer in its own process"
    )
    args = parser.parse_args()
    bench = BenchRun()
    figures = asyncio.run(run(args.quick, args.transcripts, args.rounds, args.processes))
    report(figures)
    return bench.conclude(figures, args.json, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
