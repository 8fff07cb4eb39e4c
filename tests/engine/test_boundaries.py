"""engine/ stays pure: it imports nothing from p2p/ or ui/, no asyncio, no crypto, no I/O."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
FORBIDDEN = (
    "p2p",
    "ui",
    "asyncio",
    "cryptography",
    "nacl",
    "hashlib",
    "hmac",
    "secrets",
    "ssl",
    "socket",
    "zeroconf",
    "textual",
    "msgpack",
)


def _root(module: str) -> str:
    """The package a module belongs to, seen through the one installed package `fairdeal`."""
    parts = module.split(".")
    return parts[1] if parts[0] == "fairdeal" and len(parts) > 1 else parts[0]


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_engine_sources_import_nothing_forbidden() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 10
    for path in files:
        for name in _imports(path):
            assert _root(name) not in FORBIDDEN, f"{path.relative_to(ROOT)} imports {name}"


def test_importing_the_engine_loads_no_forbidden_module() -> None:
    code = (
        "import sys, fairdeal.engine, fairdeal.engine.larry.bots.heuristic,"
        " fairdeal.engine.larry.bots.random_bot, fairdeal.engine.larry.codec,"
        " fairdeal.engine.lie, fairdeal.engine.lie.bots.heuristic, fairdeal.engine.lie.codec,"
        " fairdeal.engine.lie.bots.random_bot, fairdeal.engine.lie.scenario,"
        " fairdeal.engine.games, fairdeal.engine.scenario, fairdeal.engine.selfplay\n"
        "root = lambda m: m.split('.')[1] if m.startswith('fairdeal.') else m.split('.')[0]\n"
        f"bad = [m for m in sys.modules if root(m) in {FORBIDDEN!r}]\n"
        "print(','.join(sorted(bad)))\n"
    )
    result = subprocess.run(
        # -P: not the checkout's `fairdeal/` (the version alone) before an installed package
        [sys.executable, "-P", "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert result.stdout.strip() == ""
