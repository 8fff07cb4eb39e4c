"""A seat taken back near the game's end: the crash came after the last envelope reached the
others but before it reached this seat. The seat catches up from whoever is back and ends its
game; it does not wait for need answers from a seat that finished and never returns (a host's
bot whose transcript is already over is not taken back), which used to leave the rejoined seat
stuck for good. Nothing is signed while it waits, and nothing needs to be: the game is over."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.p2p.table.tools.audit import audit_many

from .support import identity, open_table, restart_seat
from .test_lost_records import records

pytestmark = pytest.mark.timeout(120)
SEED = 6


async def test_a_seat_rejoining_after_the_end_finishes_without_the_seats_that_left(
    tmp_path: Path,
) -> None:
    table = await open_table(3, tmp_path, seed=SEED)
    try:
        for peer in table.peers:
            await peer.finished(timeout=60)
        for seat in (0, 1):  # the host and its bot die together, after the end
            await table.peers[seat].close()
            await table.meshes[seat].close()
        path = table.transcript(0)
        data = path.read_bytes()
        kept = records(data)
        last_own = max(offset for offset, record in kept if record["k"] == "signed")
        applied_after = [o for o, r in kept if r["k"] == "applied" and o > last_own]
        assert len(applied_after) >= 2
        path.write_bytes(data[: applied_after[-2]])  # the host never got the last two entries
        host = await restart_seat(table, 0, tmp_path, seed=SEED)  # its bot is not taken back
        address = table.meshes[2].address
        assert address is not None
        await table.meshes[0].connect(*address, expected_peer=identity(2).key)
        await host.finished(timeout=30)
        assert host.table.over and host.table.fault is None
        assert host.recovery.recovering  # seat 1 never answered: nothing was signed meanwhile
    finally:
        await table.close()
    reports, disagreement = audit_many([table.transcript(s) for s in (0, 2)])
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
