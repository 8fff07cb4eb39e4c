"""A simulated seat starts its table only once its channels to every seat are up, as a lobby's
seat does (p2p/lobby/session.py, `form_mesh`), so the table's setup waits on no handshake; the
connecting is reported apart (`mesh_seconds`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fairdeal.p2p.table.tools.simulate import Simulation


def test_every_seat_starts_its_table_connected_to_every_other_seat(tmp_path: Path) -> None:
    simulation = Simulation(3, tmp_path / "sim", short=True, seed=1, timeout=120)
    summary = asyncio.run(simulation.run())
    assert summary["result"] == "finished" and summary["agree"]
    started = [
        next(line for line in peer.lines if line.get("table") == "started")
        for peer in simulation.peers
    ]
    assert [line["connected"] for line in started] == [2, 2, 2]
    assert summary["mesh_seconds"] > 0
