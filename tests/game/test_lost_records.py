"""A seat whose disk dropped its last writes (its own signed envelopes among
them, which the others hold) restarts, takes its own envelopes back from the others before it
signs anything, and is never branded a rule-breaker for it: the game completes and every
transcript audits."""

from __future__ import annotations

import struct
from pathlib import Path

import msgpack
import pytest

from fairdeal.p2p.table.tools.audit import audit_many

from .support import open_table, rejoin_seat

pytestmark = pytest.mark.timeout(120)
VICTIM = 1


def records(data: bytes) -> list[tuple[int, dict]]:
    out, offset = [], 0
    while offset < len(data):
        (length,) = struct.unpack_from(">I", data, offset)
        out.append((offset, msgpack.unpackb(data[offset + 4 : offset + 4 + length], raw=False)))
        offset += 4 + length
    return out


@pytest.mark.parametrize("lost", [1, 8, 13])
async def test_a_seat_that_lost_its_last_records_recovers_them_from_the_others(
    tmp_path: Path, lost: int
) -> None:
    table = await open_table(3, tmp_path, seed=4, silence_limit=60.0)
    try:
        victim = table.peers[VICTIM]
        await victim.sync.wait_until(lambda: victim.table.applied >= 45, timeout=60)
        await victim.close()  # the crash
        await table.meshes[VICTIM].close()
        path = table.transcript(VICTIM)
        data = path.read_bytes()
        own = [offset for offset, record in records(data) if record["k"] == "signed"]
        path.write_bytes(data[: own[-lost]])  # the disk kept nothing after these

        await rejoin_seat(table, VICTIM, tmp_path, seed=4)
        for peer in table.peers:
            await peer.finished(timeout=60)
            assert peer.table.fault is None, peer.table.fault
            # the restart is behind every seat: no pump asks its bookkeeping any more
            assert peer.pump.recovery is None
    finally:
        await table.close()
    reports, disagreement = audit_many([table.transcript(s) for s in range(3)])
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
