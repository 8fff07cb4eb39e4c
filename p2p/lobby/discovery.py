"""Finding tables on the LAN with mDNS / DNS-SD (python-zeroconf's asyncio API).

A host advertises its open table as a `_fairdeal._tcp.local.` service whose TXT record says what
the table is (`TableAd`); everyone else browses that type live and resolves each service into a
`DiscoveredTable`. Both sides share one `AsyncZeroconf` per process, opened by `open_zeroconf`:
loopback (`LOOPBACK`) for single-machine use and tests, every real interface by default.

TXT fields (protocol.md section 2): `proto` (protocol version), `game`, `table` (table name),
`seats` ("taken/total"), `fp` (host key fingerprint), `tid` (table id, hex), `code` (the host's
fingerprint code, the one people compare aloud at the table: 25 digits; optional when parsing),
`state` (`open` while it takes players, `playing` once started: still listed, for watchers;
optional when parsing, absent reads as `open`) and `rev`, a counter that makes every update a new
record. Parsing is strict:
a record that does not parse is bad input from the network, logged and ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import ifaddr  # python-zeroconf's own dependency for listing interfaces
from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from fairdeal.p2p.net.handshake import SUPPORTED_VERSIONS

log = logging.getLogger(__name__)

SERVICE_TYPE = "_fairdeal._tcp.local."
LOOPBACK: tuple[str, ...] = ("127.0.0.1",)
# The newest protocol version we speak; the handshake negotiates the one actually used.
DISCOVERY_PROTOCOL_VERSION = max(SUPPORTED_VERSIONS)

# DNS-SD limits: an instance label is at most 63 bytes; a TXT string at most 255 bytes.
MAX_INSTANCE_BYTES = 63
MAX_TABLE_NAME_BYTES = 40
MAX_GAME_BYTES = 16
FINGERPRINT_HEX_CHARS = 16  # fairdeal.p2p.identity.fingerprint (protocol.md 3.1)
TABLE_ID_HEX_CHARS = 32
MAX_SEATS = 8
RESOLVE_TIMEOUT_MS = 3000
TXT_KEYS = ("proto", "game", "table", "seats", "fp", "tid")  # required; `code` is optional
CODE_DIGITS = 25  # fairdeal.p2p.identity.fingerprint_code, without its spaces (protocol.md 3.1)

_GAME_RE = re.compile(r"[a-z][a-z0-9_-]*\Z")
_HEX_RE = re.compile(r"[0-9a-f]+\Z")
_SEATS_RE = re.compile(r"([0-9]{1,2})/([0-9]{1,2})\Z")
_CODE_RE = re.compile(rf"[0-9]{{{CODE_DIGITS}}}\Z")
OPEN, PLAYING = "open", "playing"  # the `state` key: taking players, or started (watchable)


class BadAdvertisement(ValueError):
    """A TXT record from the network (or a local `TableAd`) that breaks the rules of section 2."""


@dataclass(frozen=True)
class TableAd:
    """What a table says about itself in its TXT record."""

    table_id: str  # hex, TABLE_ID_HEX_CHARS long; names the table in every envelope
    name: str
    game: str
    seats_taken: int
    seats_total: int
    host_fingerprint: str
    protocol_version: int = DISCOVERY_PROTOCOL_VERSION
    host_code: str = ""  # the host's fingerprint code as digits ("" if the host did not say)
    playing: bool = False  # started: nobody new sits down, a watcher may follow it (4.8)

    def __post_init__(self) -> None:
        _check_ad(self)

    @property
    def is_full(self) -> bool:
        return self.seats_taken >= self.seats_total

    @property
    def status(self) -> str:
        """What a player needs to know before joining or watching: open, full, playing (watch
        it), or too new for us."""
        if self.protocol_version not in SUPPORTED_VERSIONS:
            return f"needs protocol {self.protocol_version}"
        if self.playing:
            return PLAYING
        return "full" if self.is_full else OPEN

    def with_seats_taken(self, seats_taken: int) -> TableAd:
        return replace(self, seats_taken=seats_taken)  # checked again, as every new ad is

    @property
    def host_key_text(self) -> str:
        """The host's key as people compare it aloud ("04217 88310 …"), else its hex fingerprint."""
        if not self.host_code:
            return self.host_fingerprint
        return " ".join(self.host_code[i : i + 5] for i in range(0, CODE_DIGITS, 5))

    def to_txt(self) -> dict[str, str]:
        return {
            "proto": str(self.protocol_version),
            "game": self.game,
            "table": self.name,
            "seats": f"{self.seats_taken}/{self.seats_total}",
            "fp": self.host_fingerprint,
            "tid": self.table_id,
            "state": PLAYING if self.playing else OPEN,
        } | ({"code": self.host_code} if self.host_code else {})

    @classmethod
    def from_txt(cls, properties: Mapping[bytes, bytes | None]) -> TableAd:
        """Parse a resolved TXT record; unknown keys are ignored (forward compatibility)."""
        fields: dict[str, str] = {}
        for raw_key, raw_value in properties.items():
            try:
                key = raw_key.decode("ascii")
                value = "" if raw_value is None else raw_value.decode("utf-8")
            except UnicodeDecodeError as error:
                raise BadAdvertisement(f"TXT field {raw_key!r} is not valid text") from error
            fields[key] = value
        missing = [key for key in TXT_KEYS if key not in fields]
        if missing:
            raise BadAdvertisement(f"TXT record lacks {', '.join(missing)}")
        if not fields["proto"].isdecimal() or len(fields["proto"]) > 4:
            raise BadAdvertisement(f"proto={fields['proto']!r} is not a version number")
        seats = _SEATS_RE.match(fields["seats"])
        if seats is None:
            raise BadAdvertisement(f"seats={fields['seats']!r} is not 'taken/total'")
        state = fields.get("state", OPEN)
        if state not in (OPEN, PLAYING):
            raise BadAdvertisement(f"state={state!r} is neither {OPEN!r} nor {PLAYING!r}")
        return cls(
            table_id=fields["tid"],
            name=fields["table"],
            game=fields["game"],
            seats_taken=int(seats.group(1)),
            seats_total=int(seats.group(2)),
            host_fingerprint=fields["fp"],
            protocol_version=int(fields["proto"]),
            host_code=fields.get("code", ""),
            playing=state == PLAYING,
        )


