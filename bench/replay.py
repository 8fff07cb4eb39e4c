"""How fast `fairdeal replay` opens a game and steps through it.

    .venv/bin/python bench/replay.py TRANSCRIPT [--data-dir DIR] [--steps 40] [--json FILE]

Without TRANSCRIPT it plays the target's game first: a full Larry game (3 hands, L18) at 8 seats
with `fairdeal simulate` (a few minutes), in a temporary directory. Measured, wall clock:

- open: the audit's pass with the replay's frames (`load_replay`, through the owner's eyes) plus
  the app's first screen shown (Textual headless, 100×32); `audit_s` is the audit alone
  (`audit_transcript`, the same signature and proof checks without the frames), the floor of the
  opening;
- step: one → (the next step's events handled by the table screen) and one ← (the same screen
  started again at the step before, its history replayed into it), each until the screen has
  shown every event.

Targets (the replay and watch screens): open ≤ 2 s, a step ≤ 50 ms. The libsodium calibration and
the load average are printed before and after (bench/calibration.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from calibration import calibrate, calibration_line, load_warning

from fairdeal.p2p.table.tools.audit import audit_transcript
from fairdeal.p2p.table.tools.replay import load_replay
from fairdeal.ui.games.larry.replay import LarryReplayScreen
from fairdeal.ui.games.lie.replay import LieReplayScreen
from fairdeal.ui.replay_app import ReplayApp

SIZE = (100, 32)


def record_game(directory: Path) -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "fairdeal",
            "simulate",
            "larry",
            "--peers",
            "8",
            "--seed",
            "3",
            "--out",
            str(directory),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return directory / "seat0" / "table.transcript"


async def caught_up(app: ReplayApp) -> LarryReplayScreen | LieReplayScreen:
    while True:
        await asyncio.sleep(0)
        screens = [
            s for s in app.screen_stack if isinstance(s, LarryReplayScreen | LieReplayScreen)
        ]
        if screens and screens[-1].is_mounted:
            screen = screens[-1]
            if screen.events_seen >= len(screen.session.history):
                return screen


async def measure(transcript: Path, data: Path, steps: int) -> dict[str, object]:
    start = time.perf_counter()
    audit_transcript(transcript)
    audited = time.perf_counter() - start
    start = time.perf_counter()
    replay = load_replay(transcript, data)
    loaded = time.perf_counter() - start
    if replay.fault is not None:
        raise SystemExit(f"{transcript}: FAULT: {replay.fault}")
    app = ReplayApp(replay)
    forward: list[float] = []
    back: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        await caught_up(app)
        shown = time.perf_counter() - start
        middle = len(replay.frames) // 2
        screen = await caught_up(app)
        screen.go_to(middle)
        await caught_up(app)
        for _ in range(steps):
            screen = await caught_up(app)
            t = time.perf_counter()
            screen.go_to(screen.session.position + 1)
            await caught_up(app)
            await pilot.pause(0)  # its messages processed and the screen drawn
            forward.append(time.perf_counter() - t)
        for _ in range(steps):
            screen = await caught_up(app)
            t = time.perf_counter()
            screen.go_to(screen.session.position - 1)
            await caught_up(app)
            await pilot.pause(0)  # its messages processed and the screen drawn
            back.append(time.perf_counter() - t)
    return {
        "transcript": str(transcript),
        "seats": replay.report.seats,
        "hands": replay.report.hands,
        "entries": replay.report.entries,
        "frames": len(replay.frames),
        "own_eyes": replay.own_eyes,
        "audit_s": audited,
        "load_s": loaded,
        "open_s": shown,
        "step_forward_ms_median": statistics.median(forward) * 1e3,
        "step_forward_ms_max": max(forward) * 1e3,
        "step_back_ms_median": statistics.median(back) * 1e3,
        "step_back_ms_max": max(back) * 1e3,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transcript", nargs="?", type=Path)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    before = calibrate()
    print(calibration_line(before, "before"))
    with tempfile.TemporaryDirectory() as temporary:
        transcript = args.transcript or record_game(Path(temporary))
        data = args.data_dir or transcript.parent
        figures = asyncio.run(measure(transcript, data, args.steps))
    after = calibrate()
    print(calibration_line(after, "after"))
    warning = load_warning([before, after])
    if warning:
        print(warning)
    for name, value in figures.items():
        shown = f"{value:.3f}" if isinstance(value, float) else value
        print(f"{name:>24}: {shown}")
    print(f"target: open ≤ 2 s ({'met' if figures['open_s'] <= 2 else 'NOT met'}), ", end="")
    slowest = max(figures["step_forward_ms_median"], figures["step_back_ms_median"])
    print(f"a step ≤ 50 ms ({'met' if slowest <= 50 else 'NOT met'}, medians)")
    if args.json:
        args.json.write_text(
            json.dumps({"results": figures, "calibration": [before, after], "warning": warning})
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
