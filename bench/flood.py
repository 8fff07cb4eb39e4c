"""What one seat can make an honest peer hold, write and send (protocol.md 4.4, 4.6, 10.4).

Usage (from the repository root):  .venv/bin/python bench/flood.py [--places 1024]
                                   [--equivocations 300] [--needs 2000] [--json PATH]

Four peers of a 4-seat Larry table's log (its envelope limits, p2p/table/core/sizes.py) on loopback,
each with its transcript and `.faults` file, in this one process; seat 3 is the griefer. After
a short honest log (200 envelopes of 1 KB) it tries, one after the other:

* **ahead**: it signs its next `--places` places with bodies near the 1 MiB frame cap, then as
  many with bodies at the largest legitimate size of a `deck` envelope, and sends them all to
  every honest peer;
* **equivocation**: `--equivocations` different envelopes for its next place, to every honest
  peer;
* **need**: `--needs` `need`s with `have = 0` to every honest peer, on one channel, then again
  on new channels (a redial each time).

For each flood it prints, per honest peer, the peak of the bytes held ahead (the log's buffer,
sampled after every envelope taken in), the faults and `.faults` bytes, the bytes sent in
answers to `need`s, the transcript's bytes, and the process's peak of Python memory over the
flood (tracemalloc, all peers together, minus what was held before it), with the bounds
protocol.md states. The process's peak RSS is printed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

from calibration import BenchRun

from fairdeal.engine.larry import LarryOptions
from fairdeal.p2p import platform
from fairdeal.p2p.deck import DeckSession
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.envelope import Envelope, sign_envelope
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import Roster, TableLog, seat_order
from fairdeal.p2p.log.transcript import Transcript
from fairdeal.p2p.net.framing import MAX_FRAME_SIZE
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.table.core.games import table_class_for
from fairdeal.p2p.table.runtime.evidence import EvidenceFile, evidence_path

SEATS = 4
GRIEFER = SEATS - 1
TABLE = b"flood-table-0001"


class Peer:
    def __init__(self, identity: Identity, roster: Roster, seat: int, directory: Path) -> None:
        options = LarryOptions(short_game=True)
        driver = table_class_for(options)(
            TABLE, SEATS, options, DeckSession.observer(TABLE, SEATS), None
        )
        self.limits = driver.envelope_limits()
        self.mesh = Mesh(identity)
        self.path = directory / f"seat{seat}.transcript"
        log = TableLog(roster, seat_order(list(range(SEATS))))
        log.limits = self.limits
        self.sync = TableSync(
            self.mesh, log, identity, seat, Transcript.create(self.path, roster, seat)
        )
        self.evidence = EvidenceFile(self.path, lambda error: None)
        log.on_fault(lambda f: self.evidence.keep(f.seat, f.kind, f.detail, f.evidence))
        self.peak_held = 0
        self.sync.on_update(self._sample)

    def held(self) -> int:
        return sum(self.sync.log.held_bytes(seat) for seat in self.sync.log.roster.seats)

    def _sample(self) -> None:
        self.peak_held = max(self.peak_held, self.held())

    def figures(self) -> dict[str, Any]:
        faults = evidence_path(self.path)
        return {
            "peak_held_ahead_bytes": self.peak_held,
            "faults": len(self.sync.log.faults),
            "faults_file_bytes": faults.stat().st_size if faults.exists() else 0,
            "transcript_bytes": self.path.stat().st_size,
            "need_answer_bytes": sum(self.sync.answers.sent_bytes.values()),
            "errors_reported": len(self.sync.mesh.errors),
        }


async def settle(peers: list[Peer]) -> None:
    """Until every peer has sent what it queued and nothing has changed for 0.15 s."""

    def state() -> tuple[int, ...]:
        return tuple(
            n
            for peer in peers
            for n in (
                peer.held(),
                len(peer.sync.log.entries),
                len(peer.sync.mesh.errors),
                peer.sync.duplicates,
                sum(peer.sync.answers.sent_bytes.values()),
            )
        )

    quiet, last = 0, None
    while quiet < 3:
        for peer in peers:
            await peer.mesh.drain()
        await asyncio.sleep(0.05)
        now = state()
        quiet, last = (quiet + 1, last) if now == last else (0, now)


async def connect_all(peers: list[Peer], ids: list[Identity]) -> list[tuple[str, int]]:
    addresses = [await peer.mesh.start("127.0.0.1", 0) for peer in peers]
    for i in range(SEATS):
        for j in range(i + 1, SEATS):
            await peers[i].mesh.connect(*addresses[j], expected_peer=ids[j].key)
    return addresses


def griefer_envelope(peer: Peer, identity: Identity, seq: int, kind: str, body: Any) -> Envelope:
    return sign_envelope(
        identity,
        table=TABLE,
        seat=GRIEFER,
        seq=seq,
        prev=peer.sync.log.head,
        kind=kind,
        body=body,
    )


async def flood(
    peers: list[Peer], griefer: Peer, envelopes: list[Envelope] | Any, honest: list[bytes]
) -> None:
    for envelope in envelopes:
        for key in honest:
            griefer.mesh.send(key, envelope.to_wire())
        await griefer.mesh.drain()
    await settle(peers)


def measure(name: str, peers: list[Peer], before: int, started: float) -> dict[str, Any]:
    _current, peak = tracemalloc.get_traced_memory()
    figures: dict[str, Any] = {
        "python_peak_over_flood_bytes": max(0, peak - before),
        "seconds": asyncio.get_event_loop().time() - started,
        "peers": [peer.figures() for peer in peers[:GRIEFER]],
    }
    worst = {k: max(p[k] for p in figures["peers"]) for k in figures["peers"][0]}
    figures["worst_peer"] = worst
    print(
        f"{name}: per honest peer at worst: held ahead {worst['peak_held_ahead_bytes']:,} B, "
        f"faults {worst['faults']}, .faults {worst['faults_file_bytes']:,} B, "
        f"answers to needs {worst['need_answer_bytes']:,} B, "
        f"transcript {worst['transcript_bytes']:,} B; "
        f"Python memory peak over the flood (all 4 peers) "
        f"{figures['python_peak_over_flood_bytes'] / 2**20:.1f} MiB; "
        f"{figures['seconds']:.1f} s"
    )
    return figures


async def run(places: int, equivocations: int, needs: int) -> dict[str, Any]:
    logging.disable(logging.ERROR)  # thousands of refusals, each reported: the figures only
    ids = [Identity.generate(f"seat {s}") for s in range(SEATS)]
    roster = Roster(TABLE, tuple(i.key for i in ids))
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as directory:
        peers = [Peer(ids[s], roster, s, Path(directory)) for s in range(SEATS)]
        griefer = peers[GRIEFER]
        honest = [ids[s].key for s in range(GRIEFER)]
        await connect_all(peers, ids)
        limits = peers[0].limits
        largest = max(limits.sizes.values())
        bound = SEATS * (limits.held_ahead + largest)
        figures["limits"] = {
            "caps": dict(limits.sizes),
            "default_cap": limits.default,
            "held_ahead_per_seat": limits.held_ahead,
            "held_ahead_bound_per_peer": bound,
        }
        print(
            f"limits at 4 Larry seats: held ahead per seat {limits.held_ahead:,} B; a peer holds "
            f"at most {bound:,} B ahead (seats x (budget + largest cap {largest:,} B))"
        )
        for n in range(200):  # a short honest log
            peers[n % SEATS].sync.publish("move", {"n": n, "pad": b"p" * 1000})
            await settle(peers[:1]) if n % 50 == 49 else await asyncio.sleep(0)
        await settle(peers)
        assert all(len(p.sync.log.entries) == 200 for p in peers), "the honest log did not settle"
        for peer in peers:
            peer.peak_held = 0

        next_seq = griefer.sync.log.next_seq(GRIEFER)
        tracemalloc.start()
        before, started = tracemalloc.get_traced_memory()[0], asyncio.get_event_loop().time()

        def ahead(first: int, size: int, kind: str, body_of: Any, count: int = places) -> Any:
            for seq in range(first, first + count):
                yield griefer_envelope(griefer, ids[GRIEFER], seq, kind, body_of(seq, size))

        huge = MAX_FRAME_SIZE - 4096  # refused one by one at once: 64 of them show it
        await flood(
            peers,
            griefer,
            ahead(next_seq + 1, huge, "move", lambda s, n: b"x" * n, min(places, 64)),
            honest,
        )
        shares = limits.sizes["deck.shares"] - 400

        def shares_body(seq: int, size: int) -> Any:
            return {"kind": "deck.shares", "seat": GRIEFER, "shares": [], "pad": b"s" * size}

        await flood(peers, griefer, ahead(next_seq + 1, shares, "deck", shares_body), honest)
        figures["ahead"] = measure("ahead", peers, before, started)

        tracemalloc.reset_peak()
        before, started = tracemalloc.get_traced_memory()[0], asyncio.get_event_loop().time()
        copies = (
            griefer_envelope(
                griefer, ids[GRIEFER], next_seq, "move", {"copy": k, "pad": b"e" * 3000}
            )
            for k in range(equivocations)
        )
        await flood(peers, griefer, copies, honest)
        figures["equivocation"] = measure("equivocation", peers, before, started)

        tracemalloc.reset_peak()
        before, started = tracemalloc.get_traced_memory()[0], asyncio.get_event_loop().time()
        need = {"t": "need", "table": TABLE, "have": [0] * SEATS}
        for _ in range(needs):
            for key in honest:
                griefer.mesh.send(key, need)
            await griefer.mesh.drain()
        await settle(peers)
        for _ in range(10):  # asked again on new channels: each starts afresh, the rate does not
            for peer in peers[:GRIEFER]:
                peer.sync.answers.channel_up(ids[GRIEFER].key)
            for key in honest:
                griefer.mesh.send(key, need)
            await settle(peers)
        figures["need"] = measure("need", peers, before, started)
        log_bytes = sum(len(e.signed) + len(e.signature) + 16 for e in peers[0].sync.log.entries)
        figures["need"]["log_bytes"] = log_bytes
        answered = figures["need"]["worst_peer"]["need_answer_bytes"]
        print(
            f"need: the log is {log_bytes:,} B; {needs} needs and 10 new channels cost each "
            f"honest peer at most {answered:,} B of answers (before: {needs + 10} x the log)"
        )
        tracemalloc.stop()
        for peer in peers:
            await peer.mesh.close()
            peer.sync.transcript.close()  # type: ignore[union-attr]
    peak = platform.current().peak_rss_mb()  # None where the OS does not report it
    figures["peak_rss_bytes"] = None if peak is None else round(peak * 2**20)
    print(f"peak RSS of the process (4 peers): {'unknown' if peak is None else f'{peak:.0f} MiB'}")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--places", type=int, default=1024, help="places signed ahead")
    parser.add_argument("--equivocations", type=int, default=300)
    parser.add_argument("--needs", type=int, default=2000)
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    bench = BenchRun()
    figures = asyncio.run(run(args.places, args.equivocations, args.needs))
    return bench.conclude(figures, args.json, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
