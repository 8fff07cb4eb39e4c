"""docs/architecture.md points only at files that exist: its links, and every path it writes in
backquotes (`engine/<game>/rules.py` for every registered built-in game; the third game's
`highcard/...` inside tests/third_game/site/)."""

from __future__ import annotations

import re
from pathlib import Path

from fairdeal.engine.games import game_names

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
TOP = ("engine/", "p2p/", "ui/", "tests/", "docs/", "fairdeal/", "bench/")
THIRD_GAME_SITE = ROOT / "tests" / "third_game" / "site"


def referenced(text: str) -> list[str]:
    """The paths the page names: its relative links (from docs/) and the backquoted paths."""
    links = [
        str(Path("docs") / target)
        for target in re.findall(r"\]\(([^)#\s]+)\)", text)
        if "://" not in target
    ]
    quoted = re.findall(r"`([^`\s]+)`", text)
    return links + [q for q in quoted if q.startswith((*TOP, "highcard/", "highcard-"))]


def missing(paths: list[str], games: tuple[str, ...]) -> list[str]:
    absent = []
    for path in paths:
        expanded = [path.replace("<game>", game) for game in games] if "<game>" in path else [path]
        for each in expanded:
            base = THIRD_GAME_SITE if each.startswith(("highcard/", "highcard-")) else ROOT
            if not (base / each).resolve().exists():
                absent.append(each)
    return absent


def test_every_file_the_architecture_page_names_exists() -> None:
    paths = referenced(DOC.read_text())
    assert len(paths) > 40  # the page is read, not skipped
    assert missing(paths, game_names()) == []


def test_a_path_that_does_not_exist_is_reported() -> None:
    paths = referenced("see [the map](maps/nowhere.md) and `engine/<game>/nowhere.py`")
    assert missing(paths, ("larry",)) == ["docs/maps/nowhere.md", "engine/larry/nowhere.py"]
