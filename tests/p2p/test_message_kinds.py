"""One list of message kinds (p2p/net/kinds.py): every channel message's `t` and every envelope's
`kind`, with what a relay and a restart do with it. The modules use its names, never a kind
written as a string; every kind it lists is in protocol.md and every kind protocol.md's tables
list is in it; a game's choices (its `choice_kinds`, which a restart never signs again) come
from it, and a table whose kinds it lacks refuses to start."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairdeal.p2p.net import kinds
from fairdeal.p2p.net.kinds import (
    CHANNEL_KINDS,
    ENVELOPE_KINDS,
    Restart,
    check_listed,
    chosen_kinds,
    envelope_kind,
)
from fairdeal.p2p.table.core.games import TABLES, table_class
from tests.third_game.plugin import installed

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "p2p" / "net" / "kinds.py"
# The engine sends nothing (it is below p2p/): its words ("left") are not kinds.
SOURCES = ("p2p", "ui", "tests/third_game/site")
# Calls whose first argument is a message kind: mesh.on(kind, …), sync.publish(kind, …),
# Publish(kind, …).
KIND_CALLS = {"on", "publish", "Publish"}


@pytest.fixture(scope="module", autouse=True)
def every_game() -> Iterator[None]:
    """Every game's table loaded (the test-only third game too), so its kinds are listed."""
    with installed():
        for game in TABLES.names():
            table_class(game)
        yield


