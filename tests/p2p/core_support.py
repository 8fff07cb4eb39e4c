"""Helpers for the p2p core tests (test_core_*.py): deterministic identities, short timers."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import Ordering, Roster, TableLog, seat_order
from fairdeal.p2p.log.transcript import Transcript
from fairdeal.p2p.net.channel import ChannelConfig
from fairdeal.p2p.net.mesh import Mesh


def make_identity(index: int, name: str | None = None) -> Identity:
    return Identity.generate(name or f"peer{index}", random_bytes=lambda n: bytes([index + 1]) * n)


FAST = ChannelConfig(
    handshake_timeout=2.0, frame_timeout=0.3, keepalive_interval=0.5, idle_timeout=5.0
)


TABLE_ID = b"loopback-table"


@dataclass
class LoopbackPeer:
    seat: int
    mesh: Mesh
    sync: TableSync


def roster_of(count: int) -> Roster:
    return Roster(TABLE_ID, tuple(make_identity(i).key for i in range(count)))


async def start_table(
    count: int,
    transcripts: Path | None = None,
    ordering: Ordering | None = None,
) -> list[LoopbackPeer]:
    """`count` peers on 127.0.0.1, each dialling the later seats: a full mesh, one log each."""
    roster = roster_of(count)
    order = ordering or seat_order(list(range(count)))
    peers = []
    for seat in range(count):
        identity = make_identity(seat)
        mesh = Mesh(identity, FAST, accept_peer=lambda p, r=roster: r.seat_of(p.key) is not None)
        await mesh.start()
        transcript = (
            Transcript.create(transcripts / f"seat{seat}.transcript", roster, seat)
            if transcripts is not None
            else None
        )
        sync = TableSync(mesh, TableLog(roster, order), identity, seat, transcript)
        peers.append(LoopbackPeer(seat, mesh, sync))
    await connect_all(peers)
    return peers


async def connect_all(peers: list[LoopbackPeer]) -> None:
    for a in peers:
        for b in peers:
            if b.seat > a.seat and b.mesh.identity.key not in a.mesh.peers:
                assert b.mesh.address is not None
                await a.mesh.connect(*b.mesh.address, expected_peer=b.mesh.identity.key)
    for peer in peers:
        others = [p.mesh.identity.key for p in peers if p is not peer]
        await peer.mesh.wait_for_peers(others, timeout=5)


async def stop_table(peers: list[LoopbackPeer]) -> None:
    await asyncio.gather(*(peer.mesh.close() for peer in peers))
    for peer in peers:
        if peer.sync.transcript is not None:
            peer.sync.transcript.close()