def _check_ad(ad: TableAd) -> None:
    if len(ad.table_id) != TABLE_ID_HEX_CHARS or not _HEX_RE.match(ad.table_id):
        raise BadAdvertisement(f"table id {ad.table_id!r} is not {TABLE_ID_HEX_CHARS} hex digits")
    if not ad.name.strip() or len(ad.name.encode()) > MAX_TABLE_NAME_BYTES:
        raise BadAdvertisement(f"table name must be 1..{MAX_TABLE_NAME_BYTES} bytes of text")
    if any(not ch.isprintable() for ch in ad.name):
        raise BadAdvertisement("table name has control characters")
    if len(ad.game) > MAX_GAME_BYTES or not _GAME_RE.match(ad.game):
        raise BadAdvertisement(f"game {ad.game!r} is not a lower-case game id")
    if not 2 <= ad.seats_total <= MAX_SEATS or not 0 <= ad.seats_taken <= ad.seats_total:
        raise BadAdvertisement(f"seats {ad.seats_taken}/{ad.seats_total} out of range")
    fingerprint = ad.host_fingerprint
    if len(fingerprint) != FINGERPRINT_HEX_CHARS or not _HEX_RE.match(fingerprint):
        raise BadAdvertisement(f"host fingerprint {fingerprint!r} is not 16 hex digits")
    if ad.host_code and not _CODE_RE.match(ad.host_code):
        raise BadAdvertisement(f"host code {ad.host_code!r} is not {CODE_DIGITS} digits")
    if ad.protocol_version < 1:
        raise BadAdvertisement(f"protocol version {ad.protocol_version} is not positive")


@dataclass(frozen=True)
class DiscoveredTable:
    """A resolved advertisement: where to connect and what the table says about itself."""

    instance: str  # the full service name, e.g. "Friday (1a2b3c4d)._fairdeal._tcp.local."
    ad: TableAd
    addresses: tuple[str, ...]
    port: int

    def to_json(self) -> dict[str, object]:
        return {
            "instance": self.instance,
            "table_id": self.ad.table_id,
            "name": self.ad.name,
            "game": self.ad.game,
            "seats_taken": self.ad.seats_taken,
            "seats_total": self.ad.seats_total,
            "host_fingerprint": self.ad.host_fingerprint,
            "host_code": self.ad.host_key_text if self.ad.host_code else "",
            "protocol_version": self.ad.protocol_version,
            "status": self.ad.status,
            "addresses": list(self.addresses),
            "port": self.port,
        }


