"""`simulate` and `selfplay` refuse a game that lacks a layer they need, with one line naming
it, before anything starts (ui/commands/layers.py): a game registered with its rules alone is
offered by the command line, so the command says what is missing instead of a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import fairdeal.p2p.table.core.games as tables_module
import fairdeal.p2p.table.tools.simulate as simulate_module
import fairdeal.ui.screen_game as screens_module
from fairdeal.engine.registry import Registry
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.ui.cli import main
from fairdeal.ui.commands.layers import Layer, missing


def refusal(argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    message = exit_info.value.code
    assert isinstance(message, str), message
    return message


@pytest.fixture
def simulated(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """No simulation may start: record one instead."""
    started: list[Any] = []
    monkeypatch.setattr(simulate_module, "simulate", lambda *a, **k: started.append(a) or {})
    return started


def test_simulate_refuses_a_game_without_a_table_part(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, simulated: list[Any]
) -> None:
    monkeypatch.setattr(tables_module, "TABLES", Registry("fairdeal.no-such-group", type))
    message = refusal(["simulate", "larry", "--peers", "3", "--out", str(tmp_path)])
    assert message == f"fairdeal simulate: larry lacks {Layer.TABLE.value}"
    assert "\n" not in message and simulated == []


def test_simulate_refuses_a_table_part_that_leaves_out_what_every_game_writes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Unfinished(TableDriver):
        game_name = "larry"
        join_kind = "larry.join"
        act_kind = "larry.act"

    monkeypatch.setattr(tables_module, "table_class", lambda game: Unfinished)
    assert missing("larry", [Layer.TABLE]) == [
        "a whole table part (it lacks lobby_options, publish_action)"
    ]


def test_a_short_game_needs_the_app_record_but_self_play_of_the_rules_does_not(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(screens_module, "SCREENS", Registry("fairdeal.no-such-group", type))
    message = refusal(["selfplay", "larry", "--players", "3", "--games", "1", "--short"])
    assert message == f"fairdeal selfplay: larry lacks {Layer.SCREENS.value}"
    message = refusal(["simulate", "larry", "--peers", "3", "--short", "--out", str(tmp_path)])
    assert message == f"fairdeal simulate: larry lacks {Layer.SCREENS.value}"
    capsys.readouterr()
    assert main(["selfplay", "larry", "--players", "3", "--games", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["hands"] >= 1  # what a round is called comes from the presenter
