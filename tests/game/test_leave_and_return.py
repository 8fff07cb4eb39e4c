"""Leaving, ending and coming back (protocol.md 10.12; README "Headless peers").

A table that this seat left or ended, or that another seat left, is never taken back by running
`host` (or `bot --peer`) again: it waited for the gone seat for ever. `fairdeal resume` still
takes the seat back on purpose and first says what state the table is in. A seat that comes
back is no longer counted as gone by the others, and the audit of an ended table says who left,
who ended it and after how many entries."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest

from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.table.core.api import Notice, SeatLeft, SeatReturned
from fairdeal.p2p.table.runtime.left_file import ended_marker, left_path
from fairdeal.p2p.table.runtime.peer import TablePeer
from fairdeal.p2p.table.tools.audit import audit_transcript
from fairdeal.p2p.table.tools.rejoin import leaving_state, unfinished_table
from fairdeal.ui.screens.presence import left_notice

from .support import LocalTable, identity, make_peer, open_table, sign_roster

pytestmark = pytest.mark.timeout(90)
WAIT_S = 30.0


async def until(peer: TablePeer, ready) -> None:
    async with asyncio.timeout(WAIT_S):
        while not ready():
            await peer.history.changed()


async def _bob_leaves_and_ann_ends(tmp_path: Path) -> tuple[LocalTable, int, int]:
    """Seat 1 leaves, seat 0 ends the table; with the entries each had applied then."""
    table = await open_table(3, tmp_path, bots=False)
    for peer in table.peers:  # setup done: the game waits for a move
        await until(peer, lambda p=peer: p.table.state is not None)
    ann, bob, cy = table.peers
    bob_at = bob.table.applied
    await bob.end_table("peer1 left the table")
    await until(ann, lambda: 1 in ann.left_seats)
    ann_at = ann.table.applied
    await ann.end_table("peer0 ended the table after peer1 left")
    await until(cy, lambda: 0 in cy.left_seats)
    return table, bob_at, ann_at


def _as_data_dir(table: LocalTable, seat: int) -> Path:
    """The seat's files laid out as a data directory (DATA/tables/ID.transcript)."""
    data = table.directory / f"seat{seat}"
    identity(seat).save(data)
    (data / "tables").mkdir()
    transcript = data / "tables" / f"{table.roster.table.hex()}.transcript"
    for source, target in [
        (table.transcript(seat), transcript),
        (left_path(table.transcript(seat)), left_path(transcript)),
        (ended_marker(table.transcript(seat)), ended_marker(transcript)),
    ]:
        if source.exists():
            shutil.move(source, target)
    return data


async def test_an_ended_table_is_not_taken_back_by_host_and_resume_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table, _, _ = await _bob_leaves_and_ann_ends(tmp_path)
    await table.close()
    ann_data, cy_data = _as_data_dir(table, 0), _as_data_dir(table, 2)
    # Ann ended it; Cy stayed but both others are gone: neither is taken back by itself
    assert unfinished_table(ann_data, identity(0), seat=0) is None
    assert unfinished_table(cy_data, identity(2)) is None
    ann_file = next((ann_data / "tables").glob("*.transcript"))
    said = leaving_state(ann_file)
    assert said[0] == (
        "you left this table (peer0 ended the table after peer1 left); resuming takes your "
        "seat back"
    )
    assert "seat 1 left this table (peer1 left the table)" in said
    # `fairdeal resume` says so in the app's table log, not on a stderr the app covers.
    from fairdeal.p2p.table.tools.session import current_settings, use_settings
    from fairdeal.ui.cli import build_parser
    from fairdeal.ui.commands import resume as resume_command

    apps: list[Any] = []
    previous = current_settings()
    try:
        arguments = build_parser().parse_args(["resume", str(ann_file), "--bind", "127.0.0.1"])
        assert resume_command.run(arguments, apps.append) == 0
    finally:
        use_settings(previous)
    shown = [e.text for e in apps[0].first_session.history.events if isinstance(e, Notice)]
    assert f"Resuming: {said[0]}." in shown and f"Resuming: {said[1]}." in shown
    assert "left this table" not in capsys.readouterr().err