@dataclass(frozen=True)
class TableAdded:
    table: DiscoveredTable


@dataclass(frozen=True)
class TableUpdated:
    table: DiscoveredTable


@dataclass(frozen=True)
class TableRemoved:
    instance: str


TableEvent = TableAdded | TableUpdated | TableRemoved


def open_zeroconf(interfaces: Sequence[str] | None = None) -> AsyncZeroconf:
    """One mDNS stack for this process: the given IPv4 addresses, or every interface."""
    chosen: list[str] | InterfaceChoice = list(interfaces) if interfaces else InterfaceChoice.All
    return AsyncZeroconf(interfaces=chosen, ip_version=IPVersion.V4Only)


def local_addresses(interfaces: Sequence[str] | None = None) -> list[str]:
    """The IPv4 addresses to advertise: the chosen ones, or every non-loopback one we have."""
    if interfaces:
        return list(interfaces)
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ipaddress.IPv4Address(ip.ip).is_loopback:
                found.append(ip.ip)
    return found or list(LOOPBACK)


def instance_label(ad: TableAd) -> str:
    """A readable, LAN-unique instance label: the table name plus a short table id."""
    # MAX_TABLE_NAME_BYTES + the 11-byte suffix stays within MAX_INSTANCE_BYTES.
    name = ad.name.replace(".", " ").strip()  # dots would need DNS escaping in some browsers
    return f"{name or 'table'} ({ad.table_id[:8]})"


class TableAdvertiser:
    """Publishes one table's `TableAd`, keeps it current (seats, then `playing` once started),
    and withdraws it on close (the table over or closed)."""

    def __init__(
        self,
        aiozc: AsyncZeroconf,
        ad: TableAd,
        port: int,
        addresses: Iterable[str],
    ) -> None:
        self._aiozc = aiozc
        self._ad = ad
        self._port = port
        self._addresses = [ipaddress.IPv4Address(a).packed for a in addresses]
        self._info: AsyncServiceInfo | None = None
        # Bumped on every update: a record equal to one sent a moment ago would be taken by
        # browsers for a refresh of the copy still in their cache (RFC 6762 keeps a flushed
        # record for 1 s) and the change back would go unseen.
        self._revision = 0

    @property
    def ad(self) -> TableAd:
        return self._ad

    @property
    def instance(self) -> str:
        return f"{instance_label(self._ad)}.{SERVICE_TYPE}"

    def _service_info(self) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            self.instance,
            addresses=self._addresses,
            port=self._port,
            properties=self._ad.to_txt() | {"rev": str(self._revision)},
            server=f"fairdeal-{self._ad.table_id[:12]}.local.",
        )

    async def start(self) -> None:
        """Register and wait until probing is over and the service has been announced."""
        if self._info is not None:
            raise RuntimeError("advertiser already started")
        info = self._service_info()
        await (await self._aiozc.async_register_service(info))
        self._info = info

    async def update(self, ad: TableAd) -> None:
        """Re-announce with new TXT fields (seats filling up); the table id must not change."""
        if ad.table_id != self._ad.table_id:
            raise ValueError("an advertiser serves one table id")
        self._ad = ad
        self._revision += 1
        if self._info is None:
            return
        info = self._service_info()
        await (await self._aiozc.async_update_service(info))
        self._info = info

    async def close(self) -> None:
        """Send goodbye packets so that browsers drop the table at once."""
        info, self._info = self._info, None
        if info is not None:
            await (await self._aiozc.async_unregister_service(info))


TableCallback = Callable[[TableEvent], None]


