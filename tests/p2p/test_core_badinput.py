"""Bad input over real sockets: an oversized frame, a half frame and a stall, garbage, a replayed
encrypted frame, a bad envelope. Each is reported naming the peer, and the others carry on."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import AsyncIterator

import pytest

from fairdeal.p2p.errors import (
    DecryptError,
    EnvelopeError,
    FrameTimeout,
    FrameTooLarge,
    HandshakeError,
    P2PError,
)
from fairdeal.p2p.identity import PublicIdentity
from fairdeal.p2p.log.envelope import sign_envelope
from tests.p2p.core_support import FAST, LoopbackPeer, start_table, stop_table


@pytest.fixture
async def table() -> AsyncIterator[list[LoopbackPeer]]:
    peers = await start_table(3)
    yield peers
    await stop_table(peers)


def first_error(peer: LoopbackPeer) -> asyncio.Future[P2PError]:
    future: asyncio.Future[P2PError] = asyncio.get_running_loop().create_future()
    peer.mesh.on_error(lambda error: future.done() or future.set_result(error))
    return future


async def others_still_talk(peers: list[LoopbackPeer], sender: int, receiver: int) -> None:
    got: asyncio.Future[dict] = asyncio.get_running_loop().create_future()

    def handle(peer: PublicIdentity, message: dict) -> None:
        if not got.done():
            got.set_result(message)

    peers[receiver].mesh.on("probe", handle)
    assert peers[sender].mesh.send(peers[receiver].mesh.identity.key, {"t": "probe", "n": 42})
    assert (await asyncio.wait_for(got, 2))["n"] == 42


def raw_writer(peers: list[LoopbackPeer], sender: int, receiver: int) -> asyncio.StreamWriter:
    channel = peers[sender].mesh.channel(peers[receiver].mesh.identity.key)
    assert channel is not None
    return channel._writer


async def wait_disconnected(peers: list[LoopbackPeer], at: int, gone: int) -> None:
    key = peers[gone].mesh.identity.key
    await peers[at].mesh.wait_until(lambda: key not in peers[at].mesh.peers, 5)


async def test_oversized_frame_is_refused_before_its_body_and_names_the_peer(
    table: list[LoopbackPeer],
) -> None:
    errors = first_error(table[1])
    raw_writer(table, 0, 1).write(struct.pack(">I", FAST.max_frame_size + 1))
    error = await asyncio.wait_for(errors, 2)
    assert isinstance(error, FrameTooLarge)
    assert "peer0" in error.culprit and "exceeds the cap" in str(error)
    await wait_disconnected(table, 1, 0)
    await others_still_talk(table, 2, 1)
    await others_still_talk(table, 0, 2)


async def test_half_a_frame_then_silence_is_timed_out_and_others_are_unaffected(
    table: list[LoopbackPeer],
) -> None:
    errors = first_error(table[1])
    raw_writer(table, 0, 1).write(struct.pack(">I", 100) + b"only part of it")
    error = await asyncio.wait_for(errors, 5 * FAST.frame_timeout)
    assert isinstance(error, FrameTimeout) and "peer0" in error.culprit
    assert "stalled" in str(error)
    await wait_disconnected(table, 1, 0)
    await others_still_talk(table, 2, 1)


async def test_garbage_ciphertext_is_a_decrypt_error(table: list[LoopbackPeer]) -> None:
    errors = first_error(table[2])
    raw_writer(table, 1, 2).write(struct.pack(">I", 40) + b"\x00" * 40)
    error = await asyncio.wait_for(errors, 2)
    assert isinstance(error, DecryptError) and "peer1" in error.culprit
    await others_still_talk(table, 0, 2)


async def test_replayed_encrypted_frame_is_rejected(table: list[LoopbackPeer]) -> None:
    errors = first_error(table[1])
    channel = table[0].mesh.channel(table[1].mesh.identity.key)
    assert channel is not None
    channel.send({"t": "probe-ignored"})
    channel._send.counter -= 1  # the same nonce again: byte-identical to the frame just sent
    channel.send({"t": "probe-ignored"})
    error = await asyncio.wait_for(errors, 2)
    assert isinstance(error, DecryptError) and "replayed" in str(error)


async def test_bad_envelope_is_reported_against_the_sender_and_changes_no_state(
    table: list[LoopbackPeer],
) -> None:
    errors = first_error(table[1])
    log = table[1].sync.log
    forged = sign_envelope(
        table[0].mesh.identity,
        table=log.roster.table,
        seat=2,  # seat 2's place, signed by seat 0's key
        seq=0,
        prev=log.head,
        kind="move",
        body=None,
    )
    head_before = log.head
    table[0].mesh.send(table[1].mesh.identity.key, forged.to_wire())
    error = await asyncio.wait_for(errors, 2)
    assert isinstance(error, EnvelopeError) and "bad signature" in str(error)
    assert error.culprit.startswith("seat 0")
    assert log.head == head_before and log.buffered == [] and log.entries == []
    assert table[0].mesh.identity.key in table[1].mesh.peers  # content errors keep the link
    table[0].sync.publish("move", {"n": 1})
    await table[1].sync.wait_for_length(1, timeout=2)


async def test_wrong_table_envelope_is_reported(table: list[LoopbackPeer]) -> None:
    errors = first_error(table[2])
    other = sign_envelope(
        table[0].mesh.identity,
        table=b"another-table",
        seat=0,
        seq=0,
        prev=table[0].sync.log.head,
        kind="move",
        body=None,
    )
    table[0].mesh.send(table[2].mesh.identity.key, other.to_wire())
    error = await asyncio.wait_for(errors, 2)
    assert "not this table" in str(error) and error.culprit.startswith("seat 0")
    assert table[2].sync.log.buffered == []


async def test_replayed_envelope_over_the_network_is_applied_once(
    table: list[LoopbackPeer],
) -> None:
    envelope = table[0].sync.publish("move", {})
    await table[1].sync.wait_for_length(1, timeout=2)
    for _ in range(3):
        table[2].mesh.send(table[1].mesh.identity.key, envelope.to_wire())  # relayed replays
    table[1].sync.publish("move", {})
    await table[2].sync.wait_for_length(2, timeout=2)
    await table[1].sync.wait_for_length(2, timeout=2)
    assert len(table[1].sync.log.entries) == 2 and not table[1].mesh.errors


async def _raw_connect(peer: LoopbackPeer) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    assert peer.mesh.address is not None
    return await asyncio.open_connection(*peer.mesh.address)


async def test_oversized_frame_before_the_handshake_is_refused(table: list[LoopbackPeer]) -> None:
    errors = first_error(table[0])
    reader, writer = await _raw_connect(table[0])
    writer.write(struct.pack(">I", 1 << 20))
    error = await asyncio.wait_for(errors, 2)
    assert isinstance(error, FrameTooLarge) and "127.0.0.1" in error.culprit
    assert await asyncio.wait_for(reader.read(), 2) == b""  # the connection was closed
    writer.close()
    await others_still_talk(table, 1, 0)


async def test_silent_connection_is_dropped_after_the_handshake_timeout(
    table: list[LoopbackPeer],
) -> None:
    errors = first_error(table[0])
    _, writer = await _raw_connect(table[0])
    writer.write(b"\x00\x00")  # half a length prefix, then nothing
    error = await asyncio.wait_for(errors, 3 * FAST.handshake_timeout)
    assert isinstance(error, FrameTimeout | HandshakeError) and "127.0.0.1" in error.culprit
    writer.close()
    await others_still_talk(table, 2, 0)


async def test_a_peer_that_goes_silent_is_declared_dead(table: list[LoopbackPeer]) -> None:
    channel = table[1].mesh.channel(table[0].mesh.identity.key)
    assert channel is not None
    channel._frames.idle_timeout = 0.3  # seat 0 stops its pings below
    errors = first_error(table[1])
    peer0_channel = table[0].mesh.channel(table[1].mesh.identity.key)
    assert peer0_channel is not None
    peer0_channel._keepalive.cancel()
    error = await asyncio.wait_for(errors, 3)
    assert isinstance(error, FrameTimeout) and "silent" in str(error)
    await wait_disconnected(table, 1, 0)


async def test_a_frame_trickled_byte_by_byte_is_cut_off_at_the_frame_deadline(
    table: list[LoopbackPeer],
) -> None:
    errors = first_error(table[1])
    writer = raw_writer(table, 0, 1)
    writer.write(struct.pack(">I", 1000))
    started = asyncio.get_running_loop().time()
    while not errors.done():
        writer.write(b"\x00")  # one byte per tick: each read succeeds, the frame never ends
        await asyncio.wait({errors}, timeout=FAST.frame_timeout / 5)
        assert asyncio.get_running_loop().time() - started < 10 * FAST.frame_timeout
    error = errors.result()
    assert isinstance(error, FrameTimeout) and "stalled" in str(error)
    await others_still_talk(table, 2, 1)
