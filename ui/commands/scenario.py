"""`fairdeal scenario FILE...`: run Larry or Lie scenarios; report pass or fail and differences.

Exit status: 0 when every scenario passes, 1 when one fails, 2 when a file is malformed.
"""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="scenario JSON file(s)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every event")


def run(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from fairdeal.engine.codec import to_data
    from fairdeal.engine.scenario import ScenarioError, run_scenario

    status = 0
    for name in args.files:
        path = Path(name)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            result = run_scenario(data)
        except (OSError, ValueError) as error:
            kind = "invalid scenario" if isinstance(error, ScenarioError) else "cannot read"
            print(f"ERROR {path}: {kind}: {error}")
            status = max(status, 2)
            continue
        if args.verbose:
            for event in result.events:
                print(f"      {to_data(event)}")
        if result.passed:
            print(f"PASS  {path}: {result.name}")
            continue
        status = max(status, 1)
        print(f"FAIL  {path}: {result.name}")
        for failure in result.failures:
            print(f"  - {failure}")
    return status
