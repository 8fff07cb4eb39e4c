"""Every UI test plays networked tables (if any) from throw-away identities on loopback only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fairdeal.p2p.table.tools.session import NetworkSettings
from tests.game.loopback import loopback_settings, settings_in_use


@pytest.fixture(autouse=True)
def network_on_loopback(tmp_path: Path) -> Iterator[NetworkSettings]:
    """Never the user's identity or a real interface (COMMON: loopback only in tests)."""
    with settings_in_use(loopback_settings(tmp_path / "me")) as settings:
        yield settings
