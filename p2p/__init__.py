"""fairdeal peer-to-peer layer: discovery, transport, table log, fair deck, table protocol.

Core API (transport and log; protocol.md sections 3, 4, 8 and 9 give the bytes):

Identity (fairdeal.p2p.identity)
    load_or_create_identity(directory=None, name=None) -> Identity   # platformdirs data dir
    Identity: .key (32-byte Ed25519 public key), .name, .fingerprint (16 hex), .code
        (five groups of five digits to compare aloud), .public -> PublicIdentity, .sign(data)
    PublicIdentity(key, name): frozen; .fingerprint, .code, .verify(signature, data)
    fingerprint(key), fingerprint_code(key), verify_signature(key, signature, data)

Secure channels (fairdeal.p2p.net.channel) -- one authenticated, encrypted TCP connection
    ChannelConfig(max_frame_size, handshake_timeout, frame_timeout, keepalive_interval,
                  idle_timeout)
    await open_channel(host, port, identity, expected_peer=None, config=...) -> SecureChannel
    ChannelServer(identity, on_channel, config).start(host, port) -> (host, port)
    SecureChannel: .peer (PublicIdentity), .version, .session_id, .send(msg), await .recv(),
        await .drain(), await .close(reason), .closed, .close_reason
    Messages are msgpack maps with a string type field "t". "ping", "pong", "bye" and "error"
    are handled by the channel itself.

Mesh (fairdeal.p2p.net.mesh) -- the full mesh of a table, one channel per peer key
    mesh = Mesh(identity, config=..., accept_peer=None)   # accept_peer(PublicIdentity) -> bool
    mesh.on("lobby-join", handler)          # handler(peer: PublicIdentity, message: dict)
    mesh.on_peer_up(cb) / on_peer_down(cb) / on_error(cb)    # cb(PublicIdentity) / cb(P2PError)
    await mesh.start(host="127.0.0.1", port=0) -> (host, port)
    await mesh.connect(host, port, expected_peer=None) -> PublicIdentity
    mesh.maintain(peer_key, host, port)     # redial whenever the channel drops (back-off)
    mesh.send(peer_key, message) -> bool; mesh.broadcast(message, exclude=()) -> int
        (queued: what one turn of the loop sends to a peer goes out at its end, in one write)
    mesh.hold(gate); mesh.release()         # keep sends until gate() (an fsync) says True
    mesh.peers -> {key: PublicIdentity}; mesh.channel(key); mesh.errors (recent P2PErrors)
    await mesh.wait_for_peers(keys, timeout); await mesh.wait_until(predicate, timeout)
    await mesh.close()
    A handler raising PeerError gets the error reported (mesh.errors, on_error) and the
    connection kept; a frame-level error closes only that peer's channel.

Envelopes and the table log (fairdeal.p2p.log.envelope, fairdeal.p2p.log.tablelog) -- sans-IO
    Roster(table: bytes, keys: tuple[bytes, ...])           # seat i is keys[i]
    Envelope(table, seat, seq, prev, kind, body, signed, signature): frozen;
        .id, .to_wire() -> {"t": "env", ...}, .verify(key); parse_envelope(message, culprit)
    TableLog(roster, ordering, apply=None, limits=None)  # limits: EnvelopeLimits (sizes.py)
        ordering(log) -> seat | None                                     # the game's rules
        apply(envelope) -> None, or raise Rejected("L12: ...")           # the game's state
        .receive(envelope, culprit) -> [applied]; .advance() -> [applied] after a rule change
        .author(identity, seat, kind, body) -> Envelope (signed, not yet received)
        .entries, .head, .buffered, .faults (Fault(seat, kind, detail, evidence)), .have,
        .next_seq(seat), .envelopes_after(have), .on_applied(cb), .off_applied(cb), .on_fault(cb),
        .waiting_for() -> the seat whose next envelope is needed (its turn)
    seat_order(seats) -> an ordering cycling through seats (tests, simple turn phases)

Keeping the log in step (fairdeal.p2p.log.sync) and on disk (fairdeal.p2p.log.transcript)
    sync = TableSync(mesh, log, identity, seat, transcript=None)   # handles "env" and "need"
        (envelopes go to seated peers only; unseated mesh peers never see the log)
    sync.publish(kind, body) -> Envelope    # persist, apply in turn, broadcast once the
                                            # turn's one fsync is done
    await sync.wait_until(predicate, timeout); await sync.wait_for_length(n, timeout)
    sync.on_update(cb)    # after every envelope taken in (applied or buffered)
    sync.advance()        # after the game's rules changed outside the log
    TableSync.restore(mesh, identity, path, ordering, apply) -> TableSync   # after a crash
    Transcript.create(path, roster, seat, extra=None); Transcript.reopen(path)
    load_transcript(path) -> TranscriptContents(roster, seat, applied, signed, extra)
    replay(contents, ordering, apply) -> TableLog     # audit: rebuild through the rules
    SecretStore(path).put(name, value) / .get(name)   # 0600 file for per-game secrets

Errors (p2p.errors): P2PError > PeerError(culprit, message) > MalformedFrame, FrameTooLarge,
    FrameTimeout, HandshakeError > VersionMismatch, DecryptError, EnvelopeError >
    EquivocationError; ConnectionClosed(reason), IdentityFileError, TranscriptError.
"""
