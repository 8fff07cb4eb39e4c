"""Closing a networked table (quitting the app, leaving it) never waits for good.

The app closes its table when its screen goes (ui/screens/presence.py), after the terminal is
given back: a close that waits for ever leaves the process idle in its event loop, for good.
Closing cancels the table's flows (gathering, redialling, the local bots' seats) and used to wait
for every one of them to end. A flow that does not end when cancelled (a local bot's last flush
to a peer that reads nothing waits in its `finally`) kept the close, and the process, waiting.
Now it is left after `CLOSE_WAIT_S`, and the seat's peer and mesh are closed all the same."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from fairdeal.p2p.table.tools import session as table_session

from .loopback import started_short_host

WAIT_S = 30.0
SHORT_WAIT_S = 0.5


async def test_a_flow_that_does_not_end_when_cancelled_does_not_hold_the_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_session, "CLOSE_WAIT_S", SHORT_WAIT_S, raising=False)
    host = await started_short_host(tmp_path / "tess", WAIT_S, seats=2, bots=1)
    await host.wait_for(lambda: host.peer is not None and host.peer.table is not None, WAIT_S)
    peer = host.peer
    assert peer is not None
    flushed = asyncio.Event()  # the peer never reads: the flush would wait for ever
    cancelled = asyncio.Event()

    async def last_flush_waits() -> None:
        try:
            await asyncio.Event().wait()  # playing
        finally:
            cancelled.set()
            await flushed.wait()

    flow = host.spawn(last_flush_waits())
    await asyncio.sleep(0)  # the flow is running
    try:
        async with asyncio.timeout(WAIT_S):
            await host.close()
        assert cancelled.is_set() and not flow.done()
        assert peer.closed  # the transcript is synced and closed, the verifier thread ended
        assert host.seated is not None and not host.seated.mesh.peers  # the channels closed
    finally:
        flushed.set()
        await asyncio.gather(flow, return_exceptions=True)


async def test_closing_a_hosted_table_leaves_no_thread_of_its_seats(tmp_path: Path) -> None:
    """The local bots' seats are closed with the table: their deck verifier and transcript
    threads end (they were left idle, one pair per bot and table, for as long as the app ran)."""
    before = set(threading.enumerate())
    host = await started_short_host(tmp_path / "tess", WAIT_S, seats=3, bots=2)

    def dealt() -> bool:  # every seat has verified the others' shuffles on its thread
        table = None if host.peer is None else host.peer.table
        return table is not None and table.state is not None

    await host.wait_for(dealt, WAIT_S)
    await host.close()
    assert [t.name for t in threading.enumerate() if t not in before] == []
