"""The type checker over the whole package: engine/ and p2p/ strict, ui/ with mypy's defaults
(pyproject.toml [tool.mypy]). mypy cannot follow pyproject's package-dir, so it reads a tree of
links laid out as installed: fairdeal/engine, fairdeal/p2p, fairdeal/ui."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def installed_layout(where: Path) -> Path:
    """A tree of links under `where` laid out as the package is installed."""
    package = where / "fairdeal"
    package.mkdir(parents=True)
    for source in (ROOT / "fairdeal").glob("*.py"):
        (package / source.name).symlink_to(source)
    for layer in ("engine", "p2p", "ui"):
        (package / layer).symlink_to(ROOT / layer, target_is_directory=True)
    return where


def test_mypy_finds_no_error(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy comes with the test extra: pip install -e '.[test]'")
    layout = installed_layout(tmp_path / "layout")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / "cache"),
            "-p",
            "fairdeal",
        ],
        cwd=layout,
        capture_output=True,
        text=True,
        env={**os.environ, "MYPYPATH": str(layout)},
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
