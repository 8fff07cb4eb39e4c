"""Who is playing: the name and the key code others compare aloud (from fairdeal.p2p.identity)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    code: str  # fairdeal.p2p.identity.fingerprint_code: five groups of five digits
    fingerprint: str  # 16 hex digits, as tables advertise their host
    # Why this player has no key: a damaged identity file, which only a local game can go without
    problem: str | None = None


def load_player(data_dir: Path | None, name: str | None, *, local: bool = False) -> Player:
    """The user's identity (created on first use) as shown in the app. A damaged identity file
    stops a table on the network (nobody could check who we are) but not a `local` game against
    bots, which needs no key: that player has none and says why."""
    from fairdeal.p2p.errors import IdentityFileError
    from fairdeal.p2p.identity import clean_name, load_or_create_identity

    try:
        identity = load_or_create_identity(data_dir, name)
    except IdentityFileError as error:
        if not local:
            raise
        return Player(clean_name(name or "player"), "", "", problem=str(error))
    return Player(identity.name, identity.code, identity.fingerprint)
