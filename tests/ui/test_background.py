"""No failed background work takes the app down (ui/background.py): every worker of ui/ runs
through `reported`, and a failure is shown while the app goes on."""

from __future__ import annotations

import ast
from pathlib import Path

from fairdeal.p2p.table.runtime.local import LocalTable

from .support import make_app

UI = Path(__file__).resolve().parents[2] / "ui"
# `fairdeal watch` is its own app: a failure there ends it, as the watching it is would.
OWN_APPS = {"watch_app.py"}


def unreported_workers(source: str) -> list[str]:
    """The workers `source` starts without `reported`/`reporting`: a Textual `@work` method not
    also decorated `@reported(...)`, a `run_worker(...)` of anything but `reporting(...)`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names = [_name(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list]
            if "work" in names and "reported" not in names:
                found.append(f"line {node.lineno}: @work {node.name} is not @reported")
        elif isinstance(node, ast.Call) and _name(node.func) == "run_worker":
            work = node.args[0] if node.args else None
            if not (isinstance(work, ast.Call) and _name(work.func) == "reporting"):
                found.append(f"line {node.lineno}: run_worker without reporting(...)")
    return found


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def test_every_worker_of_the_app_is_reported() -> None:
    problems = [
        f"{path.relative_to(UI)} {problem}"
        for path in sorted(UI.rglob("*.py"))
        if path.name not in OWN_APPS
        for problem in unreported_workers(path.read_text())
    ]
    assert problems == []


def test_the_scan_finds_an_unreported_worker() -> None:
    bare = "@work(group='x')\nasync def follow(self): ...\n"
    guarded = "@work(group='x')\n@reported('Following')\nasync def follow(self): ...\n"
    assert unreported_workers(bare) == ["line 2: @work follow is not @reported"]
    assert unreported_workers(guarded) == []
    assert unreported_workers("app.run_worker(watch(app))") == [
        "line 1: run_worker without reporting(...)"
    ]
    assert unreported_workers("app.run_worker(reporting('Watching', app, watch(app)))") == []


class StartFails(LocalTable):
    """A table whose setup fails with a bug (not a refusal the screen expects)."""

    async def start(self) -> None:
        raise RuntimeError("a bug in the setup")


async def test_a_failed_table_worker_is_shown_and_the_app_goes_on() -> None:
    app = make_app(StartFails(3, seed=1, human_name="Tess"))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            if app.failures:
                break
            await pilot.pause()
        assert [str(error) for error in app.failures] == ["a bug in the setup"]
        assert app.is_running
        await pilot.press("question_mark")  # the app still answers keys
        await pilot.pause()
        assert app.is_running
