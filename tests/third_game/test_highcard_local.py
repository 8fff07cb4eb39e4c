"""High card at the local table (p2p/table/runtime/local.py): one player against bots, served by the
oracle, through the same table events the app reads; the table knows no game either."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.engine.errors import NotYourTurn
from fairdeal.p2p.table.core.api import StateChanged
from fairdeal.p2p.table.runtime.local import LocalTable


async def test_a_player_and_two_bots_play_it_to_the_highest_card(highcard: Path) -> None:
    table = LocalTable(3, game="highcard", seat=1, seed=5, bot_kind="random")
    try:
        await table.start()
        await table.wait_idle()  # seat 0's bot has shown: seat 1 is to act
        assert table.state.to_act() == 1 and table.state.shown[0] is not None
        show = table.game.legal_actions(table.view())[0]
        with pytest.raises(NotYourTurn):
            table.game.check_action(table.game.view_for(table.state, {}, 2), show)
        await table.act(show)
        await table.wait_idle()
        state = table.state
        assert state.over and None not in state.shown
        assert state.winners == (state.shown.index(max(state.shown)),)
        changes = [e for e in table.history if isinstance(e, StateChanged)]
        assert changes[-1].state is state
    finally:
        await table.close()
