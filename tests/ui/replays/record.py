"""Record the replay tests' games again (after a protocol change refuses the old transcripts):

    .venv/bin/python tests/ui/replays/record.py
    .venv/bin/python -m pytest tests/ui/test_replay.py --snapshot-update   # then look at them

Each game is played by `fairdeal simulate` (bot peers in separate processes over loopback) and
seat 1's transcript and secrets are kept here (README.md in this folder).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
GAMES = {
    "larry": ["larry", "--peers", "4", "--short", "--seed", "1"],
    "lie": ["lie", "--peers", "3", "--short", "--hand-size", "4", "--seed", "1"],
}


def main() -> int:
    for name, arguments in GAMES.items():
        with tempfile.TemporaryDirectory() as temporary:
            out = Path(temporary) / "out"
            command = [sys.executable, "-m", "fairdeal", "simulate", *arguments, "--out", str(out)]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            for kept in ("table.transcript", "secrets"):
                shutil.copy(out / "seat1" / kept, HERE / name / kept)
        print(f"recorded {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
