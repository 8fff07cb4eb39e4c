"""bench/p2p.py still runs (a few samples; its figures are read by people, not asserted)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "p2p.py"


def test_bench_quick_run_writes_every_figure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(BENCH.parent))  # it imports bench/calibration.py
    spec = importlib.util.spec_from_file_location("bench_p2p", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = tmp_path / "p2p.json"
    monkeypatch.setattr(
        "sys.argv", ["p2p.py", "--quick", "--transcripts", "--json", str(out), "--rounds", "30"]
    )
    assert bench.main() == 0
    figures = json.loads(out.read_text())
    for count in (4, 8):
        latency = figures[f"latency_{count}_peers"]
        assert 0 < latency["p50_ms"] <= latency["p99_ms"] <= latency["max_ms"]
    assert figures["handshake"]["median_ms"] > 0
    assert figures["channel"]["frames_per_s"] > 0
    assert figures["transcripts"] is True
    assert figures["calibration_before"]["mul_us"] > 0  # the load is written with the figures
    assert "loaded_warning" in figures
