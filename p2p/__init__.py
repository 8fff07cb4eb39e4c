"""fairdeal peer-to-peer layer: discovery, transport, table log, fair deck, table protocol.

Core API (transport and log; protocol.md sections 3, 4, 8 and 9 give the bytes):

Identity (p2p.identity)
    load_or_create_identity(directory=None, name=None) -> Identity   # platformdirs data dir
    Identity: .key (32-byte Ed25519 public key), .name, .fingerprint (16 hex), .code
        (five groups of five digits to compare aloud), .public -> PublicIdentity, .sign(data)
    PublicIdentity(key, name): frozen; .fingerprint, .code, .verify(signature, data)

Secure channels (p2p.channel) -- one authenticated, encrypted TCP connection
    ChannelConfig(max_frame_size, handshake_timeout, frame_timeout, keepalive_interval,
                  idle_timeout)
    await open_channel(host, port, identity, expected_peer=None, config=...) -> SecureChannel
    ChannelServer(identity, on_channel, config).start(host, port) -> (host, port)
    SecureChannel: .peer (PublicIdentity), .version, .session_id, .send(msg), await .recv(),
        await .drain(), await .close(reason), .closed, .close_reason
    Messages are msgpack maps with a string type field "t". "ping", "pong", "bye" and "error"
    are handled by the channel itself.

Mesh (p2p.mesh) -- the full mesh of a table, one channel per peer key
    mesh = Mesh(identity, config=..., accept_peer=None)
    mesh.on("lobby-join", handler)          # handler(peer: PublicIdentity, message: dict)
    mesh.on_peer_up(cb) / on_peer_down(cb) / on_error(cb)    # cb(PublicIdentity) / cb(P2PError)
    await mesh.start(host="127.0.0.1", port=0) -> (host, port)
    await mesh.connect(host, port, expected_peer=None) -> PublicIdentity
    mesh.send(peer_key, message) -> bool; mesh.broadcast(message, exclude=()) -> int
    mesh.peers -> {key: PublicIdentity}; await mesh.wait_for_peers(keys, timeout)
    await mesh.wait_until(predicate, timeout); await mesh.close()
    A handler raising PeerError gets the error reported (mesh.errors, on_error) and the
    connection kept; a frame-level error closes only that peer's channel.

Errors (p2p.errors): P2PError > PeerError(culprit, message) > MalformedFrame, FrameTooLarge,
    FrameTimeout, HandshakeError > VersionMismatch, DecryptError, EnvelopeError;
    ConnectionClosed(reason), IdentityFileError.
"""
