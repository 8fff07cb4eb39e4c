"""Who is playing: the name and the key code others compare aloud (from fairdeal.p2p.identity)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    code: str  # fairdeal.p2p.identity.fingerprint_code: five groups of five digits
    fingerprint: str  # 16 hex digits, as tables advertise their host


def load_player(data_dir: Path | None, name: str | None) -> Player:
    """The user's identity (created on first use) as shown in the app."""
    from fairdeal.p2p.identity import load_or_create_identity

    identity = load_or_create_identity(data_dir, name)
    return Player(identity.name, identity.code, identity.fingerprint)
