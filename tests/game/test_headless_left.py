"""A headless host whose guest left (killed mid-game) ends the table once the guest has been
silent past the silence limit with no connection: it says why, logs the hold-up once rather
than at every check, and exits 1; `--keep-waiting` waits instead (p2p/table/runtime/headless.py)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from .headless import ROOT, command

pytestmark = pytest.mark.timeout(150)


def wait_for_text(path: Path, text: str, process: subprocess.Popen[str], limit: float) -> None:
    deadline = time.monotonic() + limit
    while text not in path.read_text():
        assert process.poll() is None, path.read_text()[-3000:]
        assert time.monotonic() < deadline, f"no {text!r} in {path}"
        time.sleep(0.1)  # polling a log file another process writes


def test_a_headless_host_ends_the_table_when_its_guest_left(tmp_path: Path) -> None:
    host_log = tmp_path / "host.err"
    with host_log.open("w") as err:
        host = subprocess.Popen(
            command(
                *("host", "lie", "--seats", "2", "--headless", "--no-mdns"),
                *("--bind", "127.0.0.1", "--data-dir", str(tmp_path / "host")),
                *("--silence-limit", "2", "--timeout", "120"),
            ),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
    guest = None
    try:
        assert host.stdout is not None
        port = json.loads(host.stdout.readline())["listening"][1]
        guest = subprocess.Popen(
            command(
                *("bot", "--peer", f"127.0.0.1:{port}", "--bind", "127.0.0.1"),
                *("--data-dir", str(tmp_path / "guest"), "--timeout", "120"),
            ),
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_text(host_log, "claim of seat", host, 90)  # Phase 1 is under way
        guest.kill()  # SIGKILL: its channel closes, it never comes back
        assert host.wait(timeout=60) == 1
        result = json.loads(host.stdout.read().strip().splitlines()[-1])
    finally:
        for process in (host, guest):
            if process is not None and process.poll() is None:
                process.kill()
    logged = host_log.read_text()
    assert result["ended"] and result["ended"].startswith("seat 1 left") and not result["over"]
    assert "ending the table: seat 1 left: silent for" in logged
    assert "Traceback" not in logged
    assert logged.count("is holding up the game") <= 2  # once, and again if it reconnected


def test_keep_waiting_is_an_option_of_the_headless_commands() -> None:
    for name in ("host", "bot"):
        shown = subprocess.run(
            command(name, "--help"), cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        assert "--keep-waiting" in shown
