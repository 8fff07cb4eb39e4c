"""The third game type-checks strictly (mypy --strict) against fairdeal as installed: a plugin
needs no cast and no `Any` of its own to fit the registries' records and the table driver."""

from __future__ import annotations

from pathlib import Path

from tests.test_types import run_mypy
from tests.third_game.plugin import SITE


def test_mypy_strict_finds_no_error_in_the_third_game(tmp_path: Path) -> None:
    run = run_mypy(
        tmp_path,
        "--strict",
        "--follow-imports=silent",  # fairdeal's own errors are tests/test_types.py's
        package="highcard",
        search=(SITE,),
    )
    assert run.returncode == 0, run.stdout + run.stderr
