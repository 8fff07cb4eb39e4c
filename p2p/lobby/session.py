"""The lobby on the network: a `HostedTable` advertises itself and runs a `HostLobby` on a `Mesh`;
a `JoinedTable` dials a discovered table, checks the host's key against the advertised
fingerprint and runs a `GuestLobby`. Once the roster is signed, `form_mesh` connects every seat to
every other seat, and the same `Mesh` then carries the table log (`p2p.log.sync.TableSync`).

All waiting is on real events: `wait_until(predicate)` re-checks after every lobby message.

Host::

    aiozc = open_zeroconf()                        # or LOOPBACK on one machine, None: no mDNS
    table = HostedTable(identity, aiozc, "Friday", "larry", options, 4, local_addresses())
    await table.open()                             # listening and advertised
    await table.wait_until(lambda: table.lobby.can_start)    # or let the user press "start"
    signed = await table.start()                   # every seat signed; advert says "playing"
    listing = table.keep_listing()                 # the table's to withdraw when it ends
    await form_mesh(table.mesh, signed, seat_addresses(table.lobby), timeout=10)
    sync = start_table_log(table.mesh, signed, ordering, apply, create_transcript(path, signed, 0))
    sync.publish(ROSTER_KIND, signed.to_body())    # the log opens with the signed roster

Guest (`TableBrowser.wait_for` or `discover_tables` gives the `DiscoveredTable`)::

    table = JoinedTable(identity)
    await table.join(found)                # refuses a key other than found.ad.host_fingerprint
    # or: await table.join_at(host, port)  # a typed HOST:PORT, no advertised key to check
    await table.take_seat()                        # or take_seat(2); LobbyClosed if refused
    await table.set_ready()
    signed = await table.wait_started()
    await form_mesh(table.mesh, signed, seat_addresses(table.lobby), timeout=10)
    sync = start_table_log(table.mesh, signed, ordering, apply, transcript)

`table.lobby` is the sans-IO state (`HostLobby` / `GuestLobby`): `.state` / `.view` is the
`LobbyState` to show (seats, names, ready flags, options, phase).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from zeroconf.asyncio import AsyncZeroconf

from fairdeal.p2p.errors import HandshakeError, P2PError, PeerError
from fairdeal.p2p.identity import Identity, PublicIdentity
from fairdeal.p2p.lobby.discovery import DiscoveredTable, TableAd, TableAdvertiser
from fairdeal.p2p.lobby.machines import (
    CLOSED,
    STARTED,
    STARTING,
    GuestLobby,
    HostLobby,
    LobbyError,
    Send,
)
from fairdeal.p2p.lobby.messages import (
    GUEST_KINDS,
    HOST_KINDS,
    decode_lobby_message,
    encode_lobby_message,
    signed_roster_record,
)
from fairdeal.p2p.lobby.roster import OptionValue, SignedRoster
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import Ordering, TableLog
from fairdeal.p2p.log.tablelog import Roster as LogRoster
from fairdeal.p2p.log.transcript import Transcript
from fairdeal.p2p.net import kinds
from fairdeal.p2p.net.channel import DEFAULT_CONFIG, ChannelConfig
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.net.unreachable import unreachable_reason

log = logging.getLogger(__name__)

# A watcher's request and its refusal (protocol.md 4.8): served by the seats once the table has
# started (p2p/table/runtime/watchers.py); the lobby before then refuses it with the reason.
WATCH, WATCH_REFUSED = kinds.WATCH, kinds.WATCH_REFUSED
NOT_STARTED = "the table has not started yet: join it, or watch it once it plays"


class LobbyClosed(P2PError):
    """The table closed (or the host went away) before it started."""


class _Waiters:
    """Futures waiting for a condition over state that changes when messages are handled."""

    def __init__(self) -> None:
        self._waiting: list[tuple[Callable[[], bool], asyncio.Future[None]]] = []

    async def wait(self, predicate: Callable[[], bool], timeout: float | None) -> None:
        if predicate():
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (predicate, future)
        self._waiting.append(entry)
        try:
            await asyncio.wait_for(future, timeout)
        finally:
            with contextlib.suppress(ValueError):
                self._waiting.remove(entry)

    def check(self) -> None:
        for predicate, future in list(self._waiting):
            if not future.done() and predicate():
                future.set_result(None)

    def fail(self, error: BaseException) -> None:
        for _, future in list(self._waiting):
            if not future.done():
                future.set_exception(error)


def log_roster(signed: SignedRoster) -> LogRoster:
    """The table log's roster (table id and seat keys) from the signed lobby roster."""
    return LogRoster(signed.roster.table_id, tuple(seat.key for seat in signed.roster.seats))