class TableBrowser:
    """Live view of the tables on the LAN; calls back on every add, update and removal.

    `tables` is the current snapshot, keyed by instance name. `wait_for` awaits a table that
    matches a predicate, so callers and tests synchronise on real events, not on sleeps.
    """

    def __init__(self, aiozc: AsyncZeroconf, on_event: TableCallback | None = None) -> None:
        self._aiozc = aiozc
        self._callbacks: list[TableCallback] = [on_event] if on_event else []
        self._tables: dict[str, DiscoveredTable] = {}
        self._resolving: dict[str, asyncio.Task[None]] = {}
        self._waiters: list[tuple[Callable[[DiscoveredTable], bool], asyncio.Future[object]]] = []
        self._browser: AsyncServiceBrowser | None = None

    @property
    def tables(self) -> Mapping[str, DiscoveredTable]:
        return dict(self._tables)

    def subscribe(self, callback: TableCallback) -> None:
        self._callbacks.append(callback)

    async def start(self) -> None:
        if self._browser is not None:
            raise RuntimeError("browser already started")
        self._browser = AsyncServiceBrowser(
            self._aiozc.zeroconf, [SERVICE_TYPE], handlers=[self._on_state_change]
        )

    async def close(self) -> None:
        browser, self._browser = self._browser, None
        if browser is not None:
            await browser.async_cancel()
        tasks = list(self._resolving.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._resolving.clear()
        for _, future in self._waiters:
            if not future.done():
                future.set_exception(RuntimeError("the table browser was closed"))
        self._waiters.clear()

    async def settle(self) -> None:
        """Wait for the resolutions already under way (each ends within RESOLVE_TIMEOUT_MS)."""
        while self._resolving:
            await asyncio.gather(*self._resolving.values(), return_exceptions=True)

    async def wait_for(
        self, predicate: Callable[[DiscoveredTable], bool], timeout: float
    ) -> DiscoveredTable:
        """The first table (present now or later) for which `predicate` holds."""
        for table in self._tables.values():
            if predicate(table):
                return table
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        entry = (predicate, future)
        self._waiters.append(entry)
        try:
            found = await asyncio.wait_for(future, timeout)
        finally:
            with contextlib.suppress(ValueError):
                self._waiters.remove(entry)
        assert isinstance(found, DiscoveredTable)
        return found

    async def wait_gone(self, instance: str, timeout: float) -> None:
        """Wait until `instance` is no longer listed."""
        if instance not in self._tables:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def on_event(event: TableEvent) -> None:
            if isinstance(event, TableRemoved) and event.instance == instance and not future.done():
                future.set_result(None)

        self._callbacks.append(on_event)
        try:
            await asyncio.wait_for(future, timeout)
        finally:
            self._callbacks.remove(on_event)

    # zeroconf calls this on its own loop (ours) with keyword arguments.
    def _on_state_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        del service_type
        previous = self._resolving.pop(name, None)
        if previous is not None:
            previous.cancel()
        if state_change is ServiceStateChange.Removed:
            if self._tables.pop(name, None) is not None:
                self._emit(TableRemoved(name))
            return
        task = asyncio.get_running_loop().create_task(self._resolve(zeroconf, name))
        self._resolving[name] = task
        task.add_done_callback(lambda done: self._forget(name, done))

    def _forget(self, name: str, task: asyncio.Task[None]) -> None:
        if self._resolving.get(name) is task:
            del self._resolving[name]

    async def _resolve(self, zeroconf: Zeroconf, name: str) -> None:
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if not await info.async_request(zeroconf, RESOLVE_TIMEOUT_MS):
            log.info("table %r announced but did not resolve", name)
            return
        table = _table_from_info(name, info)
        if table is None:
            return
        known = self._tables.get(name)
        if known == table:
            return
        self._tables[name] = table
        self._emit(TableAdded(table) if known is None else TableUpdated(table))

    def _emit(self, event: TableEvent) -> None:
        if not isinstance(event, TableRemoved):
            for predicate, future in list(self._waiters):
                if not future.done() and predicate(event.table):
                    future.set_result(event.table)
        for callback in list(self._callbacks):
            try:
                callback(event)
            except Exception:  # one bad subscriber must not stop discovery for the others
                log.exception("table event callback failed")


def _table_from_info(name: str, info: AsyncServiceInfo) -> DiscoveredTable | None:
    try:
        ad = TableAd.from_txt(info.properties)
    except BadAdvertisement as error:
        log.warning("ignoring table %r: %s", name, error)
        return None
    addresses = tuple(info.parsed_addresses(IPVersion.V4Only))
    if not addresses or info.port is None:
        log.warning("ignoring table %r: no IPv4 address or port", name)
        return None
    return DiscoveredTable(instance=name, ad=ad, addresses=addresses, port=info.port)


async def discover_tables(
    timeout: float, interfaces: Sequence[str] | None = None
) -> list[DiscoveredTable]:
    """Browse for `timeout` seconds (a listing window) and return what was found, by name."""
    aiozc = open_zeroconf(interfaces)
    browser = TableBrowser(aiozc)
    try:
        await browser.start()
        await asyncio.sleep(timeout)
        await browser.settle()  # a table heard within the window is listed, even if resolving
        return sorted(browser.tables.values(), key=lambda t: (t.ad.name.casefold(), t.instance))
    finally:
        await browser.close()
        await aiozc.async_close()