def kind_literals(tree: ast.AST) -> Iterator[tuple[int, str, bool]]:
    """(line, literal, certain) for each string written where a message kind goes: `certain`
    where only a kind can go (a message's "t", a handler's or a publication's kind); not
    certain when compared with something called `kind`, which other records have too, or kept
    as a constant or a map's value."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if _text(value) is not None:
                    yield node.lineno, str(_text(value)), _text(key) == "t"
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            texts = [_text(value) for value in values]
            yield from ((node.lineno, text, False) for text in texts if text is not None)
        elif isinstance(node, ast.Call) and node.args and _called(node) in KIND_CALLS:
            if _text(node.args[0]) is not None:
                yield node.lineno, str(_text(node.args[0])), True
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            texts = [_text(side) for side in sides if _text(side) is not None]
            if not texts:
                continue
            if any(_is_type_field(side) for side in sides):
                yield from ((node.lineno, str(text), True) for text in texts)
            elif any(_is_kind(side) for side in sides):
                yield from ((node.lineno, str(text), False) for text in texts)


def _text(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _called(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    if isinstance(call.func, ast.Name):
        return call.func.id
    return None


def _is_type_field(node: ast.AST) -> bool:
    """`message["t"]` or `message.get("t")`."""
    if isinstance(node, ast.Subscript):
        return _text(node.slice) == "t"
    return (
        isinstance(node, ast.Call)
        and _called(node) == "get"
        and bool(node.args)
        and _text(node.args[0]) == "t"
    )


def _is_kind(node: ast.AST) -> bool:
    """`kind` or `something.kind`."""
    return (isinstance(node, ast.Name) and node.id == "kind") or (
        isinstance(node, ast.Attribute) and node.attr == "kind"
    )


def written_kinds(source: str) -> list[str]:
    """What is wrong with the kinds `source` writes as strings, one line each."""
    listed = {*CHANNEL_KINDS, *ENVELOPE_KINDS}
    found = []
    for line, text, certain in kind_literals(ast.parse(source)):
        if text in listed:
            found.append(f"line {line}: {text!r} is listed: use its name in p2p/net/kinds.py")
        elif certain:
            found.append(f"line {line}: {text!r} is no kind p2p/net/kinds.py lists")
    return found


def test_no_module_writes_a_message_kind_as_a_string() -> None:
    problems = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == REGISTRY:
                continue
            problems += [f"{path.relative_to(ROOT)} {p}" for p in written_kinds(path.read_text())]
    assert problems == []


def test_the_scan_finds_a_kind_written_as_a_string() -> None:
    """The attack: a module that sends, handles, publishes or matches a kind as a string."""
    sent = 'mesh.send(key, {"t": "gossip"})'
    handled = 'mesh.on("need", handler)'
    published = 'outbox.append(Publish("deck", body))'
    matched = 'if message["t"] == "ping": pass'
    compared = 'if envelope.kind == "roster": pass'
    assert written_kinds(sent) == ["line 1: 'gossip' is no kind p2p/net/kinds.py lists"]
    for source in (handled, published, matched, compared):
        assert len(written_kinds(source)) == 1 and "is listed" in written_kinds(source)[0]
    # other records have kinds too (a transcript's "header"): compared with them, only a listed
    # kind counts
    assert written_kinds('if record.kind == "header": pass') == []
    assert len(written_kinds('WATCH, REFUSED = "watch", "watch-refused"')) == 2
    assert len(written_kinds('KINDS = {TakeSeat: "lobby-take"}')) == 1
    assert written_kinds("mesh.send(key, {'t': kinds.PING})") == []


def protocol_kinds() -> set[str]:
    """The kinds protocol.md's tables of channel messages (3.5) and envelope kinds (10.1,
    10.11.1) list, and every `{"t": "…"` it writes."""
    text = (ROOT / "protocol.md").read_text()
    found = set(re.findall(r'"t": "([a-z.-]+)"', text))
    for heading in ("### 3.5 Channel messages", "### 10.1 Envelope kinds", "#### 10.11.1"):
        table = text[text.index(heading) :].split("\n\n")[1]
        found |= set(re.findall(r"^\| `([a-z.-]+)` \|", table, re.MULTILINE))
    return found


def test_protocol_md_and_the_list_name_the_same_kinds() -> None:
    text = (ROOT / "protocol.md").read_text()
    shipped = _shipped_games()  # a test-only game's kinds are in no protocol.md
    listed = [*CHANNEL_KINDS] + [
        name for name, kind in ENVELOPE_KINDS.items() if kind.game is None or kind.game in shipped
    ]
    assert [name for name in listed if f"`{name}`" not in text and f'"{name}"' not in text] == []
    assert protocol_kinds() - {*CHANNEL_KINDS, *ENVELOPE_KINDS} == set()


def _shipped_games() -> set[str]:
    text = (ROOT / "pyproject.toml").read_text()
    block = text[text.index('[project.entry-points."fairdeal.tables"]') :].split("\n\n")[0]
    return set(re.findall(r"^(\w+) = ", block, re.MULTILINE))


def test_each_table_lists_its_kinds_and_chooses_its_actions() -> None:
    for game in TABLES.names():
        table = table_class(game)
        check_listed(game, (table.join_kind, table.act_kind))
        assert table.act_kind in chosen_kinds(game), game
        assert table.join_kind not in chosen_kinds(game), game
        assert all(ENVELOPE_KINDS[k].game == game for k in chosen_kinds(game)), game


def test_an_unlisted_kind_or_another_games_kind_is_refused() -> None:
    with pytest.raises(ValueError, match=r"'nogame\.act' of nogame is not listed"):
        check_listed("nogame", ["nogame.act"])
    some_game, other = sorted(TABLES.names())[:2]
    with pytest.raises(ValueError, match="is not listed"):
        check_listed(some_game, [table_class(other).act_kind])
    check_listed(some_game, [kinds.DECK, kinds.ROSTER])  # every game's


def test_a_kind_is_listed_once() -> None:
    listed = ENVELOPE_KINDS[kinds.DECK]
    assert envelope_kind(listed.name, section=listed.section) == kinds.DECK  # the same again
    with pytest.raises(ValueError, match="'deck' is listed twice"):
        envelope_kind(kinds.DECK, section=listed.section, restart=Restart.CHOSEN)


def test_what_each_kind_needs_is_said() -> None:
    assert {name for name, kind in CHANNEL_KINDS.items() if kind.relayed} == {
        kinds.ENV,
        kinds.LEFT,
        kinds.FWD,
    }  # protocol.md 4.4 step 6, 10.12, 10.8
    assert all(kind.restart and kind.section for kind in CHANNEL_KINDS.values())
    assert ENVELOPE_KINDS[kinds.DECK].restart is Restart.OWED
    assert ENVELOPE_KINDS[kinds.ROSTER].restart is Restart.OWED
