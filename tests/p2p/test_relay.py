"""Relay and equivocation proofs (protocol.md 4.4, 4.6), in memory:
an envelope that reaches one honest peer reaches every seated peer, each verified once; two
different envelopes signed for one place meet at an honest peer, which passes both on so that
every seated peer names the equivocator itself; a forged "second envelope" names only the peer
that delivered it; nothing goes to a peer without a seat."""

from __future__ import annotations

from unittest import mock

from fairdeal.p2p.canonical import pack_canonical, unpack_canonical
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import Roster, TableLog, seat_order
from tests.p2p.core_support import make_identity
from tests.p2p.memory_mesh import MemoryNetwork

TABLE = b"relay-table"


def open_memory_table(
    count: int, watchers: int = 0
) -> tuple[MemoryNetwork, list[TableSync], list[Identity]]:
    ids = [make_identity(i) for i in range(count)]
    roster = Roster(TABLE, tuple(i.key for i in ids))
    network = MemoryNetwork()
    meshes = [network.mesh(i) for i in ids]
    for w in range(watchers):
        network.mesh(make_identity(100 + w))
    syncs = [
        TableSync(mesh, TableLog(roster, seat_order(list(range(count)))), ids[s], s)  # type: ignore[arg-type]
        for s, mesh in enumerate(meshes)
    ]
    return network, syncs, ids


def cut_author_off(network: MemoryNetwork, ids: list[Identity], author: int, keep: set[int]):
    """The author's messages reach only the seats in `keep` (it crashed mid-broadcast)."""
    for seat, identity in enumerate(ids):
        if seat != author and seat not in keep:
            network.cut.add((ids[author].key, identity.key))


def two_envelopes_for_one_place(syncs: list[TableSync], ids: list[Identity], seat: int):
    log = syncs[seat].log
    first = log.author(ids[seat], seat, "move", {"n": 1})
    second = log.author(ids[seat], seat, "move", {"n": 2})
    assert (first.seat, first.seq) == (second.seat, second.seq) and first.signed != second.signed
    return first, second


def test_an_envelope_that_reached_one_peer_reaches_every_seated_peer() -> None:
    network, syncs, ids = open_memory_table(4)
    cut_author_off(network, ids, 0, keep={1})
    envelope = syncs[0].publish("move", {"n": 0})
    network.deliver()
    for sync in syncs:
        assert sync.log.entries == [envelope], sync.seat
    assert syncs[1].relayed == 1  # the only peer that got it passed it on


def test_each_copy_is_verified_once_and_duplicates_are_dropped_before_decoding() -> None:
    network, syncs, _ids = open_memory_table(4)
    with mock.patch.object(
        Envelope, "verify", autospec=True, side_effect=Envelope.verify
    ) as verify:
        envelope = syncs[0].publish("move", {"n": 0})
        network.deliver()
    # each peer (its author too) verified it once, however many copies reached it
    assert verify.call_count == 4
    assert all(sync.log.entries == [envelope] for sync in syncs)
    assert sum(sync.duplicates for sync in syncs) > 0


def test_relay_never_sends_to_the_author_nor_back_to_the_deliverer_nor_to_a_watcher() -> None:
    network, syncs, ids = open_memory_table(3, watchers=1)
    syncs[0].publish("move", {"n": 0})
    network.deliver()
    watcher = make_identity(100).key
    envs = [(src, dst) for src, dst, kind in network.sent if kind == "env"]
    assert all(dst != watcher for _src, dst in envs)
    assert (ids[1].key, ids[0].key) not in envs and (ids[2].key, ids[0].key) not in envs
    # 0 -> 1, 0 -> 2, then 1 -> 2 and 2 -> 1 (each relays once; the copies are dropped)
    assert sorted(envs) == sorted(
        [
            (ids[0].key, ids[1].key),
            (ids[0].key, ids[2].key),
            (ids[1].key, ids[2].key),
            (ids[2].key, ids[1].key),
        ]
    )


def test_equivocation_sent_to_disjoint_peers_is_named_by_every_honest_peer() -> None:
    """Attack 2: one envelope to some peers, a different one for the same seq to the others."""
    network, syncs, ids = open_memory_table(4)
    first, second = two_envelopes_for_one_place(syncs, ids, 0)
    syncs[0].mesh.send(ids[1].key, first.to_wire())
    for seat in (2, 3):
        syncs[0].mesh.send(ids[seat].key, second.to_wire())
    network.deliver()
    for sync in syncs[1:]:
        faults = [f for f in sync.log.faults if f.kind == "equivocation"]
        assert len(faults) == 1, (sync.seat, sync.log.faults)
        fault = faults[0]
        assert fault.seat == 0
        assert {e.signed for e in fault.evidence} == {first.signed, second.signed}
        assert all(e.verify(ids[0].key) for e in fault.evidence)  # each checks the proof
        named = [str(error) for error in sync.mesh.errors]
        assert named and all("seat 0" in line and "equivocated" in line for line in named)


def test_equivocation_of_another_kind_of_envelope_is_named_too() -> None:
    network, syncs, ids = open_memory_table(3)
    log = syncs[0].log
    claim = log.author(ids[0], 0, "move", {"n": 1})
    tick = log.author(ids[0], 0, "tick", {})
    syncs[0].mesh.send(ids[1].key, claim.to_wire())
    syncs[0].mesh.send(ids[2].key, tick.to_wire())
    network.deliver()
    for sync in syncs[1:]:
        assert [f.seat for f in sync.log.faults if f.kind == "equivocation"] == [0]


def test_a_forged_second_envelope_names_nobody_but_its_deliverer() -> None:
    """A tampered copy (another body, a signature that does not verify) of seat 0's envelope,
    delivered by seat 1: no fault against seat 0, seat 1 is named, the forgery goes no further."""
    network, syncs, ids = open_memory_table(4)
    envelope = syncs[0].publish("move", {"n": 0})
    network.deliver()
    fields = unpack_canonical(envelope.signed)
    fields[-1] = {"n": 99}  # another body under seat 0's signature of the first one
    forged = {"t": "env", "d": pack_canonical(fields), "s": envelope.signature}
    network.sent.clear()
    syncs[1].mesh.send(ids[2].key, forged)
    network.deliver()
    assert syncs[2].log.faults == []
    assert [str(e) for e in syncs[2].mesh.errors] and all(
        "seat 1" in str(e) and "bad signature" in str(e) for e in syncs[2].mesh.errors
    )
    assert [(s, d) for s, d, _k in network.sent] == [(ids[1].key, ids[2].key)]  # not relayed
    for sync in syncs:
        assert sync.log.entries == [envelope]
