"""A seat leaving the lobby dials every earlier seat at once (p2p/lobby/session.py, `form_mesh`):
seat 7 of 8 used to make seven handshakes one after another before its table could start."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from fairdeal.p2p.lobby.session import form_mesh


class DialRecorder:
    """A mesh whose dials finish only once every expected dial has begun: dialling one seat
    after another never gets there."""

    def __init__(self, key: bytes, expected: int) -> None:
        self.identity = SimpleNamespace(key=key)
        self.peers: dict[bytes, object] = {}
        self.dialled: list[bytes] = []
        self._expected = expected
        self._all_begun = asyncio.Event()
        self.failing: set[bytes] = set()

    async def connect(self, host: str, port: int, expected_peer: bytes) -> None:
        self.dialled.append(expected_peer)
        if len(self.dialled) == self._expected:
            self._all_begun.set()
        await self._all_begun.wait()
        if expected_peer in self.failing:
            raise ConnectionRefusedError(f"seat at {host}:{port} refused")
        self.peers[expected_peer] = object()

    async def wait_for_peers(self, keys: list[bytes], timeout: float) -> None:
        assert set(keys) <= set(self.peers)


def table(seats: int, me: int) -> tuple[Any, dict[bytes, tuple[str, int]]]:
    keys = [bytes([index]) * 32 for index in range(seats)]
    roster = SimpleNamespace(
        seats=[SimpleNamespace(key=key) for key in keys],
        seat_of=lambda key: keys.index(key) if key in keys else None,
    )
    addresses = {key: ("127.0.0.1", 9000 + index) for index, key in enumerate(keys)}
    return SimpleNamespace(roster=roster), addresses


def test_the_last_seat_dials_every_earlier_seat_at_once() -> None:
    signed, addresses = table(8, 7)
    mesh = DialRecorder(bytes([7]) * 32, expected=7)

    async def main() -> None:
        await asyncio.wait_for(form_mesh(mesh, signed, addresses, 5.0), 5.0)  # type: ignore[arg-type]

    asyncio.run(main())
    assert sorted(mesh.dialled) == [bytes([index]) * 32 for index in range(7)]


def test_a_refused_dial_is_raised_after_the_others_end() -> None:
    signed, addresses = table(4, 3)
    mesh = DialRecorder(bytes([3]) * 32, expected=3)
    mesh.failing = {bytes([1]) * 32}

    async def main() -> None:
        await asyncio.wait_for(form_mesh(mesh, signed, addresses, 5.0), 5.0)  # type: ignore[arg-type]

    with pytest.raises(ConnectionRefusedError, match="9001"):
        asyncio.run(main())
    assert set(mesh.peers) == {bytes([0]) * 32, bytes([2]) * 32}
