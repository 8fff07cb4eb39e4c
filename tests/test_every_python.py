"""fairdeal on every supported Python the machine has, installed as the README's first command
installs it (`pip install .`, not editable), run from the checkout's root.

For each supported Python: a fresh virtual environment, a plain `pip install .`, then from the
checkout's root `fairdeal simulate` plays a short networked game of each game (bot peers as OS
processes over loopback: every subprocess must import the installed package, not the checkout's
`fairdeal/` folder, which holds only the version) and every transcript audits as verified. On
the Pythons other than the one running the whole suite, the fast part of the suite (engine, deck,
p2p) runs too, against that installed package. A Python the machine lacks is skipped, saying so.
The package index must answer (pip's cache keeps it quick after the first run).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUPPORTED = ("3.11", "3.12", "3.13")  # requires-python's lowest, and every later one released
RUNNING = f"{sys.version_info.major}.{sys.version_info.minor}"
# The fast part of the suite on the other Pythons. Not the real-mDNS tests: on loopback every
# browser hears every advertisement, so they share port 5353 with nobody else (tests/conftest.py,
# SERIAL_GROUPS "mdns-loopback") and the whole suite runs them on the default Python.
FAST_PART = ("tests/engine", "tests/deck", "tests/p2p")
NOT_HERE = (
    "--ignore=tests/p2p/test_discovery_loopback.py",
    "--ignore=tests/p2p/test_lobby_session.py",
    "--ignore=tests/p2p/test_mdns_port.py",
    "-m",
    "not netns and not avahi",
)


NOT_SOURCE = (".git", ".venv*", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis")


def test_the_supported_pythons_start_at_requires_python() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    assert f'requires-python = ">={SUPPORTED[0]}"' in text


def works(python: str, minor: str) -> bool:
    try:
        run = subprocess.run(
            [python, "-c", "import sys, venv; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except OSError:
        return False
    return run.returncode == 0 and run.stdout.strip() == minor


def find_python(minor: str) -> str | None:
    """An interpreter of `minor` that runs: on PATH, else one pyenv installed (its shim answers
    only for the versions chosen globally)."""
    if minor == RUNNING:
        return sys.executable
    candidates = [shutil.which(f"python{minor}")]
    pyenv_root = os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
    candidates += sorted(
        (str(p) for p in Path(pyenv_root).glob(f"versions/{minor}.*/bin/python{minor}")),
        key=lambda p: [int(n) for n in re.findall(r"\d+", Path(p).parents[1].name)],
        reverse=True,
    )
    return next((c for c in candidates if c and works(c, minor)), None)


def installed(python: str, where: Path, extra: str) -> Path:
    """A fresh virtual environment under `where` with this checkout installed by a plain
    `pip install .` (with `extra`, e.g. "[test]"); its bin folder. pip builds in the source
    folder (build/, *.egg-info), so it builds a copy: two Pythons never build in one folder."""
    source = where / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*NOT_SOURCE))
    venv = where / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_dir = venv / ("Scripts" if (venv / "Scripts").is_dir() else "bin")
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    run = subprocess.run(
        [*pip, f"{source}{extra}"], capture_output=True, text=True, timeout=900, cwd=where
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return bin_dir


def run_from_root(*command: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=ROOT)


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("minor", SUPPORTED)
def test_a_plain_install_plays_from_the_checkouts_root(minor: str, tmp_path: Path) -> None:
    python = find_python(minor)
    if python is None:
        pytest.skip(f"no Python {minor} on this machine (PATH or pyenv)")
    bin_dir = installed(python, tmp_path, "" if minor == RUNNING else "[test]")
    found = subprocess.run(
        [str(bin_dir / "python"), "-c", "import fairdeal.p2p as p; print(p.__file__)"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert found.returncode == 0, found.stderr
    assert Path(found.stdout.strip()).is_relative_to(tmp_path / "venv"), "not installed"
    for game in ("larry", "lie"):
        out = tmp_path / game
        command = ("simulate", game, "--seats", "3", "--short", "--timeout", "240")
        played = run_from_root(str(bin_dir / "fairdeal"), *command, "--out", str(out))
        assert played.returncode == 0, played.stderr[-3000:]
        summary = json.loads(played.stdout)
        assert summary["result"] == "finished" and summary["agree"], summary
        audited = run_from_root(str(bin_dir / "fairdeal"), "audit", *summary["transcripts"])
        assert audited.returncode == 0, audited.stdout + audited.stderr
        lines = audited.stdout.strip().splitlines()
        assert len(lines) == 3 and all(": verified:" in line for line in lines), lines
    if minor == RUNNING:
        return  # the whole suite runs on this one
    # The fast part of the suite, against the installed package: from a folder that holds the
    # tests and the pytest settings but no `fairdeal/` folder to import instead.
    suite = tmp_path / "suite"
    suite.mkdir()
    source = tmp_path / "source"  # the copy that was installed
    (suite / "tests").symlink_to(source / "tests", target_is_directory=True)
    shutil.copy(source / "pyproject.toml", suite / "pyproject.toml")
    pytest_command = [str(bin_dir / "python"), "-m", "pytest", "-q", "-n", "0"]
    tested = subprocess.run(
        [*pytest_command, "-p", "no:cacheprovider", *FAST_PART, *NOT_HERE],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=suite,
        # not this run's pytest-xdist worker: the inner run is a session of its own
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},
    )
    assert tested.returncode == 0, tested.stdout[-5000:] + tested.stderr[-2000:]
    assert re.search(r"\b\d{3,} passed\b", tested.stdout), tested.stdout[-2000:]  # not skipped
