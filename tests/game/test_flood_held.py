"""A seat that signs far ahead at a real table, over loopback (protocol.md 4.4 step 4): every
honest peer holds at most the seat's budget of its envelopes, counted with the caps of the
table's game (TablePeer gives its log the driver's limits), and names that seat for the rest."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from fairdeal.p2p.log.envelope import sign_envelope

from .support import identity, open_table

pytestmark = pytest.mark.timeout(120)
GRIEFER = 2
FLOOD = 100


async def test_a_seat_signing_far_ahead_is_held_to_its_budget_at_every_honest_peer(
    tmp_path: Path,
) -> None:
    table = await open_table(3, tmp_path, bots=False)
    try:
        honest = table.peers[:GRIEFER]
        await table.meshes[GRIEFER].wait_for_peers([p.identity.key for p in honest], 30)
        for peer in honest:  # the setup is through: the game waits for a first move
            await peer.sync.wait_until(lambda peer=peer: peer.table.state is not None, 30)
        limits = honest[0].table.envelope_limits()
        assert all(peer.sync.log.limits == limits for peer in table.peers)
        log = honest[0].sync.log
        start = log.next_seq(GRIEFER) + 10
        body = {"type": "PlayFaceDown", "pad": b"p" * 4000}  # under the act's cap of 4096
        for seq in range(start, start + FLOOD):
            envelope = sign_envelope(
                identity(GRIEFER),
                table=log.roster.table,
                seat=GRIEFER,
                seq=seq,
                prev=log.head,
                kind="larry.act",
                body=body,
            )
            for peer in honest:
                table.meshes[GRIEFER].send(peer.identity.key, envelope.to_wire())
            await table.meshes[GRIEFER].drain()

        def held_ahead(peer) -> list[int]:  # type: ignore[no-untyped-def]
            return [e.seq for e in peer.sync.log.buffered if e.seat == GRIEFER and e.seq >= start]

        def refused(peer) -> list[str]:  # type: ignore[no-untyped-def]
            return [str(e) for e in peer.mesh.errors if "budget" in str(e)]

        for _ in range(200):
            if all(len(held_ahead(p)) + len(refused(p)) >= FLOOD for p in honest):
                break
            await asyncio.sleep(0.05)
        for peer in honest:
            assert 0 < peer.sync.log.held_bytes(GRIEFER) <= limits.held_ahead
            assert len(held_ahead(peer)) < FLOOD // 2  # ~45 of the 100 (4 KB each)
            lines = refused(peer)
            assert lines, [str(e) for e in peer.mesh.errors][:3]
            assert all(line.startswith(f"seat {GRIEFER} ") for line in lines)
    finally:
        await table.close()
