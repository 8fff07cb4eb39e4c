"""The test command: the README's second command is what .ci/run runs, and pytest-xdist keeps
the tests that share a module-scoped fixture in one worker (tests/conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import SERIAL_GROUPS, SHARED_FIXTURE_FILES

ROOT = Path(__file__).resolve().parents[1]


def readme_test_command() -> str:
    blocks = re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(), re.DOTALL)
    assert len(blocks) >= 2, "the README opens with two commands"
    return blocks[1].strip()


def test_ci_runs_the_readmes_second_command_verbatim() -> None:
    command = readme_test_command()
    assert "pytest" in command
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert lines[-1].strip() == command


def test_every_file_with_a_module_scoped_fixture_keeps_its_tests_in_one_worker() -> None:
    scoped = re.compile(r"fixture\([^)]*scope=\"(module|package|session)\"")
    files = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("test_*.py")
        if scoped.search(path.read_text())
    }
    assert files, "no module-scoped fixture found: the pattern is stale"
    assert files == set(SHARED_FIXTURE_FILES)


def test_the_serial_groups_name_files_that_exist() -> None:
    paths = [*SHARED_FIXTURE_FILES, *(p for group in SERIAL_GROUPS.values() for p in group)]
    assert [p for p in paths if not (ROOT / p).is_file()] == []
