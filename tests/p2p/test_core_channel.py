"""Handshake and secure channel: mutual authentication, pinning, versions, tampering, replay."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from fairdeal.p2p.errors import (
    ConnectionClosed,
    DecryptError,
    FrameTooLarge,
    HandshakeError,
    VersionMismatch,
)
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.net.channel import ChannelServer, CipherState, SecureChannel, open_channel
from fairdeal.p2p.net.framing import FrameReader, encode_frame, pack_message, unpack_message
from fairdeal.p2p.net.handshake import Initiator, Responder
from tests.p2p.core_support import FAST, make_identity


def test_in_memory_handshake_agrees_on_keys_and_identities() -> None:
    alice, bob = make_identity(0, "alice"), make_identity(1, "bob")
    initiator = Initiator(alice, "bob", expected_peer=bob.key)
    responder = Responder(bob, "alice")
    message3 = initiator.auth(responder.hello_ack(initiator.hello()))
    keys_r = responder.finish(message3)
    keys_i = initiator.keys
    assert keys_i is not None
    assert keys_i.peer.key == bob.key and keys_r.peer.key == alice.key
    assert keys_i.peer.name == "bob" and keys_r.peer.name == "alice"
    assert keys_i.send_key == keys_r.recv_key and keys_i.recv_key == keys_r.send_key
    assert keys_i.send_key != keys_i.recv_key
    assert keys_i.session_id == keys_r.session_id
    assert alice.sign(b"x").hex() not in repr(keys_i)
    assert keys_i.send_key.hex() not in repr(keys_i)


def test_each_side_learns_the_other_runs_instance_and_a_bad_one_fails_the_handshake() -> None:
    # The instance (protocol.md 3.3 `run`) lets the mesh tell a restarted peer from a duplicate.
    alice, bob = make_identity(0, "alice"), make_identity(1, "bob")
    initiator = Initiator(alice, "bob", instance=b"A" * 16)
    responder = Responder(bob, "alice", instance=b"B" * 16)
    keys_r = responder.finish(initiator.auth(responder.hello_ack(initiator.hello())))
    assert initiator.keys is not None and initiator.keys.peer_instance == b"B" * 16
    assert keys_r.peer_instance == b"A" * 16
    plain = Responder(bob, "alice")  # a peer that sends none is never taken for a restart
    initiator = Initiator(alice, "bob", instance=b"A" * 16)
    initiator.auth(plain.hello_ack(initiator.hello()))
    assert initiator.keys is not None and initiator.keys.peer_instance is None
    for bad in (b"", b"x" * 33):
        initiator, responder = Initiator(alice, "bob", instance=bad), Responder(bob, "dialler")
        with pytest.raises(HandshakeError, match="instance") as error:
            responder.finish(initiator.auth(responder.hello_ack(initiator.hello())))
        assert error.value.culprit == "dialler"


def test_pinned_key_mismatch_fails_naming_both_fingerprints() -> None:
    alice, bob, mallory = make_identity(0), make_identity(1), make_identity(2)
    initiator = Initiator(alice, "peer", expected_peer=bob.key)
    responder = Responder(mallory, "alice")
    with pytest.raises(HandshakeError) as error:
        initiator.auth(responder.hello_ack(initiator.hello()))
    assert bob.fingerprint in str(error.value) and mallory.fingerprint in str(error.value)


def test_responder_pinning_rejects_an_unexpected_initiator() -> None:
    alice, bob, mallory = make_identity(0), make_identity(1), make_identity(2)
    initiator = Initiator(mallory, "bob")
    responder = Responder(bob, "dialler", expected_peer=alice.key)
    with pytest.raises(HandshakeError, match=mallory.fingerprint):
        responder.finish(initiator.auth(responder.hello_ack(initiator.hello())))


def test_man_in_the_middle_swapping_ephemeral_key_is_detected() -> None:
    alice, bob = make_identity(0), make_identity(1)
    initiator = Initiator(alice, "bob", expected_peer=bob.key)
    responder = Responder(bob, "alice")
    hello = unpack_message(initiator.hello(), "t")
    hello["e"] = X25519PrivateKey.generate().public_key().public_bytes_raw()
    ack = responder.hello_ack(pack_message(hello))
    with pytest.raises(HandshakeError, match="tampered"):
        initiator.auth(ack)


def test_tampered_auth_message_is_rejected() -> None:
    alice, bob = make_identity(0), make_identity(1)
    initiator = Initiator(alice, "bob")
    responder = Responder(bob, "alice")
    message3 = unpack_message(initiator.auth(responder.hello_ack(initiator.hello())), "t")
    ciphertext = bytearray(message3["c"])
    ciphertext[5] ^= 1
    message3["c"] = bytes(ciphertext)
    with pytest.raises(HandshakeError, match="tampered"):
        responder.finish(pack_message(message3))


def test_version_mismatch_is_a_clear_error_on_both_sides() -> None:
    alice, bob = make_identity(0), make_identity(1)
    initiator = Initiator(alice, "bob", versions=(3,))
    responder = Responder(bob, "alice", versions=(1,))
    with pytest.raises(VersionMismatch, match=r"we speak \[1\], the peer speaks \[3\]"):
        responder.hello_ack(initiator.hello())
    with pytest.raises(VersionMismatch, match=r"we speak \[3\], the peer speaks \[1\]"):
        initiator.auth(responder.version_error())


@pytest.mark.parametrize("old", [1, 2, 3, 4])
def test_a_peer_of_an_older_protocol_version_is_refused(old: int) -> None:
    """Version 2 changed the fair deck's group (protocol.md §6.1), version 3 relays envelopes
    and changed The Lie's Phase 1, version 4 the shuffle proof's fields, version 5 the bounds on
    what one seat makes the others hold (protocol.md §8): no older version is offered."""
    alice, bob = make_identity(0), make_identity(1)
    old_peer = Initiator(alice, "bob", versions=(old,))
    with pytest.raises(VersionMismatch, match=rf"we speak \[5\], the peer speaks \[{old}\]"):
        Responder(bob, "alice").hello_ack(old_peer.hello())
    with pytest.raises(VersionMismatch, match=rf"we speak \[{old}\], the peer speaks \[5\]"):
        old_peer.auth(Responder(bob, "alice").version_error())


def test_highest_common_version_is_chosen() -> None:
    alice, bob = make_identity(0), make_identity(1)
    initiator = Initiator(alice, "bob", versions=(1, 2, 3))
    responder = Responder(bob, "alice", versions=(1, 2))
    responder.finish(initiator.auth(responder.hello_ack(initiator.hello())))
    assert initiator.keys is not None and initiator.keys.version == 2


def test_cipher_state_rejects_replay_and_reorder() -> None:
    key = bytes(range(32))
    sender, receiver = CipherState(key), CipherState(key)
    first, second = sender.encrypt(b"one"), sender.encrypt(b"two")
    assert receiver.decrypt(first, "peer") == b"one"
    with pytest.raises(DecryptError, match="peer"):
        receiver.decrypt(first, "peer")  # replay of frame 0 where frame 1 is due
    receiver2 = CipherState(key)
    with pytest.raises(DecryptError):
        receiver2.decrypt(second, "peer")  # frame 1 delivered first


async def queueing_server(identity: Identity) -> tuple[ChannelServer, asyncio.Queue[SecureChannel]]:
    """A started channel server for `identity` that queues every channel it accepts."""
    accepted: asyncio.Queue[SecureChannel] = asyncio.Queue()
    server = ChannelServer(identity, accepted.put, FAST)
    await server.start()
    return server, accepted


class Pair:
    def __init__(self, client: SecureChannel, server: SecureChannel) -> None:
        self.client, self.server = client, server


@pytest.fixture
async def pair() -> AsyncIterator[Pair]:
    alice, bob = make_identity(0, "alice"), make_identity(1, "bob")
    server, accepted = await queueing_server(bob)
    host, port = server.address
    client = await open_channel(host, port, alice, expected_peer=bob.key, config=FAST)
    server_side = await asyncio.wait_for(accepted.get(), 2)
    yield Pair(client, server_side)
    await client.close()
    await server_side.close()
    await server.close()


async def test_messages_flow_both_ways_over_tcp(pair: Pair) -> None:
    pair.client.send({"t": "greet", "n": 1, "blob": b"\x00\xff"})
    assert await asyncio.wait_for(pair.server.recv(), 2) == {
        "t": "greet",
        "n": 1,
        "blob": b"\x00\xff",
    }
    pair.server.send({"t": "reply"})
    assert (await asyncio.wait_for(pair.client.recv(), 2))["t"] == "reply"
    assert pair.client.peer.name == "bob" and pair.server.peer.name == "alice"


async def test_clean_close_reaches_the_peer_with_its_reason(pair: Pair) -> None:
    await pair.client.close("game over")
    with pytest.raises(ConnectionClosed, match="game over"):
        await asyncio.wait_for(pair.server.recv(), 2)


async def test_keepalive_pings_keep_an_idle_channel_open(pair: Pair) -> None:
    # The idle limit is raised above 3 keepalive periods: only pings keep the channel alive.
    pair.server._frames.idle_timeout = 1.2 * FAST.keepalive_interval
    receiving = asyncio.ensure_future(pair.server.recv())
    done, _ = await asyncio.wait({receiving}, timeout=3 * FAST.keepalive_interval)
    assert not done and not pair.server.closed
    pair.client.send({"t": "late"})
    assert (await asyncio.wait_for(receiving, 2))["t"] == "late"


async def test_version_mismatch_over_tcp_names_both_version_lists() -> None:
    alice, bob = make_identity(0), make_identity(1)
    refused: asyncio.Future[Exception] = asyncio.get_running_loop().create_future()
    server = ChannelServer(
        bob, accepted_never, FAST, on_error=lambda e: refused.done() or refused.set_result(e)
    )
    host, port = await server.start()
    try:
        future_peer = dataclasses.replace(FAST, versions=(6, 7))
        with pytest.raises(VersionMismatch, match=r"we speak \[6, 7\], the peer speaks \[5\]"):
            await open_channel(host, port, alice, config=future_peer)
        server_error = await asyncio.wait_for(refused, 2)
        assert isinstance(server_error, VersionMismatch)
        assert "the peer speaks [6, 7]" in str(server_error)
    finally:
        await server.close()


async def accepted_never(channel: SecureChannel) -> None:
    raise AssertionError(f"no channel should open, got {channel}")


async def test_wrong_pinned_key_over_tcp_fails_and_opens_nothing() -> None:
    alice, bob = make_identity(0), make_identity(1)
    server = ChannelServer(bob, accepted_never, FAST)
    host, port = await server.start()
    try:
        with pytest.raises(HandshakeError, match="expected identity"):
            await open_channel(host, port, alice, expected_peer=make_identity(2).key, config=FAST)
    finally:
        await server.close()


async def test_a_peer_that_stops_reading_is_dropped_at_the_backlog_limit() -> None:
    alice, bob = make_identity(0), make_identity(1)
    server, accepted = await queueing_server(bob)
    host, port = server.address
    small = dataclasses.replace(FAST, max_send_backlog=64 * 1024)
    sender = await open_channel(host, port, alice, config=small)
    receiver = await accepted.get()  # never reads from here on
    try:
        with pytest.raises(ConnectionClosed, match="not reading"):
            for _ in range(100_000):
                sender.send({"t": "flood", "pad": b"\x00" * 1024})
        assert sender.closed
    finally:
        await receiver.close()
        await server.close()


async def test_frames_sent_in_the_same_write_as_the_last_handshake_message_arrive() -> None:
    alice, bob = make_identity(0), make_identity(1)
    server, accepted = await queueing_server(bob)
    host, port = server.address
    reader, writer = await asyncio.open_connection(host, port)
    try:
        initiator = Initiator(alice, "bob")
        writer.write(encode_frame(initiator.hello()))
        frames = FrameReader(reader, "bob")
        message3 = initiator.auth(await asyncio.wait_for(frames.read(), 2))
        assert initiator.keys is not None
        cipher = CipherState(initiator.keys.send_key)
        big = {"t": "big", "blob": b"\x05" * 10_000}  # over the handshake cap of 4096
        writer.write(
            encode_frame(message3)
            + encode_frame(cipher.encrypt(pack_message({"t": "small"})))
            + encode_frame(cipher.encrypt(pack_message(big)))
        )
        channel = await asyncio.wait_for(accepted.get(), 2)
        assert (await asyncio.wait_for(channel.recv(), 2))["t"] == "small"
        assert (await asyncio.wait_for(channel.recv(), 2))["blob"] == big["blob"]
        await channel.close()
    finally:
        writer.close()
        await server.close()


def test_low_order_ephemeral_key_is_refused() -> None:
    alice, bob = make_identity(0), make_identity(1)
    initiator = Initiator(alice, "bob")
    hello = unpack_message(initiator.hello(), "t")
    hello["e"] = bytes(32)  # the identity point: every shared secret would be zero
    with pytest.raises(HandshakeError, match="low order"):
        Responder(bob, "alice").hello_ack(pack_message(hello))


def test_a_hostile_display_name_arrives_cleaned() -> None:
    alice, mallory = make_identity(0), make_identity(2)
    mallory.name = "\x1b[2J" + "m" * 100 + "\n"  # bypasses Identity's own cleaning
    initiator = Initiator(alice, "mallory")
    responder = Responder(mallory, "alice")
    initiator.auth(responder.hello_ack(initiator.hello()))
    assert initiator.keys is not None
    name = initiator.keys.peer.name
    assert len(name) == 40 and name.isprintable() and "\x1b" not in name


async def test_dialling_something_that_is_not_a_fairdeal_peer_fails_cleanly() -> None:
    async def http_server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(100)
        writer.write(b"HTTP/1.1 400 Bad Request\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(http_server, "127.0.0.1", 0)
    host, port = server.sockets[0].getsockname()[:2]
    try:
        with pytest.raises(FrameTooLarge, match=f"{host}:{port}"):
            await open_channel(host, port, make_identity(0), config=FAST)
    finally:
        server.close()
        await server.wait_closed()


def test_a_channel_never_reuses_a_nonce() -> None:
    cipher = CipherState(bytes(32))
    cipher.counter = (1 << 64) - 1
    cipher.encrypt(b"last one")
    with pytest.raises(ConnectionClosed, match="nonce space exhausted"):
        cipher.encrypt(b"one too many")
