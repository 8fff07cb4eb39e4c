"""`fairdeal host lie --headless` with a local bot peer, and `fairdeal bot --peer
HOST:PORT` joining it from another process: a short game of The Lie (one round, hands of 3) is
played to the end over loopback; the transcripts audit and agree, and each names its game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fairdeal.p2p.table.audit import audit_many

pytestmark = pytest.mark.timeout(150)
ROOT = Path(__file__).resolve().parents[2]


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "fairdeal", *args]


def test_host_lie_with_a_local_bot_and_a_bot_from_another_process(tmp_path: Path) -> None:
    host = subprocess.Popen(
        command(
            *("host", "lie", "--seats", "3", "--bots", "1", "--headless"),
            *("--rounds", "1", "--hand-size", "3"),
            *("--no-mdns", "--bind", "127.0.0.1", "--data-dir", str(tmp_path / "host")),
            *("--timeout", "120"),
        ),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())["listening"]
        guest = subprocess.run(
            command(
                *("bot", "--peer", f"127.0.0.1:{listening[1]}", "--bind", "127.0.0.1"),
                *("--data-dir", str(tmp_path / "guest"), "--timeout", "120"),
            ),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=130,
        )
        assert guest.returncode == 0, guest.stderr[-2000:]
        results = [json.loads(guest.stdout.strip().splitlines()[-1])]
        results += [json.loads(line) for line in host.stdout.read().splitlines()]
        assert host.wait(timeout=30) == 0
    finally:
        if host.poll() is None:
            host.kill()
    assert sorted(r["seat"] for r in results) == [0, 1, 2]
    assert all(r["game"] == "lie" and r["rounds"] == 1 for r in results)
    assert all(r["over"] and r["fault"] is None for r in results)
    assert len({tuple(r["scores"]) for r in results}) == 1  # one result everywhere (T10)
    reports, disagreement = audit_many([Path(r["transcript"]) for r in results])
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
    assert all(r.signed_roster for r in reports)  # every seat signed the game and its options
