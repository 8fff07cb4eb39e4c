"""Helpers for the p2p core tests (test_core_*.py): deterministic identities, short timers."""

from __future__ import annotations

from p2p.channel import ChannelConfig
from p2p.identity import Identity


def make_identity(index: int, name: str | None = None) -> Identity:
    return Identity.generate(name or f"peer{index}", random_bytes=lambda n: bytes([index + 1]) * n)


FAST = ChannelConfig(
    handshake_timeout=2.0, frame_timeout=0.3, keepalive_interval=0.5, idle_timeout=5.0
)
