"""Loading a script of bench/ as a module, for tests of its bookkeeping."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def load_bench(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], ModuleType]:
    """`load_bench("game")` executes bench/game.py as a fresh module (undone after the test)."""
    monkeypatch.syspath_prepend(str(BENCH))  # the benches import bench/calibration.py

    def load(name: str) -> ModuleType:
        # bench/calibration.py under its own name, so that a bench loaded after it imports it
        module_name = name if name == "calibration" else f"bench_{name}"
        spec = importlib.util.spec_from_file_location(module_name, BENCH / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, module_name, module)  # dataclasses look it up
        spec.loader.exec_module(module)
        return module

    return load
