"""Nothing outside a game's own folders names a game (docs/architecture.md "Layers").

A game is one folder per layer: engine/<game>/, p2p/games/<game>/, ui/games/<game>/. Every other
module of engine/, p2p/, ui/ and fairdeal/ asks the registries (fairdeal.engine.registry) and
must not name any registered game in its code: not in an identifier (`LarryOptions`,
`lie_events`), not in a string literal (`"lie"`, `"fairdeal.engine.lie"`). Comments and
docstrings may talk about the games. The names come from the registries, with the test-only
third game installed (tests/third_game/plugin.py), so it is held to the rule as well.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairdeal.engine.games import game_names
from tests.third_game.plugin import installed

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("engine", "p2p", "ui", "fairdeal")
# Where each layer keeps a game's own folder: `{game}` is the game's name.
GAME_FOLDERS = ("engine/{game}", "p2p/games/{game}", "ui/games/{game}")

# The parts of an identifier or a word: "LarryOptions" -> Larry, Options; "lie_events" -> lie,
# events; "HTTPServer2" -> HTTP, Server, 2. Non-alphanumerics ("_", ".", " ") separate words.
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_WORD = re.compile(r"[A-Za-z0-9]+")


def parts(text: str) -> list[str]:
    """Every identifier part of `text`, lower-cased, in order."""
    return [part.lower() for word in _WORD.findall(text) for part in _PART.findall(word)]


def names_a_game(text: str, games: tuple[str, ...]) -> str | None:
    """The game `text` names as a word or an identifier part ("client" names no "lie")."""
    found = parts(text)
    for game in games:
        wanted = parts(game)
        width = len(wanted)
        if any(found[i : i + width] == wanted for i in range(len(found) - width + 1)):
            return game
    return None


Span = tuple[tuple[int, int], tuple[int, int]]  # (line, column) of the start and of the end


def _docstrings(source: str) -> list[Span]:
    """Where each string that is a statement of its own lies: docstrings, and the strings that
    document the attribute above them (implicitly joined pieces included). They are
    documentation, not code."""
    spans = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            and node.end_lineno is not None
            and node.end_col_offset is not None
        ):
            spans.append(((node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)))
    return spans


def _inside(token: tokenize.TokenInfo, spans: list[Span]) -> bool:
    return any(start <= token.start and token.end <= end for start, end in spans)


_STRING_TOKENS = {tokenize.STRING} | {
    getattr(tokenize, name) for name in ("FSTRING_MIDDLE",) if hasattr(tokenize, name)
}


def wire_constant(token: tokenize.TokenInfo, spec: str) -> bool:
    """A bytes literal that protocol.md spells out (a signature's domain such as
    "fairdeal/larry.forward/v1" || 0x00): the wire format keeps it as it is, whatever it says."""
    if token.type != tokenize.STRING or not token.string.lstrip("rR").lower().startswith("b"):
        return False
    value = ast.literal_eval(token.string).rstrip(b"\x00")
    return bool(value) and f'"{value.decode(errors="replace")}"' in spec


def offences(source: str, games: tuple[str, ...], spec: str = "") -> Iterator[tuple[int, str, str]]:
    """(line, token, game) for every NAME or string literal of `source`'s code naming a game;
    `spec` is protocol.md, whose wire constants are exempt."""
    skip = _docstrings(source)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME or (
            token.type in _STRING_TOKENS
            and not _inside(token, skip)
            and not wire_constant(token, spec)
        ):
            game = names_a_game(token.string, games)
            if game is not None:
                yield token.start[0], token.string, game


def _short(token: str) -> str:
    """A token as the report shows it: its first line, cut at 60 characters."""
    first = token.splitlines()[0]
    return first if len(first) <= 60 and first == token else first[:57] + "..."


def generic_modules(games: tuple[str, ...]) -> list[Path]:
    """Every .py module of the layers outside the games' own folders."""
    own = [ROOT / folder.format(game=game) for game in games for folder in GAME_FOLDERS]
    return sorted(
        path
        for layer in LAYERS
        for path in (ROOT / layer).rglob("*.py")
        if not any(path.is_relative_to(folder) for folder in own)
    )


def test_no_module_outside_a_games_folders_names_a_game() -> None:
    with installed():
        games = game_names()
    assert "highcard" in games and len(games) >= 3
    spec = (ROOT / "protocol.md").read_text()
    found = []
    by_file: Counter[str] = Counter()
    for path in generic_modules(games):
        module = str(path.relative_to(ROOT))
        for line, token, game in offences(path.read_text(), games, spec):
            found.append(f"{module}:{line}: {_short(token)} (names {game})")
            by_file[module] += 1
    summary = "\n".join(f"{n:4} {name}" for name, n in sorted(by_file.items()))
    if found:
        pytest.fail(
            f"{len(found)} tokens in {len(by_file)} modules outside the games' folders name a "
            "game (ask the registries instead: fairdeal.engine.games, "
            "fairdeal.p2p.table.core.games)"
            f":\n{summary}\n" + "\n".join(found),
            pytrace=False,
        )


@pytest.mark.parametrize(
    "text",
    ["LarryOptions", "lie_events", "fairdeal.engine.lie", "LIE_ACT", "The Lie", "_larry", "lie"],
)
def test_these_name_a_game(text: str) -> None:
    assert names_a_game(text, ("larry", "lie")) is not None


@pytest.mark.parametrize(
    "text",
    ["client", "earlier", "applied", "believe", "relies", "Clients", "replied_to", "lies"],
)
def test_these_do_not(text: str) -> None:
    assert names_a_game(text, ("larry", "lie")) is None


def test_a_game_named_in_two_parts_is_found_as_those_parts_in_a_row() -> None:
    assert names_a_game("HighCardTable", ("high_card",)) == "high_card"
    assert names_a_game("high_score_card", ("high_card",)) is None


def test_comments_and_docstrings_may_name_a_game_code_may_not() -> None:
    source = r'''"""Larry's module docstring."""
# a comment about the lie
class Table:
    """The Lie's docstring,""" " in two pieces: Larry's."

    kind = "larry.act"
    DOMAIN = b"fairdeal/larry.forward/v1\x00"
    OTHER = b"larry"
    """The attribute's own docstring: Larry's act."""

    def go(self, client):
        return LieState(client, f"{client} earlier")
'''
    spec = 'the domain "fairdeal/larry.forward/v1" || 0x00, and "larry.act"'
    assert [(line, token) for line, token, _ in offences(source, ("larry", "lie"), spec)] == [
        (6, '"larry.act"'),
        (8, 'b"larry"'),
        (12, "LieState"),
    ]
