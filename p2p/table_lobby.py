"""Gathering a Larry table on the LAN: the lobby state machines driven over a Mesh, with mDNS.

`open_lobby` (the host, seat 0) advertises the table with python-zeroconf, runs `HostLobby` on its
mesh and starts the table when every seat is taken and ready; `join_lobby` (a guest) connects to
a host found by name or given as HOST:PORT, takes the first free seat, marks ready, signs the
roster and dials the other seats. Both return a `Seated` table: the signed roster, this seat,
the options, and the connected mesh that the table log then runs on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from zeroconf.asyncio import AsyncZeroconf

from engine import LarryOptions
from p2p.discovery import (
    TableAd,
    TableAdvertiser,
    TableBrowser,
    local_addresses,
    open_zeroconf,
)
from p2p.errors import PeerError
from p2p.identity import Identity, PublicIdentity
from p2p.lobby import GuestLobby, HostLobby, Send
from p2p.lobby_messages import (
    GUEST_KINDS,
    HOST_KINDS,
    LobbyState,
    decode_lobby_message,
    encode_lobby_message,
)
from p2p.mesh import Mesh
from p2p.roster import OptionValue, SignedRoster
from p2p.tablelog import Roster

log = logging.getLogger("fairdeal.lobby")

GAME = "larry"


@dataclass
class Seated:
    """A started table as one seat holds it."""

    signed: SignedRoster
    seat: int
    options: LarryOptions
    mesh: Mesh
    addresses: list[tuple[str, int] | None]  # where each seat listens, as the lobby saw it

    @property
    def roster(self) -> Roster:
        return Roster(self.signed.roster.table_id, tuple(s.key for s in self.signed.roster.seats))

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.signed.roster.seats]


def lobby_options(options: LarryOptions) -> dict[str, OptionValue]:
    """The options shown in the lobby and signed in the roster."""
    return {"short_game": options.short_game, "hands": options.hands}


def options_from_lobby(values: dict[str, OptionValue]) -> LarryOptions:
    short, hands = values.get("short_game", False), values.get("hands", 3)
    if not isinstance(short, bool) or not isinstance(hands, int) or isinstance(hands, bool):
        raise PeerError("host", "the table's options are not Larry options")
    return replace(LarryOptions(), short_game=short, hands=hands)


def _peer_host(mesh: Mesh, peer: PublicIdentity) -> str:
    channel = mesh.channel(peer.key)
    return channel.address.rsplit(":", 1)[0] if channel is not None else ""


async def open_lobby(
    identity: Identity,
    seats: int,
    options: LarryOptions,
    *,
    name: str,
    bind: str = "0.0.0.0",
    advertise: bool = True,
    interfaces: list[str] | None = None,
    on_address: Callable[[tuple[str, int]], None] | None = None,
    timeout: float | None = None,
) -> Seated:
    """Host a table: advertise it, seat the guests, start when full and ready."""
    mesh = Mesh(identity)
    try:
        return await _host_lobby(
            mesh, identity, seats, options, name, bind, advertise, interfaces, on_address, timeout
        )
    except BaseException:  # given up or cancelled: nobody may sit at a table without a host
        await mesh.close()
        raise


async def _host_lobby(
    mesh: Mesh,
    identity: Identity,
    seats: int,
    options: LarryOptions,
    name: str,
    bind: str,
    advertise: bool,
    interfaces: list[str] | None,
    on_address: Callable[[tuple[str, int]], None] | None,
    timeout: float | None,
) -> Seated:
    host, port = await mesh.start(bind, 0)
    if on_address is not None:
        on_address((host, port))
    addresses = local_addresses(interfaces) if bind in ("0.0.0.0", "") else [bind]
    lobby = HostLobby(identity, GAME, lobby_options(options), seats, (addresses[0], port))
    started = asyncio.get_running_loop().create_future()
    aiozc: AsyncZeroconf | None = None
    advertiser: TableAdvertiser | None = None  # set once announced (an update before is lost)
    advertised = 1  # seats taken, as the advertisement says
    updates: list[asyncio.Task[None]] = []

    def readvertise() -> None:
        """Keep the seat count in the advertisement current: lobbies list it live."""
        nonlocal advertised
        if advertiser is None or lobby.seats_taken == advertised:
            return
        advertised = lobby.seats_taken
        previous = updates[-1] if updates else None
        updates.append(asyncio.ensure_future(_update_ad(advertiser, advertised, previous)))

    def deliver(sends: list[Send]) -> None:
        for send in sends:
            mesh.send(send.to, encode_lobby_message(send.message))
        if lobby.can_start:
            deliver(lobby.start())
        if lobby.signed_roster is not None and not started.done():
            started.set_result(lobby.signed_roster)
        readvertise()

    def on_message(peer: PublicIdentity, message: dict[str, Any]) -> None:
        decoded = decode_lobby_message(message, str(peer))
        deliver(lobby.receive(peer, _peer_host(mesh, peer), decoded))  # type: ignore[arg-type]

    for kind in GUEST_KINDS:
        mesh.on(kind, on_message)
    mesh.on_peer_up(lambda peer: deliver(lobby.connected(peer)))
    mesh.on_peer_down(lambda peer: deliver(lobby.disconnected(peer.key)))
    announcing: TableAdvertiser | None = None
    try:
        if advertise:
            aiozc = open_zeroconf(interfaces)
            ad = TableAd(lobby.table_id.hex(), name, GAME, 1, seats, identity.fingerprint)
            announcing = TableAdvertiser(aiozc, ad, port, addresses)
            await announcing.start()
            advertiser = announcing
            log.info("table %r advertised on %s port %s", name, addresses, port)
            readvertise()  # guests who sat down while it was being announced
        async with asyncio.timeout(timeout):
            signed = await started
    finally:
        for update in updates:
            update.cancel()
        await asyncio.gather(*updates, return_exceptions=True)
        if announcing is not None:
            await announcing.close()
        if aiozc is not None:
            await aiozc.async_close()
    addresses = [None if v is None else (v.host, v.port) for v in lobby.state.seats]
    return Seated(signed, 0, options, mesh, addresses)


async def _update_ad(
    advertiser: TableAdvertiser, taken: int, previous: asyncio.Task[None] | None
) -> None:
    if previous is not None:  # one update at a time, in order
        with contextlib.suppress(Exception):
            await previous
    await advertiser.update(advertiser.ad.with_seats_taken(taken))


async def find_table(
    name: str, timeout: float, interfaces: list[str] | None = None
) -> tuple[str, int]:
    """The address of the table called `name` on the LAN (mDNS)."""
    aiozc = open_zeroconf(interfaces)
    browser = TableBrowser(aiozc)
    await browser.start()
    try:
        table = await browser.wait_for(
            lambda t: t.ad.name == name and t.ad.game == GAME and not t.ad.is_full, timeout
        )
    finally:
        await browser.close()
        await aiozc.async_close()
    return table.addresses[0], table.port


async def join_lobby(
    identity: Identity,
    host: str,
    port: int,
    *,
    bind: str = "0.0.0.0",
    timeout: float | None = None,
) -> Seated:
    """Join the table hosted at host:port as a guest: sit, agree, sign, connect to every seat."""
    mesh = Mesh(identity)
    try:
        return await _join_lobby(mesh, identity, host, port, bind, timeout)
    except BaseException:  # refused, given up or cancelled: stop listening
        await mesh.close()
        raise


async def _join_lobby(
    mesh: Mesh, identity: Identity, host: str, port: int, bind: str, timeout: float | None
) -> Seated:
    _, my_port = await mesh.start(bind, 0)
    host_identity = await mesh.connect(host, port)
    lobby = GuestLobby(identity, host_identity, my_port)
    started = asyncio.get_running_loop().create_future()
    asked = False

    def on_message(peer: PublicIdentity, message: dict[str, Any]) -> None:
        if peer.key != host_identity.key:
            return
        decoded = decode_lobby_message(message, f"host {peer}")
        answers = lobby.receive(decoded)  # type: ignore[arg-type]
        nonlocal asked
        if isinstance(decoded, LobbyState) and decoded.phase == "open":
            seat = lobby.my_seat
            if seat is None and not asked:
                asked = True
                answers.append(lobby.take_seat())
            elif seat is not None and not decoded.seats[seat].ready:  # type: ignore[union-attr]
                # (again after any state that shows us not ready: the lobby forgets our
                # agreement then, and the roster must carry options we agreed to)
                answers.append(lobby.set_ready(True))
        for answer in answers:
            mesh.send(host_identity.key, encode_lobby_message(answer))
        if lobby.signed_roster is not None and not started.done():
            started.set_result(lobby.signed_roster)
        if lobby.closed_reason is not None and not started.done():
            started.set_exception(PeerError(f"host {peer}", lobby.closed_reason))

    for kind in HOST_KINDS:
        mesh.on(kind, on_message)
    async with asyncio.timeout(timeout):
        signed: SignedRoster = await started
    seat = lobby.my_seat
    view = lobby.view
    assert seat is not None and view is not None
    for other, seat_view in enumerate(view.seats):
        if other > seat and seat_view is not None:
            with contextlib.suppress(OSError):
                await mesh.connect(seat_view.host, seat_view.port, seat_view.identity.key)
    options = options_from_lobby(dict(signed.roster.options))
    addresses = [None if v is None else (v.host, v.port) for v in view.seats]
    addresses[0] = (host, port)  # the host as we reached it
    return Seated(signed, seat, options, mesh, addresses)
