"""The handshake deadline on the dialling side (p2p/net/channel.py `open_channel`): a peer that
accepts the connection and then says nothing costs the dialler at most the deadline, ends in a
HandshakeError naming the address, and the connection is closed. (The accepting side's
deadline: tests/p2p/test_core_badinput.py.)"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from fairdeal.p2p.errors import HandshakeError
from fairdeal.p2p.net.channel import open_channel
from tests.p2p.core_support import FAST, make_identity


async def test_a_silent_listener_times_the_dialler_out_and_is_hung_up_on() -> None:
    closed = asyncio.get_running_loop().create_future()

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1 << 16)  # the hello, answered by nothing
        closed.set_result(await reader.read() == b"")  # end of stream: the dialler hung up
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    config = replace(FAST, handshake_timeout=0.3)
    try:
        with pytest.raises(HandshakeError, match="handshake timed out") as caught:
            await open_channel("127.0.0.1", port, make_identity(0), config=config)
        assert f"127.0.0.1:{port}" in caught.value.culprit
        assert await asyncio.wait_for(closed, 2) is True
    finally:
        server.close()
        await server.wait_closed()
