"""bench/report.py times the page against the audit of the same file and weighs the page."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

REPLAYS = Path(__file__).resolve().parents[1] / "ui" / "replays"


def test_the_bench_measures_the_report_against_the_audit(
    tmp_path: Path, load_bench: Callable[[str], ModuleType]
) -> None:
    bench = load_bench("report")
    shutil.copy(REPLAYS / "larry" / "table.transcript", tmp_path)
    shutil.copy(REPLAYS / "larry" / "secrets", tmp_path)
    (tmp_path / "secrets").chmod(0o600)
    out = tmp_path / "page.html"
    figures = bench.measure(tmp_path / "table.transcript", tmp_path, 1, out)
    assert figures["own_eyes"] is True and figures["seats"] == 4
    assert figures["page_kb"] == round(out.stat().st_size / 1024, 1) > 0
    assert abs(figures["ratio"] - figures["report_s"] / figures["audit_s"]) < 0.05
