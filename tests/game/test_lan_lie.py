"""LAN: 4 peers in 4 network namespaces find a table of The Lie by mDNS and play a
short game (one round, hands of 3: T3, T9) to the end with the full protocol, real-time claims
included; their transcripts audit as verified and agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from .headless import assert_one_verified_game, play_on_a_virtual_lan

pytestmark = [pytest.mark.netns, pytest.mark.timeout(120)]
WAIT_S = 60.0


def test_four_namespaced_peers_find_a_lie_table_by_mdns_and_play_it_to_the_end(
    tmp_path: Path,
) -> None:
    host = ("host", "lie", "--rounds", "1", "--hand-size", "3")
    results = play_on_a_virtual_lan(tmp_path, 4, host, "Lie LAN test", "--data-dir", WAIT_S)
    assert all(r["game"] == "lie" and r["rounds"] == 1 for r in results), results
    assert_one_verified_game(results, seats=4)
