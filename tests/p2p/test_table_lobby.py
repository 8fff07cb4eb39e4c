"""`open_lobby`/`join_lobby` on loopback without mDNS: the guests dial HOST:PORT, take the free
seats, agree, sign, and every seat ends up connected to every other seat with the same roster."""

from __future__ import annotations

import asyncio

import pytest

from fairdeal.engine.larry import LarryOptions
from fairdeal.p2p.lobby.session import HostedTable, LobbyClosed
from fairdeal.p2p.table.runtime.gather import Seated, join_lobby, open_lobby
from tests.p2p.core_support import make_identity

pytestmark = pytest.mark.timeout(30)
WAIT_S = 10.0


async def test_host_and_two_guests_are_seated_signed_and_meshed() -> None:
    listening: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    options = LarryOptions(short_game=True, hands=2)
    host = asyncio.ensure_future(
        open_lobby(
            make_identity(0, "host"),
            3,
            options,
            name="Loop",
            bind="127.0.0.1",
            advertise=False,
            on_address=listening.set_result,
            timeout=WAIT_S,
        )
    )
    _, port = await listening
    guests = [_join(index, port) for index in (1, 2)]  # each waits until the table is full
    tables: list[Seated] = list(await asyncio.gather(host, *guests))
    try:
        assert sorted(table.seat for table in tables) == [0, 1, 2]
        tables.sort(key=lambda table: table.seat)
        assert {table.signed for table in tables} == {tables[0].signed}
        assert tables[0].names[0] == "host" and set(tables[0].names) == {"host", "peer1", "peer2"}
        assert all(table.options == options for table in tables)
        for table in tables:
            others = {t.mesh.identity.key for t in tables} - {table.mesh.identity.key}
            await table.mesh.wait_for_peers(others, WAIT_S)
            assert table.roster.keys == tuple(t.mesh.identity.key for t in tables)
            assert all(address is not None for address in table.addresses)
    finally:
        for table in tables:
            await table.mesh.close()


async def _join(index: int, port: int) -> Seated:
    return await join_lobby(
        make_identity(index), "127.0.0.1", port, bind="127.0.0.1", timeout=WAIT_S
    )


async def test_a_guest_is_told_when_nobody_listens() -> None:
    with pytest.raises(LobbyClosed, match=r"^nothing is listening at 127\.0\.0\.1:9$"):
        await join_lobby(make_identity(1), "127.0.0.1", 9, bind="127.0.0.1", timeout=WAIT_S)


async def test_a_guest_agrees_again_when_the_host_changes_the_options() -> None:
    """The lobby forgets a guest's agreement when the options change; `join_lobby` marks ready
    again, so the roster it signs carries the options it last saw."""
    host = HostedTable(
        make_identity(0, "host"),
        None,
        "Loop",
        "larry",
        {"short_game": False, "hands": 3},
        2,
        ["127.0.0.1"],
        listen_host="127.0.0.1",
    )
    await host.open()
    assert host.address is not None and host.lobby is not None
    lobby = host.lobby
    guest = asyncio.ensure_future(_join(1, host.address[1]))
    try:
        await host.wait_until(lambda: lobby.can_start, WAIT_S)
        host.set_options({"short_game": True, "hands": 2})
        assert not lobby.can_start  # the guest's agreement was to the old options
        await host.wait_until(lambda: lobby.can_start, WAIT_S)
        signed = await host.start(WAIT_S)
        seated = await guest
        assert seated.signed == signed
        assert (seated.options.short_game, seated.options.hands) == (True, 2)
        await seated.mesh.close()
    finally:
        guest.cancel()
        await host.close()


@pytest.mark.parametrize(
    ("game", "terms", "culprit"),
    [
        ("lie", {"rounds": 1, "hand_size": 40}, "cannot make 4 hands of 40"),  # T1, T3
        ("lie", {"rounds": 0, "hand_size": 3}, "at least one round"),  # T9
        ("lie", {"rounds": "3", "hand_size": 3}, "rounds='3' is not an option"),
        ("lie", {"rounds": 1, "prizes": 9}, "prizes=9 is not an option"),  # not a lobby term
        ("poker", {}, "unknown game 'poker'"),
    ],
)
async def test_a_guest_never_agrees_to_a_table_it_cannot_play(
    game: str, terms: dict[str, object], culprit: str
) -> None:
    """A host's terms are read as the game's lobby options and checked for the seat count before
    the guest says ready: an absurd or foreign table is refused, naming the host, unsigned."""
    from fairdeal.p2p.errors import PeerError

    host = HostedTable(
        make_identity(0, "host"), None, "Odd", game, terms, 4, ["127.0.0.1"],
        listen_host="127.0.0.1",
    )  # fmt: skip
    await host.open()
    assert host.address is not None and host.lobby is not None
    try:
        with pytest.raises(PeerError, match=culprit) as refused:
            await _join(1, host.address[1])
        assert refused.value.culprit == "host"
        seats = host.lobby.state.seats
        assert not any(seat is not None and seat.ready for seat in seats[1:])  # never agreed
    finally:
        await host.close()
