"""Start the Textual app from the command line: the one place that turns command-line choices
(identity, network settings, the first table) into a running `FairdealApp`.

Shared by `fairdeal play` and `fairdeal host`, so that both set up networked play the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App

    from fairdeal.ui.table_factory import TableSpec

AppRunner = Callable[["App[None]"], object]  # the app is run by it (tests record it)
ANY_ADDRESS = ("0.0.0.0", "")


def run_app(
    spec: TableSpec,
    *,
    data_dir: Path | None,
    name: str | None,
    bind: str = "0.0.0.0",
    open_table: bool = True,
    discovery: bool = True,
    advertise: bool = True,
    silence_limit: float | None = None,
    gather_timeout: float | None = None,
    runner: AppRunner | None = None,
) -> int:
    """Open the app on a table for `spec` (or in the lobby when `open_table` is false) as the
    user whose identity lives in `data_dir`; networked tables use `bind` and the other settings.
    `runner` runs the app (default `App.run`; tests inject their own: no terminal needed)."""

    from fairdeal.p2p.table.runtime.peer import DEFAULT_SILENCE_LIMIT
    from fairdeal.p2p.table.tools.session import NetworkSettings, use_settings
    from fairdeal.ui.app import FairdealApp
    from fairdeal.ui.player import load_player
    from fairdeal.ui.table_finder import FixedFinder, ZeroconfFinder

    # A damaged identity or an unwritable data directory raises before any screen opens, and
    # fairdeal.ui.cli.main words it (IdentityFileError is a P2PError).
    player = load_player(data_dir, name, local=open_table and spec.local)
    only = None if bind in ANY_ADDRESS else (bind,)
    use_settings(
        NetworkSettings(
            data_dir=data_dir,
            bind=bind,
            interfaces=only,
            advertise=advertise,
            silence_limit=DEFAULT_SILENCE_LIMIT if silence_limit is None else silence_limit,
            gather_timeout=gather_timeout,
        )
    )
    spec = replace(spec, name=player.name, fingerprint=player.code)
    app = FairdealApp(
        player,
        table=spec if open_table else None,
        finder=ZeroconfFinder(only) if discovery else FixedFinder(),
        table_defaults=spec,
    )
    (runner or FairdealApp.run)(app)
    return 0
