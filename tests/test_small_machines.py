"""The table core as small machines (DESIGN.md, "Small machines"), checked on the source: no
import cycle in engine/, p2p/ or ui/ (imports under TYPE_CHECKING and inside functions count), no
object reaching into another object's private attributes, no part handed a pointer back to its
owner in p2p/table/ and p2p/games/, and p2p/table's layers (core, runtime, tools) importing
downwards only."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = {"engine": "fairdeal.engine", "p2p": "fairdeal.p2p", "ui": "fairdeal.ui"}
# Modules named like a private attribute's owner but meaning a library, not an object of ours.
LIBRARIES = {"os", "sys", "asyncio", "msgpack", "typing", "collections", "functools", "struct"}
TABLE_LAYERS = ("core", "runtime", "tools")


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder, package in LAYERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = [p for p in path.relative_to(ROOT / folder).with_suffix("").parts]
            found[".".join([package, *(p for p in parts if p != "__init__")])] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """Every module of ours `name` imports, wherever the import stands."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                target = next((c for c in (f"{base}.{alias.name}", base) if c in known), None)
                if target:
                    yield target
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in known)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif step not in index:
                index[step] = low[step] = len(index)
                stack.append(step)
                on_stack.add(step)
                work.append((step, iter(sorted(graph[step]))))
            elif step in on_stack:
                low[node] = min(low[node], index[step])
    return found


def test_no_module_imports_itself_round_a_circle() -> None:
    known = modules()
    graph = {name: set(imported(name, path, known)) - {name} for name, path in known.items()}
    assert cycles(graph) == []


def test_no_object_reaches_into_another_objects_private_attributes() -> None:
    reaches = []
    for path in modules().values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute):
                continue
            private = node.attr.startswith("_") and not node.attr.startswith("__")
            owner = node.value
            own = isinstance(owner, ast.Name) and owner.id in {"self", "cls", *LIBRARIES}
            if private and not own:
                reaches.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert reaches == []


def test_no_part_is_handed_its_owner() -> None:
    """A part built with `self` (or a function given the whole object) keeps a route back into
    its owner; a small machine takes inputs and returns outputs instead."""
    handed = []
    for folder in ("p2p/table", "p2p/games"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call):
                    arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
                    if any(isinstance(a, ast.Name) and a.id == "self" for a in arguments):
                        handed.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert handed == []


def test_the_table_layers_import_downwards_only() -> None:
    upwards = []
    for name, path in modules().items():
        parts = name.split(".")
        if parts[:3] != ["fairdeal", "p2p", "table"] or len(parts) < 5:
            continue
        rank = TABLE_LAYERS.index(parts[3])
        for target in imported(name, path, modules()):
            target_parts = target.split(".")
            if target_parts[:3] == ["fairdeal", "p2p", "table"] and len(target_parts) > 3:
                layer = target_parts[3]
                if layer in TABLE_LAYERS and TABLE_LAYERS.index(layer) > rank:
                    upwards.append(f"{name} -> {target}")
    assert upwards == []
