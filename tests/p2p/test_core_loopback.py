"""3 to 8 peers in one process on loopback form the mesh and agree on one signed log;
a peer that crashes restarts from its transcript and catches up."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import seat_order
from fairdeal.p2p.log.transcript import load_transcript
from fairdeal.p2p.net.mesh import Mesh
from tests.p2p.core_support import (
    FAST,
    LoopbackPeer,
    connect_all,
    make_identity,
    start_table,
    stop_table,
)


def play_turns(peers: list[LoopbackPeer], total: int) -> None:
    """Each peer publishes when the log says it is its turn, until `total` entries."""

    def on_applied_for(peer: LoopbackPeer):
        def maybe_move(_: Envelope | None = None) -> None:
            log = peer.sync.log
            position = len(log.entries)
            my_turn = position < total and log.ordering(log) == peer.seat
            if my_turn and not any(e.seat == peer.seat for e in log.buffered):
                peer.sync.publish("move", {"position": position})

        return maybe_move

    for peer in peers:
        mover = on_applied_for(peer)
        peer.sync.log.on_applied(mover)
        mover()


@pytest.mark.parametrize("count", [3, 5, 8])
async def test_peers_form_a_mesh_and_agree_on_one_log(count: int) -> None:
    peers = await start_table(count)
    try:
        for peer in peers:
            assert len(peer.mesh.peers) == count - 1
        total = 3 * count
        play_turns(peers, total)
        for peer in peers:
            await peer.sync.wait_for_length(total, timeout=10)
        reference = [e.signed for e in peers[0].sync.log.entries]
        assert len(reference) == total
        for peer in peers:
            assert [e.signed for e in peer.sync.log.entries] == reference
            assert peer.sync.log.head == peers[0].sync.log.head
            assert peer.sync.log.faults == [] and not peer.mesh.errors
        assert [e.seat for e in peers[0].sync.log.entries] == [i % count for i in range(total)]
    finally:
        await stop_table(peers)


async def test_burst_of_envelopes_signed_ahead_of_turn_is_ordered_identically() -> None:
    peers = await start_table(4)
    try:
        for peer in peers:  # everyone signs five moves at once, before seeing any other
            for n in range(5):
                peer.sync.publish("move", {"n": n})
        for peer in peers:
            await peer.sync.wait_for_length(20, timeout=10)
        orders = [[e.signed for e in peer.sync.log.entries] for peer in peers]
        assert all(order == orders[0] for order in orders)
    finally:
        await stop_table(peers)


async def test_crashed_peer_restarts_from_its_transcript_and_catches_up(tmp_path: Path) -> None:
    peers = await start_table(4, transcripts=tmp_path)
    restarted: TableSync | None = None
    try:
        play_turns(peers, 8)
        for peer in peers:
            await peer.sync.wait_for_length(8, timeout=10)
        victim = peers[3]
        applied_before = [e.signed for e in victim.sync.log.entries]
        # Crash: no goodbye, the file is simply abandoned where it is.
        for channel in [victim.mesh.channel(p.mesh.identity.key) for p in peers[:3]]:
            assert channel is not None
            channel._writer.transport.abort()
        await victim.mesh.close()
        on_disk = load_transcript(tmp_path / "seat3.transcript")  # read before any close
        assert victim.sync.transcript is not None
        victim.sync.transcript._file.close()  # what the process's death does, without a sync
        assert [e.signed for e in on_disk.applied] == applied_before  # nothing applied was lost
        for peer in peers[:3]:
            await peer.mesh.wait_until(
                lambda p=peer: victim.mesh.identity.key not in p.mesh.peers, 5
            )

        # The others keep signing; seat 3's turn comes at position 11 and blocks them there.
        survivors = peers[:3]
        play_turns(survivors, 12)
        for peer in survivors:
            await peer.sync.wait_for_length(11, timeout=10)

        mesh = Mesh(make_identity(3), FAST)
        await mesh.start()
        restarted = TableSync.restore(
            mesh, make_identity(3), tmp_path / "seat3.transcript", seat_order([0, 1, 2, 3])
        )
        assert [e.signed for e in restarted.log.entries] == applied_before
        replacement = LoopbackPeer(3, mesh, restarted)
        await connect_all([*survivors, replacement])
        await restarted.wait_for_length(11, timeout=10)
        play_turns([replacement], 12)
        for peer in [*survivors, replacement]:
            await peer.sync.wait_for_length(12, timeout=10)
        reference = [e.signed for e in survivors[0].sync.log.entries]
        assert [e.signed for e in restarted.log.entries] == reference
        on_disk = load_transcript(tmp_path / "seat3.transcript")
        assert [e.signed for e in on_disk.applied] == reference
        peers = [*survivors, replacement]
    finally:
        await stop_table(peers)


async def test_a_peer_that_missed_envelopes_gets_them_relayed_by_anyone() -> None:
    peers = await start_table(3)
    try:
        # Seat 0 signs but its envelope only reaches seat 1 (the channel to seat 2 is gone).
        channel = peers[0].mesh.channel(peers[2].mesh.identity.key)
        assert channel is not None
        await channel.close("test: cut the link")
        await peers[0].mesh.wait_until(lambda: len(peers[0].mesh.peers) == 1, 5)
        envelope = peers[0].sync.publish("move", {"only": "seat 1 hears this"})
        await peers[1].sync.wait_for_length(1, timeout=5)
        assert peers[2].sync.log.entries == []
        # Seat 1 moves; seat 2 sees the gap, asks seat 1, and seat 1 relays seat 0's envelope.
        peers[1].sync.publish("move", {})
        await peers[2].sync.wait_for_length(2, timeout=5)
        assert peers[2].sync.log.entries[0].signed == envelope.signed
    finally:
        await stop_table(peers)


def maintain_link(peers: list[LoopbackPeer], dialler: int, target: int) -> tuple[str, int]:
    """`dialler` keeps a link to `target` (redialling quickly after a drop); returns the
    target's listening address."""
    address = peers[target].mesh.address
    assert address is not None
    key = peers[target].mesh.identity.key
    peers[dialler].mesh.maintain(key, *address, retry_delays=(0.05,))
    return address


