"""Why a table could not be reached, in words a player can act on.

The socket errors asyncio raises name a C call ("Connect call failed ('127.0.0.1', 1)"); these
say what happened: nothing listens there, the host name is unknown, nobody answered.
"""

from __future__ import annotations

import errno
import socket

from fairdeal.p2p.errors import P2PError


def unreachable_reason(error: BaseException, host: str, port: int) -> str:
    """One short sentence for a failed dial of host:port."""
    where = f"{host}:{port}"
    if isinstance(error, ConnectionRefusedError):
        return f"nothing is listening at {where}"
    if isinstance(error, socket.gaierror):
        return f"cannot find the host {host!r} ({error.strerror or error})"
    if isinstance(error, TimeoutError):
        return f"no answer from {where} (timed out)"
    if isinstance(error, ConnectionResetError | BrokenPipeError):
        return f"{where} closed the connection at once"
    if isinstance(error, OSError) and error.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH):
        return f"cannot reach {where}: {error.strerror}"
    if isinstance(error, OSError):
        return f"cannot connect to {where}: {error.strerror or error}"
    if isinstance(error, P2PError):
        return f"{where} answered, but not as a fairdeal table: {error}"
    return f"cannot connect to {where}: {error or type(error).__name__}"
