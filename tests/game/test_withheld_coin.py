"""A withheld coin reveal is named.

The last revealer of the first-player coin (seat N−1: reveals are applied in seat order, so it
sees every other value first) commits and then stays silent. Past the silence limit every other
peer names it as withholding the coin, and any of them may end the table with the evidence: its
signed commitment, kept beside the transcript. Ordinary silence (a move) cannot end a table.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgpack
import pytest

from fairdeal.engine import IllegalAction
from fairdeal.p2p.log.envelope import decode_envelope
from fairdeal.p2p.net.framing import MAX_FRAME_SIZE, PREFIX, PREFIX_SIZE, encode_frame, pack_message
from fairdeal.p2p.table.core.api import FaultDetected, SeatStatus, TableEvent
from fairdeal.p2p.table.core.withheld import WITHHELD_KIND
from fairdeal.p2p.table.runtime.peer import TablePeer, evidence_path
from fairdeal.p2p.table.tools.audit import audit_transcript

from .cheaters import WithholdingTable
from .support import open_table

LIMIT = 0.3
SEATS = 4
LAST = SEATS - 1


def read_records(data: bytes) -> list[dict[str, Any]]:
    """The framed msgpack records of a `.faults` file (protocol.md 10.4)."""
    records, offset = [], 0
    while offset < len(data):
        (length,) = PREFIX.unpack_from(data, offset)
        start = offset + PREFIX_SIZE
        records.append(msgpack.unpackb(data[start : start + length], raw=False))
        offset = start + length
    return records


async def aenumerate(events: AsyncIterator[TableEvent]) -> AsyncIterator[tuple[int, TableEvent]]:
    index = 0
    async for event in events:
        yield index, event
        index += 1


async def withholding_status(peer: TablePeer) -> SeatStatus:
    async with asyncio.timeout(20):
        async for event in peer.events():
            if isinstance(event, SeatStatus) and event.seat == LAST and event.withholding:
                return event
    raise AssertionError("the session closed")


async def test_the_last_revealer_withholding_the_coin_is_named_and_the_table_ended(
    tmp_path: Path,
) -> None:
    table = await open_table(SEATS, tmp_path, silence_limit=LIMIT, tables={LAST: WithholdingTable})
    others = [peer for peer in table.peers if peer.seat != LAST]
    try:
        statuses = [await withholding_status(peer) for peer in others]
        for status in statuses:  # every other player is shown who holds up the coin
            assert status.connected
            assert status.waiting_seconds is not None and status.waiting_seconds >= LIMIT
            assert "first-player" in (status.withholding or "")
        ender = others[0]
        fault = ender.end_over_withheld_reveal()
        assert fault.seat == LAST and "withheld its reveal" in fault.what
        assert "committed" in fault.evidence and "seats that revealed: 0, 1, 2" in fault.evidence
        await ender.finished(5)
        assert ender.table is not None and ender.table.fault == fault
        assert any(isinstance(e, FaultDetected) and e.seat == LAST for e in ender.history.events)
        (record,) = read_records(evidence_path(ender.transcript_path).read_bytes())
        assert record["seat"] == LAST and record["kind"] == WITHHELD_KIND
        ((signed, signature),) = record["evidence"]
        commitment = decode_envelope(signed, signature, "evidence")
        assert commitment.seat == LAST and commitment.verify(table.roster.keys[LAST])
        assert commitment.body["kind"] == "deck.coin.commit"
        with pytest.raises(IllegalAction):  # ended once; nothing more to end
            ender.end_over_withheld_reveal()
        report = audit_transcript(ender.transcript_path)  # the auditor checks the evidence
        assert report.verified and not report.over
        assert report.withheld is not None and f"seat {LAST} withheld" in report.withheld
        assert "table ended" in report.result_text()
        # Evidence that is not the seat's signed commitment from the log proves nothing.
        sidecar = evidence_path(ender.transcript_path)
        record["evidence"] = [[signed, bytes([signature[0] ^ 1]) + signature[1:]]]
        sidecar.write_bytes(encode_frame(pack_message(record), MAX_FRAME_SIZE))
        assert audit_transcript(ender.transcript_path).withheld is None
    finally:
        await table.close()


async def test_a_table_cannot_be_ended_before_the_limit_or_over_an_ordinary_wait(
    tmp_path: Path,
) -> None:
    silent = 1
    table = await open_table(3, tmp_path, silence_limit=LIMIT, wrap={silent: lambda bot: None})
    try:
        peer = table.peers[0]
        with pytest.raises(IllegalAction, match="withholding a coin reveal"):
            peer.end_over_withheld_reveal()  # nobody is late yet
        waiting = table.peers[silent]
        assert waiting.sync is not None and waiting.table is not None
        await waiting.sync.wait_until(lambda: waiting.table.my_turn(), timeout=30)
        mark = len(peer.history)  # from here on the table waits for seat 1's move
        async with asyncio.timeout(20):
            async for index, event in aenumerate(peer.events()):
                if index < mark:
                    continue
                if isinstance(event, SeatStatus) and event.waiting_seconds is not None:
                    assert event.seat == silent and event.withholding is None
                    break
        with pytest.raises(IllegalAction, match="withholding a coin reveal"):
            # a slow move is waited out, never a reason to end the table
            peer.end_over_withheld_reveal()
        assert peer.table is not None and peer.table.fault is None
    finally:
        await table.close()
