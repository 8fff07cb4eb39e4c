"""LAN: 4 peers in 4 network namespaces find the table by mDNS, play a short game of Larry to the
end with the full protocol, and their transcripts audit as verified and agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from .headless import assert_one_verified_game, play_on_a_virtual_lan

pytestmark = [pytest.mark.netns, pytest.mark.timeout(180)]
WAIT_S = 120.0


def test_four_namespaced_peers_find_the_table_by_mdns_and_play_to_the_end(tmp_path: Path) -> None:
    host = ("host", "larry", "--short")
    results = play_on_a_virtual_lan(tmp_path, 4, host, "LAN test", "--data", WAIT_S)
    assert_one_verified_game(results, seats=4)
