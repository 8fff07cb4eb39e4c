"""Every registered game's table is a per-game table part (p2p/table/core/part.py): it overrides
only the driver's public hooks and touches none of its private names."""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

import pytest

from fairdeal.engine.games import game_names
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.games import missing_part, own_names, table_class
from fairdeal.p2p.table.core.part import CONCURRENT, HOOKS


def private_names_of_driver() -> set[str]:
    """The driver's private methods and attributes (`_x`, not dunders)."""
    names = {n for n in vars(TableDriver) if n.startswith("_") and not n.startswith("__")}
    tree = ast.parse(inspect.getsource(TableDriver))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and node.attr.startswith("_")
        ):
            names.add(node.attr)
    return names


def trespasses(table: type[Any]) -> list[str]:
    """What a game's table does that it may not: override a driver method that is not a hook,
    or use one of the driver's private names."""
    found = []
    private = private_names_of_driver()
    for klass in table.__mro__:
        if klass is TableDriver or not issubclass(klass, TableDriver):
            continue
        for name in vars(klass):
            if name.startswith("__"):
                continue
            if name in vars(TableDriver) and name not in HOOKS:
                found.append(f"{klass.__name__} overrides {name}")
        tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        used = {
            node.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls", "super")
        }
        used |= {
            node.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "super"
        }
        found += [f"{klass.__name__} uses {name}" for name in sorted(used & private)]
    return found


def private_imports(table: type[Any]) -> list[str]:
    module = inspect.getmodule(table)
    assert module is not None
    tree = ast.parse(inspect.getsource(module))
    return [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("fairdeal")
        for alias in node.names
        if alias.name.startswith("_")
    ]


@pytest.mark.parametrize("game", game_names())
def test_a_games_table_overrides_only_hooks_and_uses_no_private_name(game: str) -> None:
    table = table_class(game)
    assert trespasses(table) == []
    assert private_imports(table) == []
    missing = [hook for hook in HOOKS if not hasattr(table, hook)]
    assert missing == []


def test_a_table_that_overrides_a_private_method_or_reads_private_state_is_caught() -> None:
    class Trespasser(TableDriver):
        def _begin(self, state: Any) -> None:
            self._slot.clear()

        def on_step_event(self, event: Any) -> None:  # a hook: allowed
            super().take_step(event)

    assert trespasses(Trespasser) == ["Trespasser overrides _begin", "Trespasser uses _slot"]


def concurrency_trespasses(table: type[TableDriver]) -> list[str]:
    """A concurrent-phase hook overridden by a table that never lets seats act at once."""
    own = own_names(table) & CONCURRENT
    return [] if not own or "simultaneous" in own else sorted(own)


@pytest.mark.parametrize("game", game_names())
def test_a_games_table_writes_its_part_and_only_a_concurrent_game_the_concurrent_hooks(
    game: str,
) -> None:
    table = table_class(game)
    assert missing_part(table) == []
    assert concurrency_trespasses(table) == []


def test_a_table_missing_its_part_or_half_concurrent_is_caught() -> None:
    class Unfinished(TableDriver):
        game_name = "unfinished"
        join_kind = "unfinished.join"
        act_kind = "unfinished.act"

        def pace(self, held: Any) -> None:  # a concurrent hook, yet never simultaneous
            pass

    assert missing_part(Unfinished) == ["lobby_options", "publish_action"]
    assert concurrency_trespasses(Unfinished) == ["pace"]
