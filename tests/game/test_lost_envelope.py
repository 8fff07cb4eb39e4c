"""Attack 5 (Larry): a seat killed right after signing an action, which reached only one other
seat; its transcript is cut at that record and it restarts without it. The seat that got the
envelope relays it to the one that did not (before relay that seat waited for ever), and the
restarted author takes its own envelope back from the others before it signs anything new (a
different envelope for that seq would be equivocation): the game completes, nobody is blamed,
and every transcript audits."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from fairdeal.engine.larry import PlayFaceDown, legal_actions
from fairdeal.engine.larry.codec import to_data
from fairdeal.p2p.games.larry.table import ACT
from fairdeal.p2p.table.tools.audit import audit_many

from .support import open_table, restart_seat
from .test_lost_records import records

pytestmark = pytest.mark.timeout(120)
VICTIM, GOT_IT, MISSED_IT = 1, 0, 2


async def test_an_action_that_reached_one_seat_before_its_author_crashed_reaches_all(
    tmp_path: Path,
) -> None:
    table = await open_table(3, tmp_path, seed=4, silence_limit=60.0, wrap={VICTIM: lambda b: None})
    keys = table.roster.keys
    try:
        victim = table.peers[VICTIM]
        await victim.sync.wait_until(lambda: victim.table.my_turn(), timeout=60)
        action = next(a for a in legal_actions(victim.table.view()) if isinstance(a, PlayFaceDown))
        send_to_all = victim.mesh.broadcast

        def only_to_one_seat(message, exclude=()):  # the crash cuts the broadcast short
            return send_to_all(message, exclude={*exclude, keys[MISSED_IT]})

        victim.mesh.broadcast = only_to_one_seat  # type: ignore[method-assign]
        envelope = victim.sync.publish(ACT, to_data(action))
        await victim.mesh.drain()
        await victim.close()  # killed right after signing
        await table.meshes[VICTIM].close()
        got_it = table.peers[GOT_IT]
        await got_it.sync.wait_until(
            lambda: got_it.table.applied > 0 and bool(got_it.sync.log.holds(VICTIM, envelope.seq)),
            timeout=30,
        )
        # the seat that missed the action is the one the table waits for next
        await got_it.sync.wait_until(
            lambda: len(got_it.sync.log.entries) > 0 and got_it.sync.log.entries[-1] == envelope,
            timeout=30,
        )
        assert got_it.table.expected_seat() == MISSED_IT

        path = table.transcript(VICTIM)
        data = path.read_bytes()
        own = [offset for offset, record in records(data) if record["k"] == "signed"]
        path.write_bytes(data[: own[-1]])  # the disk kept nothing from the signed action on

        restarted = await restart_seat(table, VICTIM, tmp_path, seed=4)
        mesh = table.meshes[VICTIM]
        # The restarted seat meets the one that missed the action first and answers its
        # catch-up request before it has the action back itself (the run that stalled before).
        answered = asyncio.Event()
        table.peers[MISSED_IT].sync.on_answered(lambda seat: seat == VICTIM and answered.set())
        await mesh.connect(*table.meshes[MISSED_IT].address, expected_peer=keys[MISSED_IT])
        async with asyncio.timeout(30):
            await answered.wait()
        await mesh.connect(*table.meshes[GOT_IT].address, expected_peer=keys[GOT_IT])
        for peer in table.peers:
            await peer.finished(timeout=60)
            assert peer.table.fault is None, peer.table.fault
        # the restarted author adopted the envelope it had signed, not a new one for that seq
        assert restarted.sync.log.held(VICTIM, envelope.seq).signed == envelope.signed
    finally:
        await table.close()
    reports, disagreement = audit_many([table.transcript(s) for s in range(3)])
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
