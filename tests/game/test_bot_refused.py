"""A bot whose move its own table refuses says so in one line and waits for the table to move
on: no traceback, no stop (p2p/table/runtime/pump.py). Headless hosts and `fairdeal bot` log it."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from fairdeal.engine.errors import IllegalAction
from fairdeal.engine.lie import LieOptions
from fairdeal.p2p.games.lie.table import LieTable
from fairdeal.p2p.table.core.api import Notice

from .support import open_table, play_to_end

pytestmark = pytest.mark.timeout(120)


class RefusesForAWhile(LieTable):
    """Refuses every move, its bot's and every fallback, until three more envelopes of the
    others have been applied after the first refusal: a table that moved on."""

    refuse_until: int | None = None

    def publish_action(self, action: Any, *, check: bool = True) -> None:
        if self.refuse_until is None:
            self.refuse_until = self.applied + 3
        if self.applied < self.refuse_until:
            raise IllegalAction(self.me, "not now (a test)")
        super().publish_action(action, check=check)


async def test_a_refused_bot_move_is_one_notice_and_the_game_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    options = LieOptions(rounds=1, hand_size=3)  # type: ignore[call-arg]
    table = await open_table(3, tmp_path, options, seed=4, tables={0: RefusesForAWhile})
    caplog.set_level(logging.INFO)
    try:
        await play_to_end(table, timeout=90)
        assert all(p.table.over and p.table.fault is None for p in table.peers)
    finally:
        await table.close()
    notices = [e.text for e in table.peers[0].history.events if isinstance(e, Notice)]
    refused = [n for n in notices if "refused (not now (a test))" in n]
    assert refused and all("seat 0's bot" in n for n in refused)
    assert any(n.endswith("it waits for the table to move on") for n in refused)
    assert not [r for r in caplog.records if r.exc_info or "Exception in callback" in r.message]
