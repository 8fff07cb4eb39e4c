"""`python -m fairdeal ARGS` in a real terminal: a detached tmux session of 80×24 whose screen
is polled (never a fixed sleep as synchronisation) and typed into, for the smoke tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tmux(*args: str) -> str:
    result = subprocess.run(
        ["tmux", *args], capture_output=True, text=True, check=False, timeout=10
    )
    return result.stdout


class Terminal:
    """`python -m fairdeal ARGS` in a detached tmux session of 80×24, read and typed into."""

    def __init__(self, tmp_path: Path, args: str, deadline: float) -> None:
        """`deadline`: how long, in seconds, each wait for the screen or the exit may take."""
        self.deadline = deadline
        self.session = f"fairdeal-smoke-{os.getpid()}-{abs(hash(args)) % 10000}"
        self.status_file = tmp_path / "exit-status"
        env = f"XDG_DATA_HOME={tmp_path} HOME={tmp_path} TERM=xterm-256color"
        command = (
            f"cd {ROOT} && env {env} {sys.executable} -m fairdeal {args}; "
            f"echo $? > {self.status_file}"
        )
        self.args = ("-L", self.session)
        tmux(*self.args, "kill-server")
        size = ("-x", "80", "-y", "24")
        subprocess.run(
            ["tmux", *self.args, "new-session", "-d", "-s", self.session, *size, command],
            check=True,
            timeout=10,
        )

    def pane(self) -> str:
        return tmux(*self.args, "capture-pane", "-p", "-t", self.session)

    def wait(self, check: Callable[[str], bool], what: str) -> str:
        deadline = time.monotonic() + self.deadline
        screen = ""
        while time.monotonic() < deadline:
            screen = self.pane()
            if check(screen):
                return screen
            time.sleep(0.1)  # poll interval; the condition is the real screen
        raise AssertionError(f"timed out waiting for {what}; the screen was:\n{screen}")

    def keys(self, *names: str) -> None:
        tmux(*self.args, "send-keys", "-t", self.session, *names)

    def exit_status(self) -> str:
        deadline = time.monotonic() + self.deadline
        while not self.status_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)  # poll for the exit status the shell writes after the app ends
        assert self.status_file.exists(), f"the app did not quit; the screen was:\n{self.pane()}"
        return self.status_file.read_text().strip()

    def close(self) -> None:
        tmux(*self.args, "kill-server")
