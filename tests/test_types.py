"""The type checker over the whole package, every layer strict: engine/, p2p/ and ui/
(pyproject.toml [tool.mypy]). mypy cannot follow pyproject's package-dir, so it reads a tree of
links laid out as installed: fairdeal/engine, fairdeal/p2p, fairdeal/ui."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
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


def run_mypy(
    where: Path, *options: str, package: str, search: tuple[Path, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """mypy with `options` over `package`, run from a fresh installed layout under `where`
    (which also holds mypy's cache); `search` adds folders to its import path."""
    pytest.importorskip("mypy", reason="mypy comes with the test extra: pip install -e '.[test]'")
    layout = installed_layout(where / "layout")
    path = os.pathsep.join(str(folder) for folder in (layout, *search))
    cache = str(where / "cache")
    return subprocess.run(
        [sys.executable, "-m", "mypy", *options, "--cache-dir", cache, "-p", package],
        cwd=layout,
        capture_output=True,
        text=True,
        env={**os.environ, "MYPYPATH": path},
        timeout=600,
    )


# Friends bring all three (README.md, Platforms): typeshed marks what exists on one system only
# (os.fchmod, resource, signal.SIGKILL), so checking for each finds a call that cannot run there.
@pytest.mark.parametrize("system", ["linux", "win32", "darwin"])
def test_mypy_finds_no_error(tmp_path: Path, system: str) -> None:
    config = str(ROOT / "pyproject.toml")
    run = run_mypy(tmp_path, "--config-file", config, "--platform", system, package="fairdeal")
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_layer_is_checked_strictly() -> None:
    """The strict flags cover engine/, p2p/ and ui/: a layer left out would pass with defaults."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    strict = [
        override
        for override in config["tool"]["mypy"]["overrides"]
        if override.get("disallow_untyped_defs") and override.get("disallow_any_generics")
    ]
    covered = {module for override in strict for module in override["module"]}
    assert {"fairdeal.engine.*", "fairdeal.p2p.*", "fairdeal.ui.*"} <= covered
