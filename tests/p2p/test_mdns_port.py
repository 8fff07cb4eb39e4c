"""fairdeal's mDNS stack shares UDP port 5353 with the system's responder (mDNSResponder holds it
on macOS, avahi on many Linux laptops; python-zeroconf binds with SO_REUSEADDR and, where there
is one, SO_REUSEPORT). It must stay in multicast mode: a unicast stack takes a port of its own
and hears nobody's advertisements."""

from __future__ import annotations

import socket

from fairdeal.p2p.lobby.discovery import open_zeroconf

MDNS_PORT = 5353


def responder_socket() -> socket.socket:
    """A socket holding 5353 the way a system responder does (bound to every address, sharing)."""
    held = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if hasattr(socket, "SO_REUSEPORT"):
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    held.bind(("", MDNS_PORT))
    return held


async def test_the_mdns_stack_opens_beside_a_responder_holding_5353() -> None:
    with responder_socket():
        aiozc = open_zeroconf(["127.0.0.1"])
        try:
            assert aiozc.zeroconf.unicast is False  # multicast, on 5353
        finally:
            await aiozc.async_close()
