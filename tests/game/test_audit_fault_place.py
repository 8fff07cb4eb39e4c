"""In The Lie's Phase 1 an envelope applies only once it is stable, after envelopes that stand
after it in the file; a fault it carries is reported where it stands (its entry and the byte
offset of its record), not at the envelope whose arrival made it stable (protocol.md 10.7)."""

from __future__ import annotations

from pathlib import Path

import msgpack
import pytest

from fairdeal.engine.lie import Claim, LieOptions
from fairdeal.p2p.log.transcript import Transcript
from fairdeal.p2p.table.audit import audit_transcript
from fairdeal.p2p.table.driver import Publish
from fairdeal.p2p.table.lie import CLAIM, TICK, LieTable

from .lie_sansio import LieSansIO, quick_options
from .support import open_table, play_to_end
from .test_audit import applied_indices, read_records

pytestmark = pytest.mark.timeout(120)
CHEATER = 1


class _ClaimsACardNotOnTheTable(LieTable):
    """With its first claim it also signs a claim of a slot that is not on the table (T3)."""

    cheated = False

    def publish_action(self, action: object, *, check: bool = True) -> None:
        super().publish_action(action, check=check)  # type: ignore[arg-type]
        if isinstance(action, Claim) and not self.cheated:
            self.cheated = True
            self.outbox.append(Publish(CLAIM, {"slot": 10_000, "side": "left"}))


def _frame_offsets(path: Path) -> list[int]:
    data, offsets, offset = path.read_bytes(), [], 0
    while offset < len(data):
        offsets.append(offset)
        offset += 4 + int.from_bytes(data[offset : offset + 4], "big")
    return offsets


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
    # Its own transcript records its claim when it signed it, before seat 0's envelopes that
    # made it stable; the audit applies it after them.
    cheater = table.transcript(CHEATER)
    records = read_records(cheater)
    applied = applied_indices(records)
    bodies = [msgpack.unpackb(records[i]["d"], raw=False) for i in applied]
    # the envelope fields: [version, table, seat, seq, lamport, prev, kind, body]
    at = next(k for k, f in enumerate(bodies) if f[6] == CLAIM and f[7].get("slot") == 10_000)
    report = audit_transcript(cheater)
    assert not report.verified
    assert report.fault.seat == CHEATER and "not on the table" in report.fault.what
    assert report.fault.entry == at
    assert report.fault.offset == _frame_offsets(cheater)[applied[at]]
    assert f"at entry {at} at byte {report.fault.offset}" in str(report.fault)


def test_a_fault_that_waits_for_a_later_envelope_is_placed_where_it_stands(
    tmp_path: Path,
) -> None:
    """Seat 0's bad claim stands before seat 1's tick and becomes stable only when that tick is
    read (10.11.2): the fault is placed at the claim (the old audit placed it at the tick)."""
    net = LieSansIO(3, quick_options(hand_size=2), seed=12)
    net.run(claims=lambda _s, _t: None, until=lambda n: all(t.can_claim() for t in n.tables))
    net.deliver_all()
    entries = list(net.logs[0].entries)
    bad = net.sign(0, CLAIM, {"slot": 10_000, "side": "left"})
    tick = net.sign(1, TICK, {})
    last_of_1 = max(e.lamport for e in entries if e.seat == 1)
    # the claim waits for seat 1: seat 1's last envelope had not seen as far (4.5)
    assert (last_of_1 + 1, 1) < (bad.lamport, 0) < (tick.lamport, 1)
    path = tmp_path / "waits.transcript"
    transcript = Transcript.create(path, net.roster, 2, {})
    for envelope in [*entries, bad, tick]:
        transcript.append_applied(envelope)
    transcript.close()
    report = audit_transcript(path)
    assert report.fault is not None and report.fault.seat == 0
    assert "not on the table" in report.fault.what
    assert report.fault.entry == len(entries)  # the claim's place, not the tick's
    assert report.fault.offset == _frame_offsets(path)[len(entries) + 1]  # after the header
