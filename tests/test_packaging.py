"""The distribution installs one top-level package, `fairdeal`, and lists every subpackage."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import fairdeal

ROOT = Path(__file__).resolve().parents[1]
MAPPED = {"engine": "fairdeal.engine", "p2p": "fairdeal.p2p", "ui": "fairdeal.ui"}


def _declared() -> tuple[dict[str, str], list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return config["package-dir"], config["packages"]


def test_every_folder_with_an_init_is_a_listed_package() -> None:
    package_dir, packages = _declared()
    assert {package_dir[name]: name for name in MAPPED.values()} == MAPPED
    found = {"fairdeal"}
    for folder, name in MAPPED.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder)
            found.add(".".join([name, *relative.parts]))
    assert sorted(found) == sorted(packages)


def test_the_subpackages_import_as_fairdeal() -> None:
    import fairdeal.engine
    import fairdeal.p2p
    import fairdeal.ui

    for module, folder in ((fairdeal.engine, "engine"), (fairdeal.p2p, "p2p"), (fairdeal.ui, "ui")):
        assert Path(module.__file__).parent == ROOT / folder


def test_fairdeal_version_prints_the_installed_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "fairdeal", "--version"], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == f"fairdeal {fairdeal.__version__}"
    assert fairdeal.__version__[0].isdigit()
