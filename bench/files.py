"""What reading transcripts costs: `fairdeal audit` and `fairdeal resume`'s checks, bounded.

Usage (from the repository root):  .venv/bin/python bench/files.py [--transcript FILE]
                                                                    [--json PATH]

Each measurement runs in a fresh child process (so its peak RSS is its own) and reports wall
seconds and peak RSS (MB):

* audit of a real transcript (FILE, or a 4-peer short game simulated first);
* resume_point (the resume checks, which read and audit the file) on the same transcript;
* audit and resume_point of a 100 MB file: refused by the size cap before anything is read
  (they used to take 777 MB and 721 MB before checking anything).

Targets: the 100 MB file is refused in well under a second with no more
memory than an empty audit; a real game's audit stays under 100 MB. The libsodium calibration
and load average before and after, and the CPU other processes used meanwhile
(bench/calibration.py), are printed and written, with a warning when the machine was loaded.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from calibration import BenchRun

CHILD = r"""
import json, sys, time
from pathlib import Path
from fairdeal.p2p import platform
what, path, data = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
start = time.perf_counter()
if what == "audit":
    from fairdeal.p2p.table.tools.audit import audit_transcript
    report = audit_transcript(path)
    outcome = "verified" if report.verified else f"fault: {report.fault}"
else:
    from fairdeal.p2p.table.tools.resume import CannotResume, resume_point
    try:
        resume_point(path, data)
        outcome = "resumable"
    except CannotResume as error:
        outcome = f"refused: {error}"
seconds = time.perf_counter() - start
rss = platform.current().peak_rss_mb()
print(json.dumps({"seconds": seconds, "peak_rss_mb": rss, "outcome": outcome[:160]}))
"""


def measure(what: str, path: Path, data: Path) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, what, str(path), str(data)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def simulated(directory: Path) -> Path:
    from fairdeal.p2p.table.tools.simulate import simulate

    summary = simulate(4, directory / "sim", short=True, seed=1, timeout=300)
    if summary["result"] != "finished":
        raise SystemExit(f"the simulated game did not finish: {summary}")
    return Path(summary["transcripts"][0])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--transcript", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    run = BenchRun()
    results: dict[str, Any] = {"benchmark": "files"}
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        real = args.transcript or simulated(directory)
        huge = directory / "huge.transcript"
        with open(huge, "wb") as file:
            file.write(real.read_bytes())
            file.truncate(100 * 1000 * 1000)  # a 100 MB file (sparse after the real records)
        data = real.parent
        for name, what, path in (
            ("audit_real", "audit", real),
            ("resume_real", "resume", real),
            ("audit_100mb", "audit", huge),
            ("resume_100mb", "resume", huge),
        ):
            figure = measure(what, path, data)
            results[name] = figure
            print(
                f"{name:13} {figure['seconds']:7.3f} s  {figure['peak_rss_mb']:6.1f} MB  "
                f"{figure['outcome']}"
            )
        results["real_bytes"] = real.stat().st_size
    print(f"transcript {results['real_bytes']} bytes")
    return run.conclude(results, args.json)


if __name__ == "__main__":
    sys.exit(main())
