"""Reconnect: a peer process killed mid-hand (SIGKILL) and started again with the same identity
and data directory replays its transcript, catches up with the others, and the game completes;
every transcript audits and they agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.p2p.table.tools.simulate import Simulation

from .simulations import assert_transcripts_audit, leftovers_killed

pytestmark = pytest.mark.timeout(150)
VICTIM = 2


@pytest.mark.parametrize(("victim", "after_moves"), [(VICTIM, 6), (0, 1)])
async def test_a_peer_killed_mid_hand_restarts_catches_up_and_the_game_completes(
    tmp_path: Path, victim: int, after_moves: int
) -> None:
    simulation = Simulation(4, tmp_path / "sim", short=True, seed=5, timeout=120)
    with leftovers_killed(simulation):
        await simulation.start()
        await simulation.wait_for(victim, lambda p: p.moves >= after_moves)
        simulation.kill(victim)
        await simulation.restart(victim)
        summary = await simulation.finish()
    assert summary["result"] == "finished", summary
    assert summary["agree"]
    restarted = simulation.peers[victim]
    assert restarted.result is not None and restarted.result["over"]
    reports = assert_transcripts_audit(simulation)
    assert all(r.signed_roster for r in reports)  # the log opened with the signed roster
