"""Peers SIGKILLed together — two at once, or all four — restart from their
transcripts and secrets; the game completes and every transcript audits and agrees. (One peer
killed, the host among them, is tests/game/test_reconnect.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.p2p.table.tools.simulate import Simulation

from .simulations import assert_transcripts_audit, leftovers_killed

pytestmark = [pytest.mark.timeout(200), pytest.mark.slow]


@pytest.mark.parametrize("victims", [(1, 2), (0, 1, 2, 3)], ids=["two-at-once", "all-four"])
async def test_peers_killed_together_restart_and_the_game_completes(
    tmp_path: Path, victims: tuple[int, ...]
) -> None:
    simulation = Simulation(4, tmp_path / "sim", short=True, seed=9, timeout=150)
    with leftovers_killed(simulation):
        await simulation.start()
        await simulation.wait_for(victims[0], lambda p: p.moves >= 4)
        for victim in victims:
            simulation.kill(victim)
        for victim in victims:
            await simulation.restart(victim)
        summary = await simulation.finish()
    assert summary["result"] == "finished", summary
    assert summary["agree"]
    assert_transcripts_audit(simulation)
