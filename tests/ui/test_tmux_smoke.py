"""The README's first command, in a real terminal: tmux at 80×24, a few keystrokes, a clean quit.

It runs the final part of that command (`fairdeal play`, here `python -m fairdeal play` from this
checkout) with a throw-away data directory, waits for the screen to show what a player needs
(polling tmux's pane, never a fixed sleep as synchronisation), plays, and quits with q.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (.ci/run installs it)"),
]

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 30.0


def tmux(*args: str) -> str:
    result = subprocess.run(
        ["tmux", *args], capture_output=True, text=True, check=False, timeout=10
    )
    return result.stdout


def test_play_in_a_real_terminal(tmp_path: Path) -> None:
    session = f"fairdeal-smoke-{os.getpid()}"
    status_file = tmp_path / "exit-status"
    env = f"XDG_DATA_HOME={tmp_path} HOME={tmp_path} TERM=xterm-256color"
    command = f"cd {ROOT} && env {env} {sys.executable} -m fairdeal play; echo $? > {status_file}"
    tmux("-L", session, "kill-server")
    tmux_args = ("-L", session)
    subprocess.run(
        ["tmux", *tmux_args, "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command],
        check=True,
        timeout=10,
    )
    try:

        def pane() -> str:
            return tmux(*tmux_args, "capture-pane", "-p", "-t", session)

        def wait(check: Callable[[str], bool], what: str) -> str:
            deadline = time.monotonic() + DEADLINE_S
            screen = ""
            while time.monotonic() < deadline:
                screen = pane()
                if check(screen):
                    return screen
                time.sleep(0.1)  # poll interval; the condition is the real screen
            raise AssertionError(f"timed out waiting for {what}; the screen was:\n{screen}")

        def keys(*names: str) -> None:
            tmux(*tmux_args, "send-keys", "-t", session, *names)

        screen = wait(lambda s: "YOUR TURN" in s and "q Quit" in s, "the first turn")
        assert "Seats" in screen and "Limit" in screen and "q Quit" in screen
        assert all(len(line) <= 80 for line in screen.splitlines())
        keys("Enter")  # play the selected card face-down …
        wait(lambda s: "The honest total is" in s, "the announce dialog")
        # Seat 0 starts hand 1 (L5) on an empty pile, so the honest total is within the limit.
        keys("Enter")
        screen = wait(lambda s: "said" in s and "YOUR TURN" in s, "the bots to play round")
        assert "played a card face-down" in screen
        keys("?")
        wait(lambda s: "Larry: keys and rules" in s, "the help screen")
        keys("Escape")
        wait(lambda s: "YOUR TURN" in s, "the table again")
        keys("q")
        deadline = time.monotonic() + DEADLINE_S
        while not status_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)  # poll for the exit status the shell writes after the app ends
        assert status_file.exists(), f"the app did not quit; the screen was:\n{pane()}"
        assert status_file.read_text().strip() == "0"
    finally:
        tmux(*tmux_args, "kill-server")
