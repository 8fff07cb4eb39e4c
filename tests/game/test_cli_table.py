"""`fairdeal host --headless` with local bot peers, and `fairdeal bot --peer HOST:PORT` joining
it from another process: both play a short game to the end; the transcripts audit and agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from .headless import assert_one_verified_game, host_with_a_bot_from_another_process

pytestmark = pytest.mark.timeout(120)


def test_host_with_a_local_bot_and_a_bot_from_another_process(tmp_path: Path) -> None:
    host = ("host", "larry", "--seats", "3", "--bots", "1", "--short")
    results = host_with_a_bot_from_another_process(tmp_path, host, "--data", timeout=90)
    assert_one_verified_game(results, seats=3)
