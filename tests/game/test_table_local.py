"""A whole short game of Larry between networked bot peers in one loop: full crypto, real mesh."""

from __future__ import annotations

from pathlib import Path

from fairdeal.p2p.table.core.api import StateChanged

from .support import open_table, play_to_end


async def test_four_bot_peers_play_a_short_game_to_the_end(tmp_path: Path) -> None:
    table = await open_table(4, tmp_path)
    try:
        await play_to_end(table)
        states = [peer.table.state for peer in table.peers]
        assert all(peer.table.fault is None for peer in table.peers)
        assert all(state.phase == "game_over" for state in states)
        assert len({state.scores for state in states}) == 1  # every peer agrees
        assert len({peer.table.head for peer in table.peers}) == 1
        history = table.peers[0].history.events
        assert any(isinstance(e, StateChanged) for e in history)
    finally:
        await table.close()
