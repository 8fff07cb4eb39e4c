"""Gathering a table on the LAN: `fairdeal.p2p.lobby.session` with the choices a player makes.

One gathering for every game: the game is that of the options the host opens with (LarryOptions,
LieOptions), its lobby terms are what that game's table driver signs (`lobby_options`), and a
guest reads the game and its options from the lobby it joined.

`open_lobby` (the host, seat 0) opens a `HostedTable` (advertised with mDNS unless told not to)
and starts it as soon as every seat is taken and ready; `join_lobby` (a guest) joins the table at
HOST:PORT with a `JoinedTable`, takes the first free seat, agrees to the options (again whenever
the lobby asks), signs the roster and dials the seats before it (`form_mesh`). Both return a
`Seated` table: the signed roster, this seat, the options, and the connected mesh that the table
log then runs on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from fairdeal.engine.games import default_game, game_of_options
from fairdeal.p2p.errors import P2PError, PeerError
from fairdeal.p2p.identity import Identity, distinct_names
from fairdeal.p2p.lobby.discovery import (
    DiscoveredTable,
    TableBrowser,
    local_addresses,
    open_zeroconf,
)
from fairdeal.p2p.lobby.machines import CLOSED, OPEN, GuestLobby, LocalLobbyError
from fairdeal.p2p.lobby.messages import LobbyState
from fairdeal.p2p.lobby.roster import OptionValue, SignedRoster
from fairdeal.p2p.lobby.session import (
    HostedTable,
    JoinedTable,
    LobbyClosed,
    StartedListing,
    form_mesh,
    seat_addresses,
)
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.net.unreachable import nobody_reached
from fairdeal.p2p.table.core.games import table_class, table_class_for
from fairdeal.p2p.table.runtime.randomness import check_new_table

log = logging.getLogger("fairdeal.lobby")

MESH_TIMEOUT_S = 10.0  # then the table's redialling (fairdeal.p2p.net.redial) keeps trying


@dataclass
class Seated:
    """A started table as one seat holds it."""

    signed: SignedRoster
    seat: int
    options: Any  # the game's engine options (LarryOptions, LieOptions)
    mesh: Mesh
    addresses: list[tuple[str, int] | None]  # where each seat listens, as the lobby saw it
    listing: StartedListing | None = None  # the host's advertisement of the table playing

    async def end_listing(self) -> None:
        """The game is over (or this seat stops): lobbies no longer list the table."""
        if self.listing is not None:
            await self.listing.withdraw()

    async def close(self) -> None:
        """Withdraw the table's advertisement (if this seat hosts one) and close the mesh."""
        await self.end_listing()
        await self.mesh.close()

    @property
    def roster(self) -> Roster:
        return Roster(self.signed.roster.table_id, tuple(s.key for s in self.signed.roster.seats))

    @property
    def game(self) -> str:
        return self.signed.roster.game

    @property
    def names(self) -> list[str]:
        """The seats' names as shown, two alike told apart by their key codes."""
        seats = self.signed.roster.seats
        return distinct_names([s.name for s in seats], [s.key for s in seats])


def options_from_lobby(
    values: dict[str, OptionValue], game: str | None = None, seats: int | None = None
) -> Any:
    """The engine options of `game` from the lobby's terms (the fields its table driver's
    `lobby_options` names; the rest are the defaults). A game we do not have, options that are
    not that game's, or (with `seats`) options that make no game for that many players are the
    host's error (PeerError): nothing a host sends crashes a guest or seats it at a broken table.
    Without `game`, the default game (older callers)."""
    game = game if game is not None else default_game()
    try:
        options = table_class(game).options_from_lobby(values)  # the one reading of the terms
        if seats is not None:
            options.validate(seats)
    except ValueError as error:
        raise PeerError("host", f"the table's options are not {game} options: {error}") from None
    return options


