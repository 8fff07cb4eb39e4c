"""`fairdeal report` of a game installed from outside fairdeal with no app part (no
`fairdeal.screens` entry point): the page still says the verdict, the table and the scores, and
says that nothing can tell its moves."""

from __future__ import annotations

from pathlib import Path

from fairdeal.engine.games import get_game
from fairdeal.ui.cli import main
from tests.game.support import play_a_game
from tests.third_game.plugin import installed


def test_a_game_without_an_app_part_gets_a_page(tmp_path: Path) -> None:
    with installed():
        options = get_game("highcard").options_from_data({"ranks": 3, "suits": 2})
        play_a_game(3, tmp_path, options, seed=2)
        transcript = tmp_path / "seat0" / "table.transcript"
        assert main(["report", str(transcript)]) == 0
    page = transcript.with_suffix(".html").read_text(encoding="utf-8")
    assert "✓ VERIFIED" in page and "High card" in page and "<svg" in page
    assert "has no app part installed to tell its moves" in page
