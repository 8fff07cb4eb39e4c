"""Attack 2 in The Lie, over loopback: the cheater signs two different trick plays (T5) for one
seq and sends each to one seat only. The honest peers' relays make the two envelopes meet; both
stop naming the cheater with both envelopes as proof, keep them in their evidence files, and
the auditor reports it."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.engine.lie import LieOptions
from fairdeal.engine.lie.codec import to_data
from fairdeal.engine.lie.legal import legal_actions
from fairdeal.p2p.games.lie.table import ACT, LieTable
from fairdeal.p2p.table.runtime.peer import evidence_path
from fairdeal.p2p.table.tools.audit import audit_transcript

from .support import open_table

pytestmark = pytest.mark.timeout(120)
CHEATER = 0


class QuietInTricks(LieTable):
    """Plays Phase 1 as its bot likes, then leaves its tricks to the test."""

    def may_choose(self) -> bool:
        return self.simultaneous() and super().may_choose()


async def test_two_plays_for_one_place_sent_to_disjoint_seats_are_caught(tmp_path: Path) -> None:
    options = LieOptions(rounds=1, hand_size=3)  # type: ignore[call-arg]
    table = await open_table(3, tmp_path, options, seed=4, tables={CHEATER: QuietInTricks})
    cheater = table.peers[CHEATER]
    try:

        def its_go() -> bool:
            driver = cheater.table
            return not driver.simultaneous() and driver.my_turn()

        await cheater.sync.wait_until(its_go, timeout=90)
        actions = legal_actions(cheater.table.view())
        log = cheater.sync.log
        first = log.author(cheater.identity, CHEATER, ACT, to_data(actions[0]))
        # another play if it has one, else an envelope of another kind: the log finds the
        # double signature before any rule is checked
        second = (
            log.author(cheater.identity, CHEATER, ACT, to_data(actions[1]))
            if len(actions) > 1
            else log.author(cheater.identity, CHEATER, "lie.other", {})
        )
        assert first.seq == second.seq and first.signed != second.signed
        cheater.mesh.send(table.roster.keys[1], first.to_wire())
        cheater.mesh.send(table.roster.keys[2], second.to_wire())
        for peer in table.peers[1:]:
            await peer.finished(timeout=30)
            fault = peer.table.fault
            assert fault is not None and fault.seat == CHEATER
            if fault.what != "equivocation":  # its other envelope was refused first: a fault too
                assert ACT in fault.evidence or "lie.other" in fault.evidence
            proofs = [f for f in peer.sync.log.faults if f.kind == "equivocation"]
            assert [f.seat for f in proofs] == [CHEATER]
            assert {e.id for e in proofs[0].evidence} == {first.id, second.id}
            kept = evidence_path(table.transcript(peer.seat)).read_bytes()
            assert first.signature in kept and second.signature in kept
            report = audit_transcript(table.transcript(peer.seat))
            assert not report.verified and report.fault.seat == CHEATER
            assert report.fault.what in ("equivocation", fault.what)
    finally:
        await table.close()