def _peer_host(mesh: Mesh, peer: PublicIdentity) -> str:
    channel = mesh.channel(peer.key)
    address = channel.address if channel is not None else ""
    return address.rsplit(":", 1)[0] if ":" in address else address


class StartedListing:
    """A started table's advertisement, kept while it plays so that the lobbies of the LAN list
    it as `playing` and watchers find it (protocol.md 2, 4.8); `withdraw` ends it (goodbye
    packets) once the game is over or the seat closes, and closes its mDNS stack."""

    def __init__(self, advertiser: TableAdvertiser, aiozc: AsyncZeroconf) -> None:
        self._advertiser: TableAdvertiser | None = advertiser
        self._aiozc = aiozc

    async def withdraw(self) -> None:
        advertiser, self._advertiser = self._advertiser, None
        if advertiser is None:
            return
        try:
            await advertiser.close()
        finally:
            await self._aiozc.async_close()


class HostedTable:
    """A table this peer hosts: a listening mesh, an mDNS advertisement and the lobby."""

    def __init__(
        self,
        identity: Identity,
        aiozc: AsyncZeroconf | None,  # None: not advertised (guests dial HOST:PORT)
        name: str,
        game: str,
        options: Mapping[str, OptionValue],
        seat_count: int,
        addresses: Iterable[str],
        listen_host: str = "0.0.0.0",
        listen_port: int = 0,
        config: ChannelConfig = DEFAULT_CONFIG,
    ) -> None:
        self.identity = identity
        self.name = name
        self._addresses = list(addresses)
        self._aiozc = aiozc
        self._listen = (listen_host, listen_port)
        self._game, self._options, self._seat_count = game, dict(options), seat_count
        self.mesh = Mesh(identity, config, accept_peer=self._accepts)
        self.lobby: HostLobby | None = None
        self.advertiser: TableAdvertiser | None = None
        self._waiters = _Waiters()
        self._ad_dirty = asyncio.Event()
        self._ad_task: asyncio.Task[None] | None = None
        self.address: tuple[str, int] | None = None  # where the mesh listens, once it does

    async def listen(self) -> tuple[str, int]:
        """Start listening (if not yet); returns the bound (host, port)."""
        if self.address is None:
            self.address = await self.mesh.start(*self._listen)
        return self.address

    async def open(self) -> None:
        """Listen, create the lobby and advertise the table (returns once announced)."""
        _, port = await self.listen()
        self.lobby = HostLobby(
            self.identity,
            self._game,
            self._options,
            self._seat_count,
            (self._addresses[0], port),
        )
        for kind in GUEST_KINDS:
            self.mesh.on(kind, self._on_message)
        self.mesh.on(WATCH, self._refuse_watcher)
        self.mesh.on_peer_up(lambda peer: self._perform(self._host_lobby.connected(peer)))
        self.mesh.on_peer_down(lambda peer: self._perform(self._host_lobby.disconnected(peer.key)))
        if self._aiozc is None:
            return
        self.advertiser = TableAdvertiser(self._aiozc, self.ad, port, self._addresses)
        await self.advertiser.start()
        self._ad_task = asyncio.get_running_loop().create_task(self._keep_ad_current())

    @property
    def _host_lobby(self) -> HostLobby:
        assert self.lobby is not None, "open() the table first"
        return self.lobby

    @property
    def ad(self) -> TableAd:
        lobby = self._host_lobby
        return TableAd(
            table_id=lobby.table_id.hex(),
            name=self.name,
            game=lobby.game,
            seats_taken=lobby.seats_taken,
            seats_total=len(lobby.state.seats),
            host_fingerprint=self.identity.fingerprint,
            host_code=self.identity.code.replace(" ", ""),
            playing=lobby.phase is STARTED,
        )

    def _accepts(self, peer: PublicIdentity) -> bool:
        """Anyone may watch the lobby, and, once started, the table: a peer that is not seated
        is a watcher there, limited and served by p2p.table.runtime.watchers (protocol.md 4.8)."""
        return True

    def _refuse_watcher(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        """A watcher early: nothing to watch until the table starts. Once it has, the request
        waits for the table's watch service, which takes over `watch` (the watcher asks again)."""
        del message
        if self._host_lobby.phase is not STARTED:
            self.mesh.send(peer.key, {"t": WATCH_REFUSED, "reason": NOT_STARTED})

    def _on_message(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        decoded = decode_lobby_message(message, str(peer))
        host = _peer_host(self.mesh, peer)
        self._perform(self._host_lobby.receive(peer, host, decoded))  # type: ignore[arg-type]

    def _perform(self, sends: list[Send]) -> None:
        for send in sends:
            self.mesh.send(send.to, encode_lobby_message(send.message))
        if self.advertiser is not None and self.advertiser.ad != self.ad:
            self._ad_dirty.set()
        self._waiters.check()

    async def _keep_ad_current(self) -> None:
        """Re-announce the TXT record when seats fill or empty (one update at a time)."""
        assert self.advertiser is not None
        while True:
            await self._ad_dirty.wait()
            self._ad_dirty.clear()
            if self._host_lobby.phase in (STARTED, CLOSED):
                return
            if self.advertiser.ad != self.ad:
                await self.advertiser.update(self.ad)

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None) -> None:
        await self._waiters.wait(predicate, timeout)

    def set_options(self, options: Mapping[str, OptionValue]) -> None:
        """Change the options while the table is open; every guest must agree again."""
        self._perform(self._host_lobby.set_options(options))

    async def start(self, timeout: float = 10.0) -> SignedRoster:
        """Start (every seat taken and ready): collect every roster signature, then advertise the
        table as playing: a started table takes nobody new, but watchers (protocol.md 2)."""
        lobby = self._host_lobby
        self._perform(lobby.start())
        try:
            await self.wait_until(
                lambda: lobby.signed_roster is not None or lobby.phase != STARTING, timeout
            )
        except TimeoutError:
            missing = ", ".join(f"seat {seat}" for seat in lobby.unsigned_seats)
            self._perform(lobby.call_off_start())
            raise LobbyClosed(f"the start was called off: {missing} did not sign") from None
        signed = lobby.signed_roster
        if signed is None:
            raise LobbyClosed("the start was called off: a seat left or changed its mind")
        await self._stop_ad_updates()
        if self.advertiser is not None:
            await self.advertiser.update(self.ad)  # `playing`: listed for watchers
        # Watchers that took no seat have seen the start; the table's channels are for seats.
        await self.mesh.drain()
        for key in list(self.mesh.peers):
            channel = self.mesh.channel(key)
            if signed.roster.seat_of(key) is None and channel is not None:
                await channel.close("the table started without you")
        return signed

    def keep_listing(self) -> StartedListing | None:
        """Hand the started table's advertisement (and its mDNS stack) to whoever plays the
        table, to withdraw when the game ends; this table no longer closes it. None: the table
        was not advertised."""
        advertiser, self.advertiser = self.advertiser, None
        aiozc, self._aiozc = self._aiozc, None
        if advertiser is None or aiozc is None:
            return None
        return StartedListing(advertiser, aiozc)

    async def _stop_ad_updates(self) -> None:
        if self._ad_task is not None:
            self._ad_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ad_task
            self._ad_task = None

    async def _withdraw(self) -> None:
        await self._stop_ad_updates()
        if self.advertiser is not None:
            await self.advertiser.close()

    async def close(self) -> None:
        if self.lobby is not None:
            self._perform(self.lobby.close())
            await self.mesh.drain()
        await self._withdraw()
        await self.mesh.close()


class JoinedTable:
    """A table hosted by someone else, joined through its advertisement."""

    def __init__(
        self,
        identity: Identity,
        listen_host: str = "0.0.0.0",
        listen_port: int = 0,
        config: ChannelConfig = DEFAULT_CONFIG,
    ) -> None:
        self.identity = identity
        self._listen = (listen_host, listen_port)
        self.mesh = Mesh(identity, config, accept_peer=self._accepts)
        self.lobby: GuestLobby | None = None
        self._waiters = _Waiters()
        self._early: list[tuple[PublicIdentity, dict[str, Any]]] = []
        self._host_fingerprint: str | None = None
        self.host_address: tuple[str, int] | None = None  # where the host answered

    async def join(self, table: DiscoveredTable, timeout: float = 10.0) -> None:
        """Dial the host, check its key is the advertised one, and wait for the lobby state."""
        advertised = table.ad.host_fingerprint
        port = await self._listen_for_host(advertised)
        host = await self._dial(table.addresses, table.port, timeout)
        if host.fingerprint != advertised:
            await self.mesh.close()
            raise HandshakeError(str(host), f"key does not match the advertised {advertised}")
        code = table.ad.host_code
        if code and host.code.replace(" ", "") != code:  # the code shown in the lobby is pinned too
            await self.mesh.close()
            raise HandshakeError(
                str(host), f"key does not match the advertised code {table.ad.host_key_text}"
            )
        await self._enter(host, port, timeout)

    async def join_at(self, host: str, port: int, timeout: float = 10.0) -> None:
        """Dial a table typed in as HOST:PORT (no advertised key to check) and wait for its
        lobby state."""
        my_port = await self._listen_for_host(None)
        await self._enter(await self._dial([host], port, timeout), my_port, timeout)

    async def _listen_for_host(self, fingerprint: str | None) -> int:
        _, port = await self.mesh.start(*self._listen)
        for kind in HOST_KINDS:
            self.mesh.on(kind, self._on_message)
        self.mesh.on_peer_down(self._on_peer_down)
        self._host_fingerprint = fingerprint
        return port

    async def _enter(self, host: PublicIdentity, port: int, timeout: float) -> None:
        self.lobby = GuestLobby(self.identity, host, port)
        early, self._early = self._early, []
        for peer, message in early:  # the host's first state can beat connect() returning
            self._on_message(peer, message)
        await self.wait_until(lambda: self._guest.view is not None, timeout)

    async def _dial(self, addresses: Iterable[str], port: int, timeout: float) -> PublicIdentity:
        """The first advertised address that answers (a laptop may list unreachable ones)."""
        failures: list[str] = []
        for address in addresses:
            try:
                host = await asyncio.wait_for(self.mesh.connect(address, port), timeout)
            except (OSError, TimeoutError, P2PError) as error:
                failures.append(unreachable_reason(error, address, port))
                continue
            self.host_address = (address, port)
            return host
        raise LobbyClosed("; ".join(failures) or f"no address to reach the table at port {port}")

    @property
    def _guest(self) -> GuestLobby:
        assert self.lobby is not None, "join() a table first"
        return self.lobby

    def _accepts(self, peer: PublicIdentity) -> bool:
        """Before the start only the host dials us; after it, the seats, and watchers once the
        table has started (p2p.table.runtime.watchers limits and serves them, protocol.md 4.8)."""
        lobby = self.lobby
        if lobby is None:  # the host we are dialling (by a typed address: no key to check yet)
            return self._host_fingerprint in (None, peer.fingerprint)
        if lobby.roster is None:
            return peer.key == lobby.host.key
        seated = lobby.roster.seat_of(peer.key) is not None
        return seated or lobby.signed_roster is not None

    def _on_message(self, peer: PublicIdentity, message: dict[str, Any]) -> None:
        lobby = self.lobby
        if lobby is None:
            self._early.append((peer, message))
            return
        if peer.key != lobby.host.key:
            raise LobbyError(str(peer), f"sent {message.get('t')!r}, which only the host may send")
        try:
            decoded = decode_lobby_message(message, f"host {peer}")
            answers = lobby.receive(decoded)  # type: ignore[arg-type]
        except PeerError as error:
            self._waiters.fail(error)
            raise
        for answer in answers:
            self.mesh.send(peer.key, encode_lobby_message(answer))
        self._waiters.check()

    def _on_peer_down(self, peer: PublicIdentity) -> None:
        lobby = self.lobby
        if lobby is not None and peer.key == lobby.host.key and lobby.phase != STARTED:
            self._waiters.fail(LobbyClosed(f"lost the connection to the host {peer}"))

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None) -> None:
        await self._waiters.wait(predicate, timeout)

    def _send(self, message: Any) -> None:
        if not self.mesh.send(self._guest.host.key, encode_lobby_message(message)):
            raise LobbyClosed("not connected to the host")

    async def take_seat(self, seat: int | None = None, timeout: float = 10.0) -> int:
        """Sit down; returns the seat, or raises LobbyClosed with the host's refusal."""
        guest = self._guest
        guest.last_refusal = None
        self._send(guest.take_seat(seat))
        await self.wait_until(
            lambda: (
                (guest.my_seat is not None and seat in (None, guest.my_seat))
                or guest.last_refusal is not None
            ),
            timeout,
        )
        if guest.last_refusal is not None:
            raise LobbyClosed(f"seat refused: {guest.last_refusal.reason}")
        assert guest.my_seat is not None
        return guest.my_seat

    async def leave_seat(self, timeout: float = 10.0) -> None:
        self._send(self._guest.leave_seat())
        await self.wait_until(lambda: self._guest.my_seat is None, timeout)

    def send_ready(self, ready: bool = True) -> None:
        """Say we are (not) ready to play with the options shown, without waiting."""
        self._send(self._guest.set_ready(ready))

    async def set_ready(self, ready: bool = True, timeout: float = 10.0) -> None:
        """Say we are (not) ready and wait until the host's state shows it."""
        guest = self._guest
        self.send_ready(ready)

        def shown() -> bool:
            seat = guest.my_seat
            view = guest.view
            if seat is None or view is None:
                return False
            mine = view.seats[seat]
            return mine is not None and mine.ready == ready

        await self.wait_until(shown, timeout)

    async def wait_started(self, timeout: float | None = None) -> SignedRoster:
        guest = self._guest
        await self.wait_until(
            lambda: guest.signed_roster is not None or guest.phase == CLOSED, timeout
        )
        if guest.signed_roster is None:
            raise LobbyClosed(f"the table closed: {guest.closed_reason}")
        if guest.signed_roster.roster.seat_of(self.identity.key) is None:
            raise LobbyClosed("the table started without us: we held no seat")
        return guest.signed_roster

    async def close(self) -> None:
        await self.mesh.close()