async def test_the_audit_of_an_ended_table_says_who_left_and_who_ended_it(tmp_path: Path) -> None:
    table, bob_at, ann_at = await _bob_leaves_and_ann_ends(tmp_path)
    await table.close()
    report = audit_transcript(table.transcript(0))
    assert report.verified and not report.over
    text = report.result_text()
    assert "incomplete" not in text and text.startswith("ended, not finished")
    assert f"seat 1 left after {bob_at} entries ('peer1 left the table')" in text
    assert f"seat 0 ended the table after {ann_at} entries" in text
    assert [(g.seat, g.ended) for g in report.departures] == [(1, False), (0, True)]
    assert report.to_json()["departures"][1]["reason"] == "peer0 ended the table after peer1 left"


async def test_a_seat_that_comes_back_is_no_longer_gone(tmp_path: Path) -> None:
    table = await open_table(2, tmp_path, bots=False)
    redial: asyncio.Task[None] | None = None
    try:
        for peer in table.peers:
            await until(peer, lambda p=peer: p.table.state is not None)
        ann, bob = table.peers
        await bob.end_table("peer1 left the table")
        await until(ann, lambda: 1 in ann.left_seats)
        await table.meshes[1].close()
        assert ended_marker(bob.transcript_path).exists()
        # Bob runs `fairdeal resume`: the same transcript, a fresh process and mesh
        mesh = Mesh(identity(1))
        await mesh.start("127.0.0.1", 0)
        signed = sign_roster([identity(0), identity(1)], table.roster.table, ann.options)
        again = make_peer(1, table.roster, mesh, tmp_path, ann.options, signed_roster=signed)
        table.peers[1], table.meshes[1] = again, mesh
        await again.start()
        assert not ended_marker(again.transcript_path).exists()  # back on purpose
        await mesh.connect(*table.meshes[0].address, expected_peer=identity(0).key)
        await until(ann, lambda: 1 not in ann.left_seats)
        returned = [e for e in ann.history.events if isinstance(e, SeatReturned)]
        assert returned == [SeatReturned(1)]
        assert [e for e in ann.history.events if isinstance(e, SeatLeft)] == [
            SeatLeft(1, "peer1 left the table")
        ]
    finally:
        if redial is not None:
            redial.cancel()
        await table.close()


def test_the_left_notice_does_not_repeat_itself() -> None:
    assert left_notice("Bob", "Bob left the table") == "Bob left the table."
    assert left_notice("Ann", "Ann ended the table after Bob left") == (
        "Ann ended the table after Bob left."
    )
    assert left_notice("Bob", "gone fishing") == "Bob left the table (gone fishing)."


def test_an_unreadable_or_forged_left_file_changes_nothing(tmp_path: Path) -> None:
    from fairdeal.p2p.log.tablelog import Roster
    from fairdeal.p2p.table.core.leaving import sign_left
    from fairdeal.p2p.table.runtime.left_file import append_left, read_left

    roster = Roster(b"t" * 16, (identity(0).key, identity(1).key))
    transcript = tmp_path / "t.transcript"
    forged = sign_left(identity(0), roster, 1, b"\0" * 32, "peer1 left")  # signed by seat 0
    append_left(transcript, forged)
    assert read_left(transcript, roster) == []
    honest = sign_left(identity(1), roster, 1, b"\0" * 32, "peer1 left")
    append_left(transcript, honest)
    assert [m.seat for m in read_left(transcript, roster)] == [1]
    left_path(transcript).write_bytes(left_path(transcript).read_bytes() + b"\xff\xff")
    assert [m.seat for m in read_left(transcript, roster)] == [1]  # a torn tail is ignored
