"""Why a table could not be reached, in words a player can act on.

The socket errors asyncio raises name a C call ("Connect call failed ('127.0.0.1', 1)"); these
say what happened: nothing listens there, the host name is unknown, nobody answered. A dial that
gets no answer at all, and a host that nobody reaches, is most often a firewall: Windows and
macOS ask once whether fairdeal may take connections, and a "no" (or a public network profile)
drops them silently; so those say what to check instead of a bare timeout.
"""

from __future__ import annotations

import errno
import socket

from fairdeal.p2p.errors import P2PError

CHECK_GUEST = (
    "check that the host's firewall lets fairdeal take connections (Windows and macOS ask the "
    "first time it hosts), that {host} is the host's address on this network, and the port"
)


def unreachable_reason(error: BaseException, host: str, port: int) -> str:
    """One short sentence for a failed dial of host:port."""
    where = f"{host}:{port}"
    if isinstance(error, ConnectionRefusedError):
        return f"nothing is listening at {where}"
    if isinstance(error, socket.gaierror):
        return f"cannot find the host {host!r} ({error.strerror or error})"
    if isinstance(error, TimeoutError):
        return f"no answer from {where} (timed out): {CHECK_GUEST.format(host=host)}"
    if isinstance(error, ConnectionResetError | BrokenPipeError):
        return f"{where} closed the connection at once"
    if isinstance(error, OSError) and error.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH):
        return f"cannot reach {where}: {error.strerror}; {CHECK_GUEST.format(host=host)}"
    if isinstance(error, OSError):
        return f"cannot connect to {where}: {error.strerror or error}"
    if isinstance(error, P2PError):
        return f"{where} answered, but not as a fairdeal table: {error}"
    return f"cannot connect to {where}: {error or type(error).__name__}"


def nobody_reached(addresses: list[str], port: int, waited: float | None) -> str:
    """One sentence for a host that nobody reached while it waited for its guests."""
    where = ", ".join(f"{address}:{port}" for address in addresses) or f"port {port}"
    during = f" in {waited:g} s" if waited is not None else ""
    return (
        f"nobody reached this table at {where}{during}: check that this computer's firewall "
        "lets fairdeal take connections (Windows and macOS ask the first time it hosts; allow "
        "it on private networks), that the others are on the same network, and that they dial "
        "one of those addresses and this port (--peer HOST:PORT)"
    )