async def form_mesh(
    mesh: Mesh, signed: SignedRoster, addresses: Mapping[bytes, tuple[str, int]], timeout: float
) -> None:
    """Connect to every other seat: each seat dials the seats before it, all at once (one after
    another, the last of 8 seats waited on seven handshakes in a row), then all wait. A failed
    dial is raised once the others have ended, the earliest seat's first."""
    roster = signed.roster
    me = roster.seat_of(mesh.identity.key)
    if me is None:
        raise ValueError("this peer holds no seat at the table")
    others = [seat.key for seat in roster.seats if seat.key != mesh.identity.key]
    dials = [
        mesh.connect(*addresses[seat.key], expected_peer=seat.key)
        for seat in roster.seats[:me]
        if seat.key not in mesh.peers
    ]
    for outcome in await asyncio.gather(*dials, return_exceptions=True):
        if isinstance(outcome, BaseException):
            raise outcome
    await mesh.wait_for_peers(others, timeout)


def seat_addresses(lobby: HostLobby | GuestLobby) -> dict[bytes, tuple[str, int]]:
    """Where each seat's mesh listens, as the host's lobby state last said."""
    state = lobby.state if isinstance(lobby, HostLobby) else lobby.view
    assert state is not None
    return {seat.identity.key: (seat.host, seat.port) for seat in state.seats if seat is not None}


def create_transcript(path: Path, signed: SignedRoster, seat: int) -> Transcript:
    """A new transcript whose header keeps the whole signed roster for auditors."""
    extra = {"signed_roster": signed_roster_record(signed)}
    return Transcript.create(path, log_roster(signed), seat, extra)


def start_table_log(
    mesh: Mesh,
    signed: SignedRoster,
    ordering: Ordering,
    apply: Callable[[Any], None] | None = None,
    transcript: Transcript | None = None,
) -> TableSync:
    """The table log on this seat's mesh, caught up with every peer already connected.

    Seats learn of the start at slightly different moments, so another seat may already have
    published envelopes that reached us before this log existed (and were dropped). TableSync asks
    for missing envelopes on each *new* channel; here we also ask on the channels already up.
    """
    seat = signed.roster.seat_of(mesh.identity.key)
    if seat is None:
        raise ValueError("this peer holds no seat at the table")
    roster = log_roster(signed)
    sync = TableSync(mesh, TableLog(roster, ordering, apply), mesh.identity, seat, transcript)
    for key in mesh.peers:
        mesh.send(key, {"t": kinds.NEED, "table": roster.table, "have": sync.log.have})
    return sync
