"""The mesh: one channel per peer, duplicate dials resolved the same way on both sides,
dispatch by message type, a misbehaving peer dropped while the others carry on."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from fairdeal.p2p.identity import PublicIdentity
from fairdeal.p2p.net.mesh import Mesh
from tests.p2p.core_support import FAST, make_identity


async def start_meshes(count: int) -> list[Mesh]:
    meshes = [Mesh(make_identity(i), FAST) for i in range(count)]
    for mesh in meshes:
        await mesh.start()
    return meshes


async def close_all(meshes: list[Mesh]) -> None:
    await asyncio.gather(*(mesh.close() for mesh in meshes))


async def test_every_peer_dialling_every_other_yields_one_channel_per_pair() -> None:
    meshes = await start_meshes(4)
    try:
        dials = []
        for a, b in itertools.permutations(meshes, 2):
            assert b.address is not None
            dials.append(a.connect(*b.address, expected_peer=b.identity.key))
        await asyncio.gather(*dials)
        for mesh in meshes:
            others = {m.identity.key for m in meshes if m is not mesh}
            await mesh.wait_for_peers(others, timeout=2)
        # Each side ends up keeping the channel dialled by the smaller key: the same channel.
        for mesh in meshes:
            await mesh.wait_until(lambda mesh=mesh: _keeps_smaller_dialler(mesh, meshes), 2)
        for a, b in itertools.combinations(meshes, 2):
            left, right = a.channel(b.identity.key), b.channel(a.identity.key)
            assert left is not None and right is not None
            assert left.session_id == right.session_id
    finally:
        await close_all(meshes)


def _keeps_smaller_dialler(mesh: Mesh, meshes: list[Mesh]) -> bool:
    for other in meshes:
        if other is mesh:
            continue
        channel = mesh.channel(other.identity.key)
        if channel is None or channel.initiator != (mesh.identity.key < other.identity.key):
            return False
    return True


async def test_broadcast_reaches_each_peer_once_through_its_handler() -> None:
    meshes = await start_meshes(3)
    received: dict[int, list[tuple[bytes, int]]] = {1: [], 2: []}
    done = asyncio.get_running_loop().create_future()

    def handler_for(index: int):
        def handle(peer: PublicIdentity, message: dict) -> None:
            received[index].append((peer.key, message["n"]))
            if all(received.values()) and not done.done():
                done.set_result(None)

        return handle

    try:
        meshes[1].on("note", handler_for(1))
        meshes[2].on("note", handler_for(2))
        for other in meshes[1:]:
            assert other.address is not None
            await meshes[0].connect(*other.address)
        await meshes[0].wait_for_peers([m.identity.key for m in meshes[1:]], timeout=2)
        assert meshes[0].broadcast({"t": "unknown-kind", "n": 0}) == 2  # ignored by receivers
        assert meshes[0].broadcast({"t": "note", "n": 7}) == 2
        await asyncio.wait_for(done, 2)
        assert received == {1: [(meshes[0].identity.key, 7)], 2: [(meshes[0].identity.key, 7)]}
    finally:
        await close_all(meshes)


async def test_accept_filter_refuses_a_stranger() -> None:
    host = Mesh(make_identity(0), FAST, accept_peer=lambda peer: peer.key == make_identity(1).key)
    friend, stranger = Mesh(make_identity(1), FAST), Mesh(make_identity(2), FAST)
    await host.start()
    assert host.address is not None
    try:
        await friend.connect(*host.address)
        await host.wait_for_peers([friend.identity.key], timeout=2)
        errors = asyncio.get_running_loop().create_future()
        host.on_error(lambda error: errors.done() or errors.set_result(error))
        await stranger.connect(*host.address)
        error = await asyncio.wait_for(errors, 2)
        assert "not a member" in str(error) and stranger.identity.fingerprint in str(error)
        assert set(host.peers) == {friend.identity.key}
    finally:
        await close_all([host, friend, stranger])


async def test_pinned_dial_to_the_wrong_peer_fails() -> None:
    a, b = Mesh(make_identity(0), FAST), Mesh(make_identity(1), FAST)
    await b.start()
    assert b.address is not None
    try:
        with pytest.raises(Exception, match="expected identity"):
            await a.connect(*b.address, expected_peer=make_identity(5).key)
        assert a.peers == {}
    finally:
        await close_all([a, b])


async def test_a_failing_handler_does_not_drop_the_peer() -> None:
    a, b = Mesh(make_identity(0), FAST), Mesh(make_identity(1), FAST)
    await b.start()
    assert b.address is not None
    seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def broken(peer: PublicIdentity, message: dict) -> None:
        raise KeyError("a bug in the handler")

    b.on("first", broken)
    b.on("second", lambda peer, message: seen.set_result(message["n"]))
    try:
        await a.connect(*b.address)
        a.broadcast({"t": "first"})
        a.broadcast({"t": "second", "n": 2})
        assert await asyncio.wait_for(seen, 2) == 2
        assert a.identity.key in b.peers
    finally:
        await close_all([a, b])


@pytest.mark.parametrize("restarting", ["smaller key", "larger key"])
async def test_a_restarted_peer_is_accepted_at_once_while_its_old_channel_is_open(
    restarting: str,
) -> None:
    # The old channel was dialled by the smaller key, which the simultaneous-dial rule keeps; a
    # restarted peer (same identity, new Mesh) must still get in at once, without a redial loop.
    small, large = sorted((make_identity(0), make_identity(1)), key=lambda i: i.key)
    stays, goes = (large, small) if restarting == "smaller key" else (small, large)
    host, old = Mesh(stays, FAST), Mesh(goes, FAST)
    await host.start()
    await old.start()
    new = Mesh(goes, FAST)
    got: asyncio.Queue[tuple[bytes, int]] = asyncio.Queue()
    host.on("n", lambda peer, message: got.put_nowait((peer.key, message["n"])))
    new.on("n", lambda peer, message: got.put_nowait((peer.key, message["n"])))
    lost = asyncio.get_running_loop().create_future()
    old.on_peer_down(lambda peer: lost.done() or lost.set_result(peer.key))
    try:
        dialler, target = (host, old) if stays is small else (old, host)
        assert target.address is not None
        await dialler.connect(*target.address)
        await host.wait_for_peers([goes.key], timeout=2)
        await old.wait_for_peers([stays.key], timeout=2)
        stale = host.channel(goes.key)
        assert stale is not None and stale.initiator == (stays is small)

        assert host.address is not None
        await new.connect(*host.address, expected_peer=stays.key)  # old is still up
        await host.wait_until(lambda: host.channel(goes.key) is not stale, timeout=2)
        current = host.channel(goes.key)
        assert current is not None and current.peer_instance == new.instance != old.instance
        assert stale.closed
        assert await asyncio.wait_for(lost, 2) == stays.key  # the old run is told to go
        host.send(goes.key, {"t": "n", "n": 1})
        assert await asyncio.wait_for(got.get(), 2) == (stays.key, 1)
        new.send(stays.key, {"t": "n", "n": 2})
        assert await asyncio.wait_for(got.get(), 2) == (goes.key, 2)
        assert new.channel(stays.key) is not None
        assert new.channel(stays.key).session_id == current.session_id
    finally:
        await close_all([host, old, new])


async def test_what_one_turn_sends_to_a_peer_goes_out_in_one_write_in_order() -> None:
    sender, receiver = await start_meshes(2)
    got: asyncio.Queue[int] = asyncio.Queue()
    receiver.on("n", lambda peer, message: got.put_nowait(message["n"]))
    try:
        assert receiver.address is not None
        await sender.connect(*receiver.address, expected_peer=receiver.identity.key)
        channel = sender.channel(receiver.identity.key)
        assert channel is not None
        writes: list[int] = []
        transport_write = channel._writer.write

        def counted_write(data: bytes) -> None:
            writes.append(len(data))
            transport_write(data)

        channel._writer.write = counted_write  # type: ignore[method-assign]
        for n in range(5):
            assert sender.send(receiver.identity.key, {"t": "n", "n": n})
        sender.broadcast({"t": "n", "n": 5})
        assert writes == []  # queued until the end of the turn
        assert [await asyncio.wait_for(got.get(), 2) for _ in range(6)] == list(range(6))
        assert len(writes) == 1
        with pytest.raises(ValueError, match="exceeds the cap"):  # refused to the sender
            sender.send(receiver.identity.key, {"t": "n", "n": b"x" * FAST.max_frame_size})
    finally:
        await close_all([sender, receiver])
