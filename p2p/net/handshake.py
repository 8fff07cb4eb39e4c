"""The secure-channel handshake, sans-IO: three messages, then per-direction transport keys.

A signed-ephemeral (SIGMA-I / Noise-XX-like) exchange built from X25519, HKDF-SHA256,
ChaCha20-Poly1305 and Ed25519 (protocol.md section 3 gives the exact bytes):

    1. I -> R  hello      {t, proto, versions, e}           cleartext
    2. R -> I  hello-ack  {t, version, e, c}                c = AEAD(k_r, {id, name, sig})
    3. I -> R  auth       {t, c}                            c = AEAD(k_i, {id, name, sig})

Each side signs the running transcript hash with its long-term identity key, so the session keys
are bound to both identities; identities travel encrypted. A pinned `expected_peer` key makes the
handshake fail unless the peer proves exactly that key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from fairdeal.p2p.errors import HandshakeError, MalformedFrame, VersionMismatch
from fairdeal.p2p.identity import (
    PUBLIC_KEY_SIZE,
    SIGNATURE_SIZE,
    Identity,
    PublicIdentity,
    clean_name,
    fingerprint,
    verify_signature,
)
from fairdeal.p2p.net.framing import field as get_field
from fairdeal.p2p.net.framing import pack_message, unpack_message
from fairdeal.p2p.net.kinds import AUTH, ERROR, HELLO, HELLO_ACK, ID

PROTOCOL_NAME = "fairdeal"
SUPPORTED_VERSIONS: tuple[int, ...] = (5,)
# Version 2 moved the fair deck to Ristretto255 (protocol.md §6.1); version 3 relays every
# envelope and changed The Lie's Phase 1; version 4 sends the shuffle proof's commitments instead
# of its challenge; version 5 bounds what one seat can make the others hold or send (protocol.md
# §8 lists it all). A peer of an older version would stall or split the table, so only version 5
# is offered.
PROTOCOL_VERSION: int = max(SUPPORTED_VERSIONS)
LABEL = b"fairdeal/handshake/v1"
HANDSHAKE_INFO = b"fairdeal/v1/handshake-keys"
TRANSPORT_INFO = b"fairdeal/v1/transport-keys"
RESPONDER_AUTH = b"fairdeal/v1/responder-auth\x00"
INITIATOR_AUTH = b"fairdeal/v1/initiator-auth\x00"
ZERO_NONCE = bytes(12)


@dataclass(frozen=True)
class SessionKeys:
    """Result of a handshake. Keys are excluded from the repr."""

    peer: PublicIdentity
    version: int
    send_key: bytes = field(repr=False)
    recv_key: bytes = field(repr=False)
    session_id: bytes  # final transcript hash, the same on both sides
    # The peer's per-process instance (3.3 `run`): a new one means the peer restarted.
    peer_instance: bytes | None = None


def _h(*parts: bytes) -> bytes:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.digest()


def _hkdf(secret: bytes, salt: bytes, info: bytes) -> tuple[bytes, bytes]:
    okm = HKDF(algorithm=hashes.SHA256(), length=64, salt=salt, info=info).derive(secret)
    return okm[:32], okm[32:]


def _dh(private: X25519PrivateKey, public: bytes, culprit: str) -> bytes:
    try:
        return private.exchange(X25519PublicKey.from_public_bytes(public))
    except ValueError:
        raise HandshakeError(culprit, "ephemeral key is invalid (low order point)") from None


MAX_INSTANCE_SIZE = 32


def _auth_payload(
    identity: Identity, label: bytes, transcript: bytes, instance: bytes | None
) -> bytes:
    signature = identity.sign(label + transcript + identity.key)
    payload = {"t": ID, "id": identity.key, "name": identity.name, "sig": signature}
    if instance is not None:
        payload["run"] = instance
    return pack_message(payload)


def _open_auth(
    key: bytes,
    ciphertext: bytes,
    transcript: bytes,
    label: bytes,
    culprit: str,
    expected_peer: bytes | None,
) -> tuple[PublicIdentity, bytes | None]:
    try:
        plaintext = ChaCha20Poly1305(key).decrypt(ZERO_NONCE, ciphertext, transcript)
    except InvalidTag:
        raise HandshakeError(culprit, "identity proof does not decrypt (tampered)") from None
    payload = unpack_message(plaintext, culprit)
    peer_key = get_field(payload, "id", bytes, culprit)
    name = get_field(payload, "name", str, culprit)
    signature = get_field(payload, "sig", bytes, culprit)
    instance = payload.get("run")
    if instance is not None and (
        not isinstance(instance, bytes) or not 0 < len(instance) <= MAX_INSTANCE_SIZE
    ):
        raise HandshakeError(culprit, f"instance must be 1 to {MAX_INSTANCE_SIZE} bytes")
    if len(peer_key) != PUBLIC_KEY_SIZE or len(signature) != SIGNATURE_SIZE:
        raise HandshakeError(culprit, "identity key or signature has the wrong length")
    if not verify_signature(peer_key, signature, label + transcript + peer_key):
        raise HandshakeError(
            culprit, f"signature by identity {fingerprint(peer_key)} over the handshake is invalid"
        )
    if expected_peer is not None and peer_key != expected_peer:
        raise HandshakeError(
            culprit,
            f"expected identity {fingerprint(expected_peer)}, "
            f"but the peer proved {fingerprint(peer_key)}",
        )
    return PublicIdentity(key=peer_key, name=clean_name(name)), instance


def _check_type(message: dict[str, Any], expected: str, culprit: str) -> None:
    if message["t"] == ERROR:
        text = message.get("message", "")
        safe = "".join(ch if ch.isprintable() else "?" for ch in str(text)[:200])
        raise HandshakeError(culprit, f"peer refused: {safe}")
    if message["t"] != expected:
        raise HandshakeError(culprit, f"expected {expected!r}, got {message['t']!r:.40}")


def _check_key(value: bytes, culprit: str) -> bytes:
    if len(value) != 32:
        raise MalformedFrame(culprit, "ephemeral key must be 32 bytes")
    return value


class _Side:
    """What both sides of a handshake hold: this peer's identity and instance, whom it expects
    (None: anyone), the protocol versions it speaks, and a fresh ephemeral key."""

    def __init__(
        self,
        identity: Identity,
        culprit: str,
        expected_peer: bytes | None = None,
        versions: Sequence[int] = SUPPORTED_VERSIONS,
        ephemeral: Callable[[], X25519PrivateKey] = X25519PrivateKey.generate,
        instance: bytes | None = None,
    ) -> None:
        self._identity = identity
        self.culprit = culprit
        self._instance = instance
        self._expected_peer = expected_peer
        self._versions = tuple(versions)
        self._ephemeral = ephemeral()


class Initiator(_Side):
    """The dialling side: `hello()`, then `auth(hello_ack)` -> message 3, then `keys`."""

    _transcript = b""
    keys: SessionKeys | None = None

    def hello(self) -> bytes:
        e = self._ephemeral.public_key().public_bytes_raw()
        message = pack_message(
            {"t": HELLO, "proto": PROTOCOL_NAME, "versions": list(self._versions), "e": e}
        )
        self._transcript = _h(LABEL, message)
        return message

    def auth(self, payload: bytes) -> bytes:
        culprit = self.culprit
        message = unpack_message(payload, culprit)
        if message["t"] == ERROR and message.get("code") == "version-mismatch":
            theirs = message.get("versions")
            theirs_t = (
                tuple(v for v in theirs if isinstance(v, int)) if isinstance(theirs, list) else ()
            )
            raise VersionMismatch(culprit, self._versions, theirs_t)
        _check_type(message, HELLO_ACK, culprit)
        version = get_field(message, "version", int, culprit)
        if version not in self._versions:
            raise VersionMismatch(culprit, self._versions, (version,))
        e_r = _check_key(get_field(message, "e", bytes, culprit), culprit)
        ciphertext = get_field(message, "c", bytes, culprit)
        shared = _dh(self._ephemeral, e_r, culprit)
        h2 = _h(self._transcript, e_r, version.to_bytes(2, "big"))
        k_r, k_i = _hkdf(shared, h2, HANDSHAKE_INFO)
        peer, run = _open_auth(k_r, ciphertext, h2, RESPONDER_AUTH, culprit, self._expected_peer)
        h3 = _h(h2, ciphertext)
        c3 = ChaCha20Poly1305(k_i).encrypt(
            ZERO_NONCE, _auth_payload(self._identity, INITIATOR_AUTH, h3, self._instance), h3
        )
        h4 = _h(h3, c3)
        i2r, r2i = _hkdf(shared, h4, TRANSPORT_INFO)
        self.keys = SessionKeys(
            peer, version, send_key=i2r, recv_key=r2i, session_id=h4, peer_instance=run
        )
        return pack_message({"t": AUTH, "c": c3})


class Responder(_Side):
    """The accepting side: `hello_ack(hello)` -> message 2, then `finish(auth)` -> keys."""

    _state: tuple[bytes, bytes, bytes, int] | None = None

    def hello_ack(self, payload: bytes) -> bytes:
        """Message 2; raises VersionMismatch (send `version_error()` then) or HandshakeError."""
        culprit = self.culprit
        message = unpack_message(payload, culprit)
        _check_type(message, HELLO, culprit)
        if message.get("proto") != PROTOCOL_NAME:
            raise HandshakeError(culprit, "not a fairdeal peer (wrong protocol name)")
        offered = get_field(message, "versions", list, culprit)
        theirs = tuple(v for v in offered[:16] if isinstance(v, int) and not isinstance(v, bool))
        common = set(theirs) & set(self._versions)
        if not common:
            raise VersionMismatch(culprit, self._versions, theirs)
        version = max(common)
        e_i = _check_key(get_field(message, "e", bytes, culprit), culprit)
        e_r = self._ephemeral.public_key().public_bytes_raw()
        shared = _dh(self._ephemeral, e_i, culprit)
        h2 = _h(_h(LABEL, payload), e_r, version.to_bytes(2, "big"))
        k_r, k_i = _hkdf(shared, h2, HANDSHAKE_INFO)
        c2 = ChaCha20Poly1305(k_r).encrypt(
            ZERO_NONCE, _auth_payload(self._identity, RESPONDER_AUTH, h2, self._instance), h2
        )
        self._state = (shared, _h(h2, c2), k_i, version)
        return pack_message({"t": HELLO_ACK, "version": version, "e": e_r, "c": c2})

    def version_error(self) -> bytes:
        return pack_message(
            {
                "t": ERROR,
                "code": "version-mismatch",
                "versions": list(self._versions),
                "message": f"this peer speaks protocol versions {list(self._versions)}",
            }
        )

    def finish(self, payload: bytes) -> SessionKeys:
        culprit = self.culprit
        if self._state is None:
            raise HandshakeError(culprit, "auth before hello")
        shared, h3, k_i, version = self._state
        message = unpack_message(payload, culprit)
        _check_type(message, AUTH, culprit)
        ciphertext = get_field(message, "c", bytes, culprit)
        peer, run = _open_auth(k_i, ciphertext, h3, INITIATOR_AUTH, culprit, self._expected_peer)
        h4 = _h(h3, ciphertext)
        i2r, r2i = _hkdf(shared, h4, TRANSPORT_INFO)
        return SessionKeys(
            peer, version, send_key=r2i, recv_key=i2r, session_id=h4, peer_instance=run
        )
