"""High card installed from outside fairdeal, the way a game's own distribution would be.

tests/third_game/site/ is a site directory holding the `highcard` package and its
highcard-0.dist-info (METADATA, entry_points.txt). Putting the directory on sys.path makes
importlib.metadata find the distribution, so the registries (fairdeal.engine.registry) list
its entry points after a refresh; nothing in fairdeal is edited or told about the game.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fairdeal.engine.registry import Registry

SITE = Path(__file__).resolve().parent / "site"
NAME = "highcard"


def _refresh() -> None:
    """Every registry fairdeal has loaded looks for entry points again (the engine's games, the
    tables, and whichever other layer keeps one), so none keeps a stale list."""
    import fairdeal.engine.games
    import fairdeal.p2p.table.core.games  # noqa: F401 - its registry is refreshed with the others

    for name, module in list(sys.modules.items()):
        if name.startswith("fairdeal."):
            for value in list(vars(module).values()):
                if isinstance(value, Registry):
                    value.refresh()


@contextmanager
def installed(site: Path = SITE, name: str = NAME) -> Iterator[Path]:
    """A game's site directory (high card's unless told) on sys.path and in the registries, and
    on PYTHONPATH for the processes this one starts (the peers of p2p/table/tools/simulate.py);
    all of it gone afterwards, so that other tests in the same process see only the built-in
    games. `name`: the game's top-level package, unloaded afterwards."""
    inherited = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(site), inherited]) if inherited else str(site)
    sys.path.insert(0, str(site))
    _refresh()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        if inherited is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = inherited
        for module in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
            del sys.modules[module]
        _refresh()
