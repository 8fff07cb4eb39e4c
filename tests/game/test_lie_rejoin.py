"""A peer of The Lie SIGKILLed during Phase 1 (claims in flight, T3) or during a
trick (T5) restarts from its transcript and secrets; the game completes and every transcript
audits and agrees. Real processes over loopback (p2p.table.tools.simulate), small hands,
one round."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.engine.lie import LieOptions
from fairdeal.p2p.log.transcript import load_transcript
from fairdeal.p2p.table.tools.simulate import Simulation

from .simulations import assert_transcripts_audit, leftovers_killed

pytestmark = [pytest.mark.timeout(150), pytest.mark.slow]

VICTIM = 1
HAND = 4


def acts_in(path: Path) -> int:
    return sum(1 for e in load_transcript(path).applied if e.kind == "lie.act")


@pytest.mark.parametrize("when", ["phase 1", "trick"])
async def test_a_peer_killed_and_restarted_finishes_the_game(tmp_path: Path, when: str) -> None:
    # A claim pace keeps Phase 1 going long enough to kill the victim in the middle of it.
    simulation = Simulation(
        3,
        tmp_path / "sim",
        options=LieOptions(rounds=1, hand_size=HAND),
        seed=11,
        timeout=100,
        claim_pace=0.1 if when == "phase 1" else 0.0,
    )
    victim = simulation.transcripts()[VICTIM]
    with leftovers_killed(simulation):
        await simulation.start()
        if when == "phase 1":
            await simulation.wait_for(VICTIM, lambda p: p.claimed >= 1)
        else:
            await simulation.wait_for(VICTIM, lambda p: p.moves >= 2)
        simulation.kill(VICTIM)
        await simulation.restart(VICTIM)  # waits for the killed process first
        # where the victim was when it died, by its own transcript (progress is printed as an
        # envelope applies, the transcript syncs once per turn of the loop: the kill may take
        # the newest applied record with it)
        assert (acts_in(victim) == 0) if when == "phase 1" else (acts_in(victim) >= 1)
        summary = await simulation.finish()
    assert summary["result"] == "finished" and summary["agree"], summary
    assert summary["claim_latency_ms"]["count"] >= 3 * HAND - HAND  # the victim's may be cut
    assert_transcripts_audit(simulation)
