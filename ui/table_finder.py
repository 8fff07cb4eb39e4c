"""Where the lobby's list of tables comes from: mDNS on the network, or a fixed list in tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from fairdeal.p2p.lobby.discovery import DiscoveredTable, TableAdded, TableEvent

if TYPE_CHECKING:
    from zeroconf.asyncio import AsyncZeroconf

    from fairdeal.p2p.lobby.discovery import TableBrowser

OnTableEvent = Callable[[TableEvent], None]


class TableFinder(Protocol):
    looking: bool  # whether tables may still appear (the lobby says "still looking")

    async def start(self, on_event: OnTableEvent) -> None:
        """Begin reporting tables (added, updated, removed) to `on_event`."""
        ...

    async def close(self) -> None: ...


class ZeroconfFinder:
    looking = True  # tables appear as they are announced

    """Live discovery with python-zeroconf (fairdeal.p2p.lobby.discovery.TableBrowser)."""

    def __init__(self, interfaces: Sequence[str] | None = None) -> None:
        self._interfaces = interfaces
        self._aiozc: AsyncZeroconf | None = None
        self._browser: TableBrowser | None = None

    async def start(self, on_event: OnTableEvent) -> None:
        from fairdeal.p2p.lobby.discovery import TableBrowser, open_zeroconf

        self._aiozc = aiozc = open_zeroconf(self._interfaces)
        self._browser = browser = TableBrowser(aiozc, on_event)
        await browser.start()

    async def close(self) -> None:
        if self._browser is not None:
            await self._browser.close()
        if self._aiozc is not None:
            await self._aiozc.async_close()


class FixedFinder:
    """A fixed list of tables, reported at start (tests, snapshots, --no-discovery)."""

    looking = False  # it does not listen for tables: the lobby must not say "still looking"

    def __init__(self, tables: Sequence[DiscoveredTable] = ()) -> None:
        self.tables = tuple(tables)

    async def start(self, on_event: OnTableEvent) -> None:
        for table in self.tables:
            on_event(TableAdded(table))

    async def close(self) -> None:
        return None
