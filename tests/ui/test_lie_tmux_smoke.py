"""`fairdeal play --game lie` in a real terminal: tmux at 80×24, grab cards, play a trick, quit.

Like test_tmux_smoke.py: a throw-away data directory, the screen polled through tmux (never a
fixed sleep as synchronisation), a clean quit with q and exit status 0. The bots are fast here
(--pace, --bot-delay) so the test is short; the seed makes the deal repeatable.
"""

from __future__ import annotations

import os
import re
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
DEADLINE_S = 40.0


def tmux(*args: str) -> str:
    result = subprocess.run(
        ["tmux", *args], capture_output=True, text=True, check=False, timeout=10
    )
    return result.stdout


def test_play_the_lie_in_a_real_terminal(tmp_path: Path) -> None:
    session = f"fairdeal-lie-smoke-{os.getpid()}"
    status_file = tmp_path / "exit-status"
    env = f"XDG_DATA_HOME={tmp_path} HOME={tmp_path} TERM=xterm-256color"
    play = "play --game lie --players 3 --seed 5 --pace 0.05 --bot-delay 0.05 --no-discovery"
    command = f"cd {ROOT} && env {env} {sys.executable} -m fairdeal {play}; echo $? > {status_file}"
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

        def held(screen: str) -> int:
            found = re.search(r"Your hand (\d+)/12", screen)
            return int(found.group(1)) if found else -1

        screen = wait(lambda s: "Phase 1: grab cards!" in s and "Take" in s, "Phase 1")
        assert all(len(line) <= 80 for line in screen.splitlines())
        while "Phase 2" not in screen:  # take a card, see it, place it (T3), until full
            count = held(screen)
            if "place the" in screen:
                keys("Right" if count % 2 else "a")
                screen = wait(lambda s: "place the" not in s, "the card placed")
            else:
                keys("Enter")
                screen = wait(
                    lambda s, c=count: held(s) > c or "place the" in s or "Phase 2" in s,
                    "a card taken",
                )
        wait(lambda s: "YOUR" in s, "our go in the first trick")
        while True:  # play (or pass, with no legal play) until a trick is won
            screen = pane()
            if "wins the trick" in screen:
                break
            if "YOUR" in screen:
                keys("Tab", "Enter") if "legal play" not in screen else keys("p")
            wait(lambda s: "YOUR" not in s or "wins the trick" in s or "✗" in s, "the go")
            if "✗" in pane():
                keys("p")
        keys("q")
        deadline = time.monotonic() + DEADLINE_S
        while not status_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)  # poll for the exit status the shell writes after the app ends
        assert status_file.exists(), f"the app did not quit; the screen was:\n{pane()}"
        assert status_file.read_text().strip() == "0"
    finally:
        tmux(*tmux_args, "kill-server")
