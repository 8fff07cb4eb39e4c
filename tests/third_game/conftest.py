"""High card registered for the tests of this folder (tests/third_game/plugin.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.third_game.plugin import installed


@pytest.fixture
def highcard() -> Iterator[Path]:
    with installed() as site:
        yield site