async def open_lobby(
    identity: Identity,
    seats: int,
    options: Any,
    *,
    name: str,
    bind: str = "0.0.0.0",
    advertise: bool = True,
    interfaces: list[str] | None = None,
    on_address: Callable[[tuple[str, int]], None] | None = None,
    timeout: float | None = None,
) -> Seated:
    """Host a table of the game whose `options` these are: advertise it, seat the guests, start
    when full and ready. The lobby's terms are that game's `lobby_options` (protocol.md 5.3)."""
    game = game_of_options(options).name
    options.validate(seats)  # a table that cannot be played is never advertised
    terms = table_class_for(options).lobby_options(options)
    addresses = local_addresses(interfaces) if bind in ("0.0.0.0", "") else [bind]
    aiozc = open_zeroconf(interfaces) if advertise else None
    table = HostedTable(identity, aiozc, name, game, terms, seats, addresses, listen_host=bind)
    listing = None  # once started, the table's "playing" advertisement (the Seated's to end)
    try:
        async with asyncio.timeout(timeout):
            listening = await table.listen()
            if on_address is not None:
                on_address(listening)
            await table.open()
            if aiozc is not None:
                log.info("table %r advertised on %s port %s", name, addresses, listening[1])
            signed = await _start_when_ready(table)
            listing = table.keep_listing()
    except TimeoutError:
        lobby, listened = table.lobby, table.address
        reached = bool(table.mesh.peers) or (lobby is not None and lobby.state.seats_taken > 1)
        await table.close()
        if reached or listened is None:
            raise
        raise NobodyCame(nobody_reached(addresses, listened[1], timeout)) from None
    except BaseException:
        await table.close()
        raise
    finally:
        if aiozc is not None and listing is None:
            await aiozc.async_close()
    assert table.lobby is not None
    where = [None if v is None else (v.host, v.port) for v in table.lobby.state.seats]
    return Seated(signed, 0, options, table.mesh, where, listing)


async def _start_when_ready(table: HostedTable) -> SignedRoster:
    """Start as soon as every seat is taken and ready; a start called off waits again."""
    lobby = table.lobby
    assert lobby is not None
    while True:
        await table.wait_until(lambda: lobby.can_start)
        try:
            return await table.start()
        except (LobbyClosed, LocalLobbyError) as error:
            log.warning("%s; waiting for every seat again", error)


class TableNotFound(P2PError):
    """No table of that name with a seat free was advertised within the wait."""


class NobodyCame(P2PError):
    """A hosted table's wait for its guests ended and nobody had reached it."""


async def find_table(
    name: str, timeout: float, interfaces: list[str] | None = None, game: str | None = None
) -> tuple[str, int]:
    """The address of the table called `name` on the LAN (mDNS), of any game we play (or only
    of `game`) with a seat free; `TableNotFound` saying what was seen instead after `timeout`."""
    from fairdeal.engine.games import game_names

    games = (game,) if game is not None else game_names()
    aiozc = open_zeroconf(interfaces)
    browser = TableBrowser(aiozc)
    await browser.start()
    try:
        table = await browser.wait_for(
            lambda t: t.ad.name == name and t.ad.game in games and not t.ad.is_full, timeout
        )
    except TimeoutError:
        raise TableNotFound(_not_found(name, timeout, list(browser.tables.values()))) from None
    finally:
        await browser.close()
        await aiozc.async_close()
    return table.addresses[0], table.port


def _not_found(name: str, timeout: float, seen: list[DiscoveredTable]) -> str:
    named = [t for t in seen if t.ad.name == name]
    playing = [t for t in named if t.ad.playing]
    if playing:  # listed for watchers (protocol.md 2): nobody new sits down
        where = f"{playing[0].addresses[0]}:{playing[0].port}"
        why = f"the table {name!r} has started (`fairdeal watch {where}` follows it)"
    elif any(t.ad.is_full for t in named):
        why = f"the table {name!r} is full"
    elif named:
        why = f"the table {name!r} is of a game this command does not play ({named[0].ad.game})"
    else:
        others = sorted({t.ad.name for t in seen})
        listed = f"; tables seen: {', '.join(others)}" if others else "; no table was seen at all"
        why = f"no table named {name!r} was found on the network in {timeout:g} s{listed}"
    return f"{why} (`fairdeal tables` lists them; --peer HOST:PORT joins by address)"


