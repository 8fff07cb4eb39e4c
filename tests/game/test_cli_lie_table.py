"""`fairdeal host lie --headless` with a local bot peer, and `fairdeal bot --peer
HOST:PORT` joining it from another process: a short game of The Lie (one round, hands of 3) is
played to the end over loopback; the transcripts audit and agree, and each names its game."""

from __future__ import annotations

from pathlib import Path

import pytest

from .headless import assert_one_verified_game, host_with_a_bot_from_another_process

pytestmark = pytest.mark.timeout(150)


def test_host_lie_with_a_local_bot_and_a_bot_from_another_process(tmp_path: Path) -> None:
    host = ("host", "lie", "--seats", "3", "--bots", "1", "--rounds", "1", "--hand-size", "3")
    results = host_with_a_bot_from_another_process(tmp_path, host, "--data-dir", timeout=120)
    assert all(r["game"] == "lie" and r["rounds"] == 1 for r in results)
    assert_one_verified_game(results, seats=3)


def test_a_headless_lie_table_logs_no_traceback_and_names_its_bots(tmp_path: Path) -> None:
    """The command pair of the report: every seat a bot, racing flat out; a move a bot's own
    table refuses would be one line, never a traceback. The host's own seat says it is a bot,
    and `bot --name` names the guest's seat."""
    host = ("host", "lie", "--seats", "3", "--bots", "1", "--rounds", "1", "--hand-size", "4")
    guest = ("--name", "Zed")
    results = host_with_a_bot_from_another_process(tmp_path, host, "--data-dir", 120, guest)
    assert_one_verified_game(results, seats=3)
    for log in ("host.err", "guest.err"):
        text = (tmp_path / log).read_text()
        assert "Traceback" not in text and "Exception in callback" not in text, text[-3000:]
    names = results[0]["names"]
    assert names[results[0]["seat"]] == "Zed (bot)"
    assert names[0].endswith("(bot)") and len(set(names)) == 3, names
