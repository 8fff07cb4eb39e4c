"""A fault is reported where its envelope stands in the file: its entry among the applied
records and the byte offset of its record (protocol.md 10.7). In The Lie's Phase 1 a claim is
opened one step after it was committed, so the fault of a claim of a card that is not on the
table (T3) is its author's step envelope that opens it, and the audit names that envelope's
place, not the commitment's nor the end of the step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack
import pytest

from fairdeal.engine.lie import Claim, LieOptions
from fairdeal.engine.lie.state import LieState
from fairdeal.p2p.games.lie.lockstep import Lockstep
from fairdeal.p2p.games.lie.table import STEP, LieTable
from fairdeal.p2p.table.tools.audit import audit_transcript

from .records import applied_indices, read_records
from .support import open_table, play_to_end

pytestmark = pytest.mark.timeout(120)
CHEATER = 1
NOT_ON_THE_TABLE = 10_000


class _KeepsItsCheat(Lockstep):
    def drop_stale_wishes(self, state: LieState) -> None:
        if self.wanted() != NOT_ON_THE_TABLE:  # an honest seat would drop it: keep the cheat
            super().drop_stale_wishes(state)


class _ClaimsACardNotOnTheTable(LieTable):
    """Its first claim is of a slot that is not on the table (T3), committed and then opened."""

    cheated = False

    def publish_action(self, action: Any, *, check: bool = True) -> None:
        if isinstance(action, Claim) and not self.cheated:
            self.cheated = True
            action, check = Claim(NOT_ON_THE_TABLE), False
        super().publish_action(action, check=check)

    lockstep_class = _KeepsItsCheat


def _frame_offsets(path: Path) -> list[int]:
    data, offsets, offset = path.read_bytes(), [], 0
    while offset < len(data):
        offsets.append(offset)
        offset += 4 + int.from_bytes(data[offset : offset + 4], "big")
    return offsets


def _opens(fields: list[Any], slot: int) -> bool:
    # the envelope fields (layout 2, protocol.md 4.2): [version, table, seat, seq, prev, kind, body]
    body = fields[6]
    return fields[5] == STEP and bool(body.get("open")) and slot in body["open"]["claims"]


async def test_a_phase_1_fault_is_reported_where_its_envelope_stands(tmp_path: Path) -> None:
    table = await open_table(
        2,
        tmp_path,
        LieOptions(rounds=1, hand_size=2),
        seed=21,
        tables={CHEATER: _ClaimsACardNotOnTheTable},
    )
    try:
        await play_to_end(table, timeout=30)  # a fault ends the game for every peer
        assert all(peer.table.fault is not None for peer in table.peers)
    finally:
        await table.close()
    honest = table.transcript(0)
    records = read_records(honest)
    applied = applied_indices(records)
    fields = [msgpack.unpackb(records[i]["d"], raw=False) for i in applied]
    at = next(k for k, f in enumerate(fields) if f[2] == CHEATER and _opens(f, NOT_ON_THE_TABLE))
    report = audit_transcript(honest)
    assert not report.verified and report.fault is not None
    assert report.fault.seat == CHEATER and "not on the table" in report.fault.what
    assert report.fault.entry == at
    assert report.fault.offset == _frame_offsets(honest)[applied[at]]
    assert f"at entry {at} at byte {report.fault.offset}" in str(report.fault)
