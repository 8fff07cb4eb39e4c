"""How long `fairdeal report` takes to write a table's page, against the audit of the same file,
and how big the page is.

    .venv/bin/python bench/report.py [TRANSCRIPT] [--data-dir DIR] [--runs 3] [--json FILE]

Without TRANSCRIPT it plays the target's game first, as bench/replay.py does: a full Larry game
(3 hands, L18) at 8 seats with `fairdeal simulate` (a few minutes), in a temporary directory.
Measured, wall clock, the two interleaved `--runs` times, medians quoted:

- audit_s: `audit_transcript` alone (every signature and proof checked, the whole game replayed);
- report_s: the page made and written (`write_report`: the replay's pass through the owner's
  eyes, which is the audit's own pass with the frames recorded, then the page rendered);
- the page's size.

Targets (ui/report/): report_s ≤ 2 × audit_s, the page under 500 KB. The libsodium calibration,
the load and the CPU other processes used are printed before and after (bench/calibration.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from calibration import BenchRun
from replay import record_game

from fairdeal.p2p.table.tools.audit import audit_transcript
from fairdeal.ui.report.write import write_report

TARGET_RATIO = 2.0
TARGET_KB = 500


def measure(transcript: Path, data: Path, runs: int, out: Path) -> dict[str, object]:
    audits: list[float] = []
    reports: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        report = audit_transcript(transcript)
        audits.append(time.perf_counter() - start)
        start = time.perf_counter()
        replay, page = write_report(transcript, out, data, force=True)
        reports.append(time.perf_counter() - start)
    if report.fault is not None:
        raise SystemExit(f"{transcript}: {report.fault.verdict}: {report.fault}")
    audit_s, report_s = statistics.median(audits), statistics.median(reports)
    return {
        "transcript": str(transcript),
        "seats": report.seats,
        "hands": report.hands,
        "doubts": report.doubts,
        "entries": report.entries,
        "transcript_kb": round(transcript.stat().st_size / 1024, 1),
        "own_eyes": replay.own_eyes,
        "audit_s": round(audit_s, 3),
        "report_s": round(report_s, 3),
        "ratio": round(report_s / audit_s, 2),
        "page_kb": round(page.stat().st_size / 1024, 1),
        "audit_runs_s": [round(x, 3) for x in audits],
        "report_runs_s": [round(x, 3) for x in reports],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transcript", nargs="?", type=Path)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    run = BenchRun()
    with tempfile.TemporaryDirectory() as temporary:
        transcript = args.transcript or record_game(Path(temporary))
        data = args.data_dir or transcript.parent
        figures = measure(transcript, data, args.runs, Path(temporary) / "report.html")
    for name, value in figures.items():
        print(f"{name:>16}: {value}")
    ratio, size = figures["ratio"], figures["page_kb"]
    assert isinstance(ratio, float) and isinstance(size, float)
    fast = "met" if ratio <= TARGET_RATIO else "NOT met"
    small = "met" if size < TARGET_KB else "NOT met"
    print(f"target: report ≤ {TARGET_RATIO:g} × audit ({fast}), page < {TARGET_KB} KB ({small})")
    return run.conclude(figures, args.json)


if __name__ == "__main__":
    sys.exit(main())
