"""`simulate --out` of an earlier run is refused clearly (it used to replace
that run's identities and hang until the timeout), and leaves the earlier run as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.p2p.table.tools.simulate import Simulation, SimulationError
from fairdeal.ui.cli import main


def snapshot(directory: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(directory)): p.read_bytes() for p in directory.rglob("*") if p.is_file()
    }


def test_simulate_into_an_earlier_run_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    Simulation(2, out, short=True)  # an earlier run's plan and identities
    before = snapshot(out)
    assert main(["simulate", "larry", "--peers", "2", "--short", "--out", str(out)]) == 1
    error = capsys.readouterr().err
    assert "holds an earlier simulation" in error and str(out) in error
    assert "Traceback" not in error
    assert snapshot(out) == before
    with pytest.raises(SimulationError):
        Simulation(2, out)


def test_an_empty_or_new_directory_is_fine(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    Simulation(2, tmp_path / "empty", short=True)
    Simulation(2, tmp_path / "new" / "dir", short=True)
