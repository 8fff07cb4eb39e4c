"""Old and new engine side by side: engine.py rounds alternated between two checkouts.

On a shared machine a bench's CPU-time rate moves by ±30 % with the load from one minute to
the next, so two builds run one after the other are not comparable; rounds alternated build by
build are (each round meets about the same load). Each round runs `bench/engine.py --rounds 1`
in a fresh process of that checkout with its own interpreter (`OTHER/.venv/bin/python` unless
`--other-python` says otherwise), so the two builds never share a process or an import.
Prints each round's rates, the medians and the per-round ratios new/old; `--json FILE` writes
them. Run from the repository root:
`.venv/bin/python bench/engine_ab.py --other ../main-worktree [--rounds 6]`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # this checkout


def one_round(checkout: Path, python: str, args: argparse.Namespace, seed: int) -> dict[str, float]:
    """One engine.py round in `checkout`: its Larry and Lie rates (per CPU second) and the load."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "round.json"
        command = [python, "bench/engine.py", "--rounds", "1", "--seed", str(seed)]
        command += ["--hands", str(args.hands), "--lie-games", str(args.lie_games)]
        subprocess.run(
            [*command, "--json", str(out)],
            cwd=checkout,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        figures = json.loads(out.read_text(encoding="utf-8"))
    return {
        "larry": figures["median_hands_per_second"],
        "lie": figures["lie_median_games_per_second"],
        "load": os.getloadavg()[0],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, required=True, help="the old checkout")
    parser.add_argument("--other-python", help="its interpreter (OTHER/.venv/bin/python)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--hands", type=int, default=300, help="Larry hands per round")
    parser.add_argument("--lie-games", type=int, default=60, help="Lie games per round")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args()
    other = args.other.resolve()
    builds = {
        "old": (other, args.other_python or str(other / ".venv" / "bin" / "python")),
        "new": (HERE, sys.executable),
    }
    rounds: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for number in range(args.rounds):
        for name, (checkout, python) in builds.items():
            figures = one_round(checkout, python, args, seed=number)
            rounds[name].append(figures)
            print(
                f"round {number + 1} {name}: The Lie {figures['lie']:6.1f} games/CPU s, "
                f"Larry {figures['larry']:6.0f} hands/CPU s (load {figures['load']:.1f})"
            )
    summary: dict[str, object] = {"benchmark": "engine_ab", "other": str(other), "rounds": rounds}
    for kind, unit in (("lie", "games"), ("larry", "hands")):
        old = [r[kind] for r in rounds["old"]]
        new = [r[kind] for r in rounds["new"]]
        ratios = [n / o for n, o in zip(new, old, strict=True)]
        summary[kind] = {
            "old_median": statistics.median(old),
            "new_median": statistics.median(new),
            "ratio_median": statistics.median(ratios),
            "ratio_min": min(ratios),
            "ratio_max": max(ratios),
        }
        print(
            f"{kind}: old {statistics.median(old):.1f}, new {statistics.median(new):.1f} {unit} "
            f"per CPU second; new/old per round {min(ratios):.2f}-{max(ratios):.2f}, "
            f"median {statistics.median(ratios):.2f}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
