"""A seat taken back after a crash while another seat attacks it (old copies, forgeries,
another table's envelopes, a second envelope for a place already used): the resumed seat refuses
what is bad naming the seat that sent it, changes nothing for it, and ends in the same verified
log as everyone; a double signature is proved and blamed on its author at every honest seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.p2p.log.envelope import Envelope, sign_envelope
from fairdeal.p2p.table.tools.audit import audit_many

from .support import LocalTable, identity, open_table, play_to_end, restart_seat

pytestmark = pytest.mark.timeout(180)
VICTIM, ATTACKER, OTHER = 1, 2, 0
SEED = 4


async def crash_and_restart_beside_the_attacker(table: LocalTable, tmp_path: Path) -> None:
    """The victim crashes mid-game and comes back connected to the attacker only: it is still
    waiting for the others' answers (signing nothing) when the attack comes."""
    victim = table.peers[VICTIM]
    await victim.sync.wait_until(lambda: victim.table.applied >= 40, timeout=60)
    await victim.close()
    await table.meshes[VICTIM].close()
    restarted = await restart_seat(table, VICTIM, tmp_path, seed=SEED)
    address = table.meshes[ATTACKER].address
    assert address is not None
    await table.meshes[VICTIM].connect(*address, expected_peer=identity(ATTACKER).key)
    await table.meshes[ATTACKER].wait_for_peers([identity(VICTIM).key], timeout=10)
    assert restarted.recovery.recovering


def connect_the_rest(table: LocalTable) -> object:
    address = table.meshes[OTHER].address
    assert address is not None
    return table.meshes[VICTIM].connect(*address, expected_peer=identity(OTHER).key)


def resigned(envelope: Envelope, **change: object) -> Envelope:
    """`envelope` with fields changed, signed by the attacker's key."""
    fields = {
        "table": envelope.table,
        "seat": envelope.seat,
        "seq": envelope.seq,
        "prev": envelope.prev,
        "kind": envelope.kind,
        "body": envelope.body,
        **change,
    }
    return sign_envelope(identity(ATTACKER), **fields)  # type: ignore[arg-type]


async def test_old_forged_and_foreign_envelopes_change_nothing_for_a_resuming_seat(
    tmp_path: Path,
) -> None:
    table = await open_table(3, tmp_path, seed=SEED, silence_limit=60.0)
    try:
        await crash_and_restart_beside_the_attacker(table, tmp_path)
        held = table.peers[ATTACKER].sync.log
        entries = list(held.entries)
        theirs = [e for e in entries if e.seat == OTHER]
        mine = [e for e in entries if e.seat == ATTACKER]
        next_of_other = held.next_seq(OTHER)
        tampered = entries[-1].to_wire()
        tampered["d"] = tampered["d"][:-1] + bytes([tampered["d"][-1] ^ 1])
        attack = [
            *(e.to_wire() for e in entries),  # old: every envelope applied so far, again
            tampered,  # its signature no longer holds
            # forged: the attacker's key in seat 0's name, for seat 0's next place
            resigned(theirs[-1], seq=next_of_other, prev=held.head).to_wire(),
            # foreign: the attacker's own next place, signed for another table
            resigned(mine[-1], table=b"f" * 16, seq=held.next_seq(ATTACKER)).to_wire(),
            {"t": "env", "d": b"\x93junk", "s": b"s" * 64},
        ]
        for message in attack:
            assert table.meshes[ATTACKER].send(identity(VICTIM).key, message)
        await table.meshes[ATTACKER].drain()
        await connect_the_rest(table)  # type: ignore[misc]
        await play_to_end(table, timeout=90)
        for peer in table.peers:
            assert peer.table.fault is None, peer.table.fault
        refused = [str(e) for e in table.meshes[VICTIM].errors]
        assert len(refused) >= 4, refused  # tampered, forged, foreign, junk
        assert all("seat 2" in e or "peer2" in e for e in refused), refused  # the sender
    finally:
        await table.close()
    reports, disagreement = audit_many([table.transcript(s) for s in range(3)])
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]


async def test_a_double_signature_sent_to_a_resuming_seat_is_blamed_on_its_author(
    tmp_path: Path,
) -> None:
    table = await open_table(3, tmp_path, seed=SEED, silence_limit=60.0)
    try:
        await crash_and_restart_beside_the_attacker(table, tmp_path)
        own = [e for e in table.peers[ATTACKER].sync.log.entries if e.seat == ATTACKER]
        first = own[len(own) // 2]  # a place the victim applied before its crash
        twin = resigned(
            first, body={**first.body, "twin": 1} if isinstance(first.body, dict) else [first.body]
        )
        assert table.meshes[ATTACKER].send(identity(VICTIM).key, twin.to_wire())
        await table.meshes[ATTACKER].drain()
        await connect_the_rest(table)  # type: ignore[misc]
        for seat in (VICTIM, OTHER):  # the proof reaches the other honest seat too
            peer = table.peers[seat]
            await peer.finished(timeout=60)
            fault = peer.table.fault
            assert fault is not None and fault.seat == ATTACKER, fault
            assert "equivocat" in str(fault.what) + str(fault.evidence)
    finally:
        await table.close()