async def join_lobby(
    identity: Identity,
    host: str,
    port: int,
    *,
    bind: str = "0.0.0.0",
    timeout: float | None = None,
    secrets: SecretStore | None = None,
    on_game: Callable[[str], None] | None = None,
) -> Seated:
    """Join the table hosted at host:port as a guest: sit, agree, sign, connect to every seat.
    A typed address has no advertised key to check: the players compare key codes aloud.
    `secrets`: this seat's secrets file; a table id it already holds secrets for is refused
    (`TableReused`) before we take a seat. `on_game` hears the lobby's game as soon as it is
    known (before the table starts)."""
    table = JoinedTable(identity, listen_host=bind)
    entering = table.join_at(host, port)
    return await _sit(table, entering, timeout, secrets, (host, port), on_game)


async def join_found(
    identity: Identity,
    found: DiscoveredTable,
    *,
    bind: str = "0.0.0.0",
    timeout: float | None = None,
    secrets: SecretStore | None = None,
) -> Seated:
    """Join a table found on the network: dial each advertised address in turn and sit only if
    the host proves the key advertised in its record (protocol.md 2: `fp` pins the key, so an
    impostor on the LAN with the same table name is refused). `secrets`: as for join_lobby."""
    table = JoinedTable(identity, listen_host=bind)
    return await _sit(table, table.join(found), timeout, secrets)


async def _sit(
    table: JoinedTable,
    entering: Coroutine[Any, Any, None],
    timeout: float | None,
    secrets: SecretStore | None,
    host_address: tuple[str, int] | None = None,
    on_game: Callable[[str], None] | None = None,
) -> Seated:
    """Enter the lobby (`entering`), refuse a table id played here before, take the first free
    seat, agree, sign, form the mesh."""
    try:
        async with asyncio.timeout(timeout):
            await entering
            view = table.lobby.view if table.lobby is not None else None
            if on_game is not None and view is not None:
                on_game(view.game)
            if secrets is not None and view is not None:
                # a table id this data directory has seen before is refused (randomness.py)
                check_new_table(secrets, view.table_id)
            seat = await table.take_seat()
            signed = await _ready_until_started(table)
    except BaseException:
        entering.close()  # never awaited if the timeout struck first: no warning
        await table.close()
        raise
    lobby = table.lobby
    assert lobby is not None and lobby.view is not None
    try:
        await form_mesh(table.mesh, signed, seat_addresses(lobby), MESH_TIMEOUT_S)
    except (OSError, TimeoutError, P2PError) as error:
        log.warning("not every seat is connected yet (%s); redialling", error or "timeout")
    roster = signed.roster
    options = options_from_lobby(dict(roster.options), roster.game, len(roster.seats))
    where = [None if v is None else (v.host, v.port) for v in lobby.view.seats]
    if host_address is not None:
        where[0] = host_address  # the host as we reached it
    elif table.host_address is not None:
        where[0] = table.host_address
    return Seated(signed, seat, options, table.mesh, where)


def _needs_ready(guest: GuestLobby) -> bool:
    """The open lobby shows our seat not ready: it forgot our agreement (options changed)."""
    view, seat = guest.view, guest.my_seat
    if view is None or view.phase != OPEN or seat is None:
        return False
    mine = view.seats[seat]
    return mine is not None and not mine.ready


async def _ready_until_started(table: JoinedTable) -> SignedRoster:
    """Mark ready, and again after any lobby state that shows us not ready (the lobby forgets
    our agreement when the options change, and the roster must carry options we agreed to),
    until the table starts."""
    guest = table.lobby
    assert guest is not None
    while True:
        if guest.signed_roster is not None or guest.phase == CLOSED:
            return await table.wait_started(0)
        seen = guest.view
        if seen is not None and seen.phase == OPEN and guest.my_seat is None:
            raise LobbyClosed("the host gave our seat away")
        if _needs_ready(guest):
            assert seen is not None
            # Agree only to a table we can play: a game we have, with options that make one.
            options_from_lobby(seen.options_dict, seen.game, len(seen.seats))
            table.send_ready()
        await table.wait_until(_changed_from(guest, seen))


def _changed_from(guest: GuestLobby, seen: LobbyState | None) -> Callable[[], bool]:
    """True after the next lobby state, the start or the close."""
    return lambda: (
        guest.view is not seen or guest.signed_roster is not None or guest.phase == CLOSED
    )
