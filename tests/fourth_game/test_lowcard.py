"""A fourth game built from docs/architecture.md (Adding a game) alone, in tests/ and installed
from outside fairdeal (tests/fourth_game/site/): its rules, its table part and its presenter fit
the contracts the type checker proves, it plays under the oracle and networked between bot peers
as OS processes over loopback, every transcript audits as verified, and the commands refuse
what it does not bring (an app record) with one line. Nothing in fairdeal names it."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fairdeal.engine.games import get_game
from fairdeal.engine.selfplay import make_bots, play_game
from fairdeal.p2p.table.core.games import missing_part, own_names, table_class
from fairdeal.p2p.table.core.part import CONCURRENT
from fairdeal.p2p.table.core.presenter import presenter_for
from fairdeal.p2p.table.tools.audit import AuditReport, audit_many
from fairdeal.p2p.table.tools.simulate import Simulation
from fairdeal.ui.cli import main
from fairdeal.ui.commands.layers import Layer
from tests.test_types import run_mypy
from tests.third_game.plugin import installed

SITE = Path(__file__).resolve().parent / "site"
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Played:
    summary: dict[str, Any]
    files: list[Path]
    reports: list[AuditReport]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    directory = tmp_path_factory.mktemp("lowcard")
    with installed(SITE, "lowcard"):
        options = get_game("lowcard").options_from_data({"cards": 8})
        simulation = Simulation(3, directory / "sim", options=options, bot="heuristic", seed=3)
        summary = asyncio.run(simulation.run())
        files = [Path(p) for p in summary["transcripts"]]
        reports, disagreement = audit_many(files)
        assert disagreement is None
        yield Played(summary, files, reports)


@pytest.fixture
def lowcard() -> Iterator[Path]:
    with installed(SITE, "lowcard") as site:
        yield site


def test_it_plays_under_the_oracle_and_the_lowest_card_shown_wins(lowcard: Path) -> None:
    game = get_game("lowcard")
    bots = make_bots("heuristic", 3, random.Random(1), "lowcard")
    result = play_game(bots, game.default_options(), seed=5, game=game)
    assert len(result.winners) == 1 and result.hands == 1 and result.actions == 3


@pytest.mark.slow
def test_three_peers_play_it_over_loopback_and_every_transcript_audits(played: Played) -> None:
    summary = played.summary
    assert summary["result"] == "finished", summary["fault"]
    assert summary["agree"]
    (winner,) = summary["winners"]
    assert summary["scores"] == [int(seat == winner) for seat in range(3)]
    for report in played.reports:
        assert report.verified, str(report.fault)
        assert report.over and list(report.winners) == [winner]
        assert report.round_name == "deal" and report.hands == 1  # its presenter's words
        # roster; 3 joins, 3 keys, 3 shuffles; the deals' shares of 3 seats; 3 shows, 3 shares
        assert report.entries == 19


def test_its_table_writes_the_part_every_game_writes_and_nothing_concurrent(
    lowcard: Path,
) -> None:
    table = table_class("lowcard")
    assert missing_part(table) == []
    assert own_names(table) & CONCURRENT == set()
    assert presenter_for("lowcard").round_name == "deal"


def test_the_commands_take_its_rules_and_refuse_what_it_does_not_bring(
    lowcard: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["selfplay", "lowcard", "--players", "3", "--games", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["deals"] == 2  # one deal a game, called what its presenter calls it
    with pytest.raises(SystemExit) as refused:
        main(["simulate", "lowcard", "--peers", "3", "--short", "--out", str(tmp_path)])
    assert refused.value.code == f"fairdeal simulate: lowcard lacks {Layer.SCREENS.value}"


def test_it_type_checks_strictly_against_the_contracts(tmp_path: Path) -> None:
    run = run_mypy(
        tmp_path, "--strict", "--follow-imports=silent", package="lowcard", search=(SITE,)
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_nothing_in_fairdeal_names_it() -> None:
    for layer in ("engine", "p2p", "ui", "fairdeal"):
        for path in (ROOT / layer).rglob("*.py"):
            assert "lowcard" not in path.read_text().lower(), path
    assert "lowcard" not in (ROOT / "pyproject.toml").read_text()
