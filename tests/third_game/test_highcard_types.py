"""The third game type-checks strictly (mypy --strict) against fairdeal as installed: a plugin
needs no cast and no `Any` of its own to fit the registries' records and the table driver."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_types import installed_layout
from tests.third_game.plugin import SITE


def test_mypy_strict_finds_no_error_in_the_third_game(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy comes with the test extra: pip install -e '.[test]'")
    layout = installed_layout(tmp_path / "layout")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",  # fairdeal's own errors are tests/test_types.py's
            "--cache-dir",
            str(tmp_path / "cache"),
            "-p",
            "highcard",
        ],
        cwd=layout,
        capture_output=True,
        text=True,
        env={**os.environ, "MYPYPATH": f"{layout}{os.pathsep}{SITE}"},
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
