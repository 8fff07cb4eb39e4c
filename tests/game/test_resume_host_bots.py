"""`fairdeal resume` of a host seat that had left takes its local bots back with it: they kept
its `left`, and a table that was left is not taken back by itself (p2p/table/tools/rejoin.py), so
they stayed behind and the resumed table waited for them for ever."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fairdeal.p2p.table.runtime.local_bots import bot_directory, bot_identity
from fairdeal.p2p.table.tools.session import resume_table

from .loopback import started_short_host

WAIT_S = 30.0


async def test_resuming_a_host_that_left_takes_its_local_bots_back(tmp_path: Path) -> None:
    """`fairdeal resume` of a host seat that had left: its local bots kept its `left`, and were
    left behind (a table that was left is not taken back by itself), so the table waited for
    them for ever. The resume is on purpose: they come back with the seat."""
    host = await started_short_host(tmp_path / "tess", WAIT_S, seats=2, bots=1)
    await host.wait_for(lambda: host.peer is not None and host.peer.table is not None, WAIT_S)
    assert host.peer is not None
    transcript = host.peer.transcript_path
    await host.end_table("Tess left the table")
    bot = bot_identity(host.settings.data, 0)
    bot_files = bot_directory(host.settings.data, 0) / "tables"
    async with asyncio.timeout(WAIT_S):  # the bot keeps the host's `left`
        while not any(bot_files.glob("*.left")):
            await asyncio.sleep(0.05)
    again = resume_table(transcript, host.settings)
    try:
        await again.start()
        await again.wait_for(
            lambda: (
                again.peer is not None and again.peer.table is not None and again.peer._connected(1)
            ),
            WAIT_S,
        )
        assert again.bot_keys == {bot.key}
    finally:
        await again.close()