async def test_a_maintained_link_is_redialled_after_it_drops_and_the_log_catches_up() -> None:
    peers = await start_table(3)
    try:
        maintain_link(peers, 0, 2)
        first = peers[0].mesh.channel(peers[2].mesh.identity.key)
        assert first is not None
        first._writer.transport.abort()  # the link dies without a goodbye
        await peers[2].mesh.wait_until(
            lambda: (
                (c := peers[2].mesh.channel(peers[0].mesh.identity.key)) is not None
                and c.session_id != first.session_id
            ),
            5,
        )
        play_turns(peers, 6)
        for peer in peers:
            await peer.sync.wait_for_length(6, timeout=5)
        assert len({peer.sync.log.head for peer in peers}) == 1
    finally:
        await stop_table(peers)


async def test_maintain_keeps_trying_until_a_restarted_peer_listens_again() -> None:
    peers = await start_table(2)
    try:
        address = maintain_link(peers, 0, 1)
        await peers[1].mesh.close()  # seat 1 goes away; seat 0 keeps redialling
        await peers[0].mesh.wait_until(lambda: not peers[0].mesh.peers, 5)
        reborn = Mesh(make_identity(1), FAST)
        await reborn.start(*address)  # the same address, as after a restart
        peers[1] = LoopbackPeer(1, reborn, peers[1].sync)
        await peers[0].mesh.wait_for_peers([reborn.identity.key], timeout=5)
    finally:
        await stop_table(peers)


async def test_a_connected_peer_without_a_seat_gets_no_envelopes() -> None:
    peers = await start_table(3)
    watcher = Mesh(make_identity(6), FAST)
    got: list[dict] = []
    watcher.on("env", lambda peer, message: got.append(message))
    watcher.on("need", lambda peer, message: got.append(message))
    try:
        peers[0].mesh.accept_peer = None  # seat 0 also hosts a lobby: anyone may connect
        assert peers[0].mesh.address is not None
        await watcher.connect(*peers[0].mesh.address)
        await peers[0].mesh.wait_for_peers([watcher.identity.key], timeout=5)
        watcher.send(
            peers[0].mesh.identity.key, {"t": "need", "table": b"loopback-table", "have": [0, 0, 0]}
        )
        play_turns(peers, 3)
        for peer in peers:
            await peer.sync.wait_for_length(3, timeout=5)
        # A probe after the game messages: once it arrives, anything sent before it has too.
        arrived = asyncio.get_running_loop().create_future()
        watcher.on("probe", lambda peer, message: arrived.set_result(True))
        peers[0].mesh.send(watcher.identity.key, {"t": "probe"})
        await asyncio.wait_for(arrived, 5)
        assert got == []
    finally:
        await watcher.close()
        await stop_table(peers)
