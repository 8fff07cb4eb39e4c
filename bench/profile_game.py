"""Where a simulated game's CPU goes: py-spy over every peer process, summed by function.

Usage (from the repository root; py-spy is not a dependency: `.venv/bin/pip install py-spy`):
    .venv/bin/python bench/profile_game.py [--game larry] [--peers 8] [--short] [--top 25]
                                           [--raw FILE] [--json PATH]

Runs `fairdeal simulate GAME --peers N` under `py-spy record --subprocesses` (only samples where
a thread is running count: waiting in the event loop is not CPU) and prints, over all peers:

* self time: the share of samples whose innermost Python frame is this function (a call into
  libsodium through rbcl or PyNaCl, an fsync, counts for the Python function making it);
* inclusive time: the share of samples with the function anywhere on the stack;
* groups: Ristretto255 and Ed25519 in libsodium, the transcript's fsync (py-spy counts a thread
  blocked in it as running), msgpack, imports, and the project's own Python by layer.

`--raw FILE` summarises an earlier run's raw output instead of running a game. The libsodium
calibration and load (bench/calibration.py) are printed: py-spy's sampling slows the peers a
little and the machine is shared, so the setup and latency the game prints are not the
benchmark's (bench/game.py's); the shares are what this is for.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from calibration import BenchRun

FRAME = re.compile(r"^(?P<func>.+) \((?P<file>[^:()]+):(?P<line>\d+)\)$")
GROUPS = {  # tested on the innermost frame ("file:function"), first match wins
    "Ristretto255 through rbcl (libsodium)": ("rbcl/",),
    "Ed25519 sign/verify through PyNaCl (libsodium)": ("nacl/",),
    "fsync of the transcript (mostly waiting on the disk)": (
        "p2p/log/transcript.py:Transcript._flush",
    ),
    "msgpack": ("msgpack/",),
}


def frames(stack: str) -> list[tuple[str, str]]:
    """(function, file) from the outermost frame inwards; process and thread labels dropped."""
    out = []
    for frame in stack.split(";"):
        match = FRAME.match(frame)
        if match:
            out.append((match["func"], match["file"]))
    return out


def site(func: str, file: str) -> str:
    file = file.split("site-packages/")[-1].split("/fast-bench/")[-1]
    return f"{func} ({file})"


def summarise(raw: Path, top: int) -> dict[str, Any]:
    self_time: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    groups: Counter[str] = Counter()
    total = 0
    for line in raw.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        stack_frames = frames(stack)
        if not stack_frames:
            continue
        total += count
        func, file = stack_frames[-1]
        self_time[site(func, file)] += count
        for name in {site(f, p) for f, p in stack_frames}:
            inclusive[name] += count
        innermost = [f"{p}:{f}" for f, p in reversed(stack_frames)]
        groups[group_of(innermost, func)] += count

    def shares(counter: Counter[str], n: int) -> list[tuple[str, float]]:
        return [(name, round(100 * c / total, 1)) for name, c in counter.most_common(n)]

    return {
        "samples": total,
        "self_percent": shares(self_time, top),
        "inclusive_percent": shares(inclusive, top),
        "groups_percent": shares(groups, len(groups)),
    }


def group_of(innermost: list[str], leaf: str) -> str:
    """The group of one sample, from its stack ("file:function", innermost first)."""
    for name, needles in GROUPS.items():
        if any(needle in innermost[0] for needle in needles):
            return name
    if any("importlib._bootstrap" in frame for frame in innermost):
        return "imports (each peer process starting)"
    for frame in innermost:  # else the innermost layer of the project on the stack
        for layer in ("engine/", "p2p/deck/", "p2p/log/", "p2p/net/", "p2p/table/", "p2p/"):
            if frame.startswith(layer):
                return f"fairdeal {layer.rstrip('/')} (Python)"
    return "other (interpreter, asyncio, threads)"


def record(game: str, peers: int, short: bool, raw: Path) -> None:
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        raise SystemExit("py-spy is not installed: .venv/bin/pip install py-spy")
    with tempfile.TemporaryDirectory() as directory:
        command = [spy, "record", "--subprocesses", "--rate", "200", "--format", "raw"]
        command += ["-o", str(raw), "--", sys.executable, "-m", "fairdeal", "simulate", game]
        command += ["--peers", str(peers), "--seed", "0", "--out", str(Path(directory) / "sim")]
        command += ["--short"] if short else []
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"py-spy failed: {done.stderr[-2000:]}")
    summary, _ = json.JSONDecoder().raw_decode(done.stdout[done.stdout.index("{") :])
    print(
        f"{game}, {peers} peers: {summary['result']}, {summary['hands']} hands, setup "
        f"{summary['time']['setup_seconds']:.2f} s, game {summary['time']['game_seconds']:.1f} s"
        f", move p99 {summary['move_latency_ms'].get('p99')} ms (under py-spy)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["larry", "lie"], default="larry")
    parser.add_argument("--peers", type=int, default=8)
    parser.add_argument("--short", action="store_true", help="one hand or round")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--raw", type=Path, help="summarise this py-spy raw file instead")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    run = BenchRun()
    raw = args.raw
    if raw is None:
        raw = Path(tempfile.mkdtemp()) / "profile.raw"
        record(args.game, args.peers, args.short, raw)
    figures: dict[str, Any] = {"benchmark": "profile_game", "game": args.game}
    figures |= summarise(raw, args.top)
    print(f"{figures['samples']} samples of running threads, all peers")
    for title, key in (
        ("groups (innermost frame)", "groups_percent"),
        ("self", "self_percent"),
        ("inclusive", "inclusive_percent"),
    ):
        print(f"{title}:")
        for name, percent in figures[key]:
            print(f"  {percent:5.1f} %  {name}")
    figures |= run.finish()
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
