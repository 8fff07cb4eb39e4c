"""Errors of the network layer, each naming whose fault it was.

Like h11's Local/RemoteProtocolError: a `PeerError` is raised when a remote peer misbehaved and
carries `culprit`, a short label for that peer (its seat, fingerprint or address), so the message
shown to players always says who sent the bad input.
"""

from __future__ import annotations


class P2PError(Exception):
    """Base class of every error raised by p2p/ transport and log code."""


class PeerError(P2PError):
    """A remote peer sent something invalid; `culprit` names that peer."""

    code = "protocol-error"

    def __init__(self, culprit: str, message: str) -> None:
        super().__init__(f"{culprit}: {message}")
        self.culprit = culprit
        self.detail = message


class MalformedFrame(PeerError):
    """A frame that is not a valid msgpack message of the expected shape."""

    code = "malformed-frame"


class FrameTooLarge(PeerError):
    """A frame whose length prefix exceeds the cap; rejected before its body is read."""

    code = "frame-too-large"


class FrameTimeout(PeerError):
    """A peer started a frame and stalled, or went silent past the idle limit."""

    code = "timeout"


class HandshakeError(PeerError):
    """The secure-channel handshake failed (bad proof, wrong key, unexpected message)."""

    code = "handshake-failed"


class VersionMismatch(HandshakeError):
    """The two peers share no protocol version."""

    code = "version-mismatch"

    def __init__(self, culprit: str, ours: tuple[int, ...], theirs: tuple[int, ...]) -> None:
        super().__init__(
            culprit,
            f"no common protocol version: we speak {list(ours)}, the peer speaks {list(theirs)}",
        )
        self.ours = ours
        self.theirs = theirs


class DecryptError(PeerError):
    """An encrypted frame failed authentication: tampered, replayed, reordered or wrong key."""

    code = "decrypt-failed"


class EnvelopeError(PeerError):
    """An envelope that does not parse, is signed wrongly or does not belong to this table."""

    code = "bad-envelope"


class ConnectionClosed(P2PError):
    """The channel is closed (cleanly or not); `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IdentityFileError(P2PError):
    """The identity file exists but cannot be used (corrupt, wrong permissions)."""
