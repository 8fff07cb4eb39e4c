"""Ctrl-C stops a headless peer cleanly, waiting in its lobby or in the middle of a game: status
130, one line saying so, no traceback, and a transcript that still reads (POSIX delivers SIGINT
here; on Windows asyncio.run turns Ctrl-C into the same KeyboardInterrupt, and nothing in
fairdeal installs a signal handler of its own: tests/p2p/test_platform.py)."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from fairdeal.p2p.log.transcript import done_marker, load_transcript
from tests.game.headless import ROOT, command

pytestmark = pytest.mark.timeout(120)
LOOPBACK = ("--bind", "127.0.0.1")


def interrupted(process: subprocess.Popen[str]) -> str:
    """Ctrl-C `process`; its stderr once it has ended with status 130 and said so."""
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err, err
    return err


def ctrl_c_as_a_terminal_delivers_it() -> None:
    """In the child, before fairdeal starts: Ctrl-C does what it does at a terminal. A shell
    running a job in the background (a CI script started with `&`) ignores SIGINT for it, every
    child inherits that, and Python then never raises KeyboardInterrupt: the test would wait for
    an interrupt nobody can deliver."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        command(*args),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_as_a_terminal_delivers_it,
    )


def host_table(data: Path) -> subprocess.Popen[str]:
    """`fairdeal host larry --headless` on loopback, for two seats."""
    return start(
        "host",
        "larry",
        "--seats",
        "2",
        "--headless",
        "--no-mdns",
        *LOOPBACK,
        "--data",
        str(data),
        "--timeout",
        "100",
    )


def port_of(host: subprocess.Popen[str]) -> int:
    """The port `host` listens on, once it does."""
    assert host.stdout is not None
    return int(json.loads(host.stdout.readline())["listening"][1])


def test_ctrl_c_stops_a_host_waiting_in_its_lobby(tmp_path: Path) -> None:
    host = host_table(tmp_path)
    try:
        assert port_of(host) > 0
        assert "fairdeal host: interrupted" in interrupted(host)
    finally:
        if host.poll() is None:
            host.kill()


def test_ctrl_c_stops_a_bot_in_the_middle_of_a_game(tmp_path: Path) -> None:
    host = host_table(tmp_path / "host")
    bot = None
    try:
        port = port_of(host)
        bot = start(
            "bot",
            "--peer",
            f"127.0.0.1:{port}",
            *LOOPBACK,
            "--data",
            str(tmp_path / "bot"),
            "--timeout",
            "100",
        )
        deadline = time.monotonic() + 90
        while not (played := list((tmp_path / "bot").rglob("*.transcript"))) or (
            played[0].stat().st_size < 4096  # past the header and the deal: in the game
        ):
            assert bot.poll() is None, bot.communicate()[1]
            assert time.monotonic() < deadline, "the bot's game never began"
            time.sleep(0.05)  # polling the file, not waiting for it
        assert "fairdeal bot: interrupted" in interrupted(bot)
        assert load_transcript(played[0]).applied  # what was played is still there
        assert not done_marker(played[0]).exists()  # it was stopped before the game's end
    finally:
        for process in (host, bot):
            if process is not None and process.poll() is None:
                process.kill()
