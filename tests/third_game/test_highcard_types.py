"""The third game type-checks strictly (mypy --strict) against fairdeal as installed: a plugin
needs no cast and no `Any` of its own to fit the registries' records and the table driver."""

from __future__ import annotations

from pathlib import Path

from tests.test_types import run_mypy
from tests.third_game.plugin import SITE


def test_mypy_strict_finds_no_error_in_the_third_game(tmp_path: Path) -> None:
    run = run_mypy(
        tmp_path,
        "--strict",
        "--follow-imports=silent",  # fairdeal's own errors are tests/test_types.py's
        package="highcard",
        search=(SITE,),
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_record_wired_from_another_games_view_is_refused(tmp_path: Path) -> None:
    # The record's types are inferred from its modules (engine/game_package.py): a view module
    # that reads Larry's state cannot make a record with high card's rules.
    plugin = tmp_path / "plugin"
    (plugin / "mixed").mkdir(parents=True)
    (plugin / "mixed" / "__init__.py").write_text(
        "from fairdeal.engine.game_package import GameModules\n"
        "from fairdeal.engine.larry import view as larry_view\n"
        "from highcard import cards, codec, rules, view\n"
        "\n"
        "MIXED = GameModules(rules, view, larry_view, cards, view, codec)\n"
    )
    run = run_mypy(
        tmp_path, "--strict", "--follow-imports=silent", package="mixed", search=(SITE, plugin)
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert 'Cannot infer value of type parameter "StateT" of "GameModules"' in run.stdout
