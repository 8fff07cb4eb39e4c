"""The audit asks the game's presenter for the game's own rule on the join's terms: Larry's
joins all say first_seat 0, because the joint coin picks who starts (protocol.md 10.1, L5). A
table whose seats all joined with another first seat does not verify, and the fault names seat
0's join."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from fairdeal.engine.larry.codec import to_data
from fairdeal.engine.larry.options import LarryOptions
from fairdeal.p2p.games.larry.table import LarryTable
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.tools.audit import audit_transcript

from .test_join_terms import _played

pytestmark = pytest.mark.timeout(120)


class _JoinsWithSeatOneFirst(LarryTable):
    """Every seat of this table signs a join whose options say seat 1 starts."""

    @classmethod
    def options_for_join(cls, options: Any) -> Any:
        return to_data(replace(options, first_seat=1))


async def _transcript(directory: Path, table: type[TableDriver], monkeypatch: Any) -> Path:
    """Seat 1's transcript of a whole short game, the peers' own check of the terms off."""
    return await _played(directory, LarryOptions(short_game=True), monkeypatch, table)


async def test_the_audit_refuses_a_larry_join_that_picks_the_first_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = audit_transcript(await _transcript(tmp_path, _JoinsWithSeatOneFirst, monkeypatch))
    assert not report.verified
    assert report.fault is not None
    assert (report.fault.seat, report.fault.what) == (0, "joined with other game terms")
    assert report.fault.evidence == "the join's first_seat is 1, not 0"
    assert report.fault.entry == 1  # seat 0's join, after the roster


async def test_the_same_table_joined_honestly_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = audit_transcript(await _transcript(tmp_path, LarryTable, monkeypatch))
    assert report.verified, report.fault
    assert report.round_name == "hand" and report.hands >= 1
