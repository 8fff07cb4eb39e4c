"""No tick storm at real speed (protocol.md 10.11.6): four bot processes claiming at a quick
pace sign a few heartbeats per claim. Answering every held heartbeat (the rule before) made
ticks answer ticks: with fast disks (tmpfs) 4 peers signed about 29 per claim, 6 peers about
77. Only claims, shares and heartbeats that acknowledge a claim are answered now."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairdeal.engine.lie import LieOptions
from fairdeal.p2p.table.simulate import Simulation

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]

TICKS_PER_CLAIM = 12  # 3 peers answer each claim, each share and each acknowledgement


@pytest.fixture
def fast_directory(tmp_path: Path) -> Iterator[Path]:
    """A directory on tmpfs where there is one: fsync costs nothing, so peers answer at once,
    which is where answering heartbeats with heartbeats never ends."""
    shm = Path("/dev/shm")
    if not shm.is_dir():
        yield tmp_path
        return
    with tempfile.TemporaryDirectory(dir=shm) as directory:
        yield Path(directory)


async def test_paced_claims_cost_a_few_heartbeats_each(fast_directory: Path) -> None:
    simulation = Simulation(
        4,
        fast_directory / "sim",
        options=LieOptions(rounds=1, hand_size=3),
        seed=21,
        timeout=100,
        claim_pace=0.2,
    )
    summary = await simulation.run()
    assert summary["result"] == "finished" and summary["agree"], summary
    claims = summary["claim_latency_ms"]["count"] + summary["void_claims"]
    assert claims >= 12
    assert summary["heartbeats"] <= TICKS_PER_CLAIM * claims, summary["heartbeats"]
