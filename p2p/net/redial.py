"""Keep a table's mesh whole: dial again any seat whose channel is down.

A peer that restarts dials everyone itself, and the mesh accepts its new run at once (the
handshake's instance tells a restart from a duplicate dial). What this loop is for is a channel
lost to the network: neither side may dial again on its own. `keep_connected` retries every seat
it knows an address for, every `interval` seconds, until cancelled. The game itself waits on the
table log, not on this loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from fairdeal.p2p.errors import P2PError
from fairdeal.p2p.net.mesh import Mesh

log = logging.getLogger(__name__)

REDIAL_INTERVAL = 0.5

Address = tuple[str, int] | None


async def keep_connected(
    mesh: Mesh,
    keys: Sequence[bytes],
    addresses: Sequence[Address],
    interval: float = REDIAL_INTERVAL,
) -> None:
    """Dial seat i at addresses[i] (pinning keys[i]) whenever no channel to it is up."""
    while True:
        await asyncio.sleep(interval)
        for key, address in zip(keys, addresses, strict=True):
            if key == mesh.identity.key or key in mesh.peers or address is None:
                continue
            try:
                await mesh.connect(address[0], address[1], expected_peer=key)
            except (OSError, P2PError, TimeoutError) as exc:
                log.info("%s:%s still unreachable: %s", address[0], address[1], exc)
