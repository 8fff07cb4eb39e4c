"""Networked tables on loopback only, from throw-away data folders: the settings, and a host
of a short game of Larry as most networked tests open one."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fairdeal.engine.larry import LarryOptions
from fairdeal.p2p.lobby.discovery import LOOPBACK
from fairdeal.p2p.table.tools.session import (
    NetworkedTable,
    NetworkSettings,
    host_table,
    use_settings,
)


def loopback_settings(data_dir: Path, *, advertise: bool = False) -> NetworkSettings:
    return NetworkSettings(
        data_dir=data_dir, bind="127.0.0.1", interfaces=LOOPBACK, advertise=advertise
    )


@contextlib.contextmanager
def settings_in_use(settings: NetworkSettings) -> Iterator[NetworkSettings]:
    """The tables opened in the block use `settings`; the previous ones are back after it."""
    previous = use_settings(settings)
    try:
        yield settings
    finally:
        use_settings(previous)


def short_host(
    data_dir: Path,
    *,
    seats: int = 2,
    bots: int = 0,
    name: str = "Tess",
    advertise: bool = False,
    **more: Any,
) -> NetworkedTable:
    """A host (not started yet) of a short game of Larry on loopback; `more` goes to
    `host_table`."""
    return host_table(
        seats=seats,
        bots=bots,
        options=LarryOptions(short_game=True),
        name=name,
        settings=loopback_settings(data_dir, advertise=advertise),
        **more,
    )


async def started_short_host(data_dir: Path, wait: float, **kwargs: Any) -> NetworkedTable:
    """`short_host(data_dir, **kwargs)`, started and listening (within `wait` seconds)."""
    host = short_host(data_dir, **kwargs)
    await host.start()
    await host.wait_for(lambda: host.address is not None, wait)
    return host
