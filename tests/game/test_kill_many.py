"""Peers SIGKILLed together — two at once, or all four — restart from their
transcripts and secrets; the game completes and every transcript audits and agrees. (One peer
killed, the host among them, is tests/game/test_reconnect.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.p2p.table.audit import audit_many
from fairdeal.p2p.table.simulate import Simulation

pytestmark = [pytest.mark.timeout(200), pytest.mark.slow]


@pytest.mark.parametrize("victims", [(1, 2), (0, 1, 2, 3)], ids=["two-at-once", "all-four"])
async def test_peers_killed_together_restart_and_the_game_completes(
    tmp_path: Path, victims: tuple[int, ...]
) -> None:
    simulation = Simulation(4, tmp_path / "sim", short=True, seed=9, timeout=150)
    try:
        await simulation.start()
        await simulation.wait_for(victims[0], lambda p: p.moves >= 4)
        for victim in victims:
            simulation.kill(victim)
        for victim in victims:
            await simulation.restart(victim)
        summary = await simulation.finish()
    finally:
        for peer in simulation.peers:
            if peer.process is not None and peer.process.returncode is None:
                peer.process.kill()
    assert summary["result"] == "finished", summary
    assert summary["agree"]
    reports, disagreement = audit_many(simulation.transcripts())
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
