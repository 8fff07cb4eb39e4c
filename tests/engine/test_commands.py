"""The play, selfplay and scenario commands, driven as a user would (piped input, exit codes)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fairdeal.ui.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios" / "larry"


def test_play_runs_a_whole_short_game_from_piped_input() -> None:
    # Empty lines take every default: the first menu entry, the honest total, the Larry call.
    result = subprocess.run(
        # -P: not the checkout's `fairdeal/` (the version alone) before an installed package
        [
            sys.executable,
            "-P",
            "-m",
            "fairdeal",
            "play",
            "--seed",
            "4",
            "--short",
            "--players",
            "3",
        ],
        input="\n" * 5000,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Your hand:" in out
    assert "Limit 7 (clockwise). Announced total: 0." in out
    assert "Cards held: Ada (bot): 9, Ben (bot): 9" in out
    assert "Game over. Winner:" in out


def test_play_with_numbered_choices_and_a_bad_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["x", "99", "2", "-5"])

    def read(prompt: str) -> str | None:
        return next(answers, None)

    import random

    from fairdeal.engine.oracle import OracleDriver
    from fairdeal.engine.selfplay import make_bots
    from fairdeal.ui.games.larry.plain import TextGame

    out: list[str] = []
    driver = OracleDriver(3, seed=1)
    game = TextGame(driver, 0, make_bots("random", 3, random.Random(1)), read, out.append)
    assert game.play() == 1  # the answers run out: the game is abandoned, not crashed
    text = "\n".join(out)
    assert text.count("Please type one of the numbers shown.") == 2
    assert "Player played a card face-down and said -5." in text
    assert "Input ended" in text


def selfplay_figures(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    """`fairdeal selfplay ARGS --json`, which must succeed: the figures it prints."""
    assert main(["selfplay", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_selfplay_json(capsys: pytest.CaptureFixture[str]) -> None:
    figures = selfplay_figures(
        capsys,
        "larry",
        "--players",
        "3",
        "--games",
        "5",
        "--seed",
        "2",
        "--bots",
        "heuristic,random",
    )
    assert figures["games"] == 5 and figures["players"] == 3
    assert figures["bots"] == ["heuristic", "random", "random"]
    assert sum(figures["wins"]) == pytest.approx(5)
    assert figures["hands"] == 15  # three hands a game (L18)
    assert figures["mean_actions_per_hand"] > 0
    assert figures["hands_per_second"] > 0


def test_selfplay_is_deterministic_and_short_games_have_one_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["selfplay", "larry", "--players", "4", "--games", "4", "--seed", "9", "--short"]
    main([*args, "--json"])
    first = json.loads(capsys.readouterr().out)
    main([*args, "--json"])
    second = json.loads(capsys.readouterr().out)
    assert first["wins"] == second["wins"]
    assert first["hands"] == 4
    main(args)
    assert "seat 3 heuristic" in capsys.readouterr().out  # the one default of --bot-kind


def test_selfplay_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit, match="2"):  # refused by the parser, as in every command
        main(["selfplay", "larry", "--bots", "clever"])
    assert "unknown bot kind 'clever'" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="2-8 players"):
        main(["selfplay", "larry", "--players", "9"])


def test_scenario_command_pass_fail_and_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = SCENARIOS / "rulebook-example.json"
    assert main(["scenario", str(good)]) == 0
    assert capsys.readouterr().out.startswith("PASS")
    data = json.loads(good.read_text())
    data["expect"]["turn"] = 3
    failing = tmp_path / "failing.json"
    failing.write_text(json.dumps(data))
    assert main(["scenario", str(failing)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "turn expected 3, got 2" in out
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert main(["scenario", str(broken), str(good)]) == 2
    out = io.StringIO(capsys.readouterr().out).read()
    assert "ERROR" in out and "PASS" in out


def test_play_asks_which_card_to_give_away() -> None:
    import random

    from fairdeal.engine.larry.cards import deck_of
    from fairdeal.engine.larry.view import view_for
    from fairdeal.engine.oracle import OracleDriver
    from fairdeal.engine.selfplay import make_bots
    from fairdeal.ui.games.larry.plain import TextGame

    deck = deck_of(OracleDriver(3, seed=0).options)
    give_away = next(c.id for c in deck if c.name == "give_away_1")
    seven = next(c.id for c in deck if c.name == "7")
    rest = [c.id for c in deck if c.id not in (give_away, seven)]
    driver = OracleDriver(3, decks=[[give_away, seven, *rest]])
    out: list[str] = []
    game = TextGame(driver, 0, make_bots("random", 3, random.Random(0)), lambda _: None, out.append)
    view = view_for(driver.state, driver.knowledge[0], 0)
    entries = game._menu(view)
    number = next(
        i
        for i, entry in enumerate(entries, 1)
        if "[Give away 1] face-up at Ben (bot)" in entry.text
    )
    answers = iter([str(number), "1"])  # that entry, then the first card offered: the 7
    game.read = lambda _: next(answers, None)
    assert game.play() == 1  # the scripted answers run out later
    text = "\n".join(out)
    assert "[1] give 7" in text
    assert "Player played a 'give away 1' face-up against Ben (bot)." in text
    # the giver knows the card it gave (L11): the 7, not "a card"
    assert "Player gave a 7 to Ben (bot) (L11)." in text


def test_selfplay_lie_json_heuristic_against_random(capsys: pytest.CaptureFixture[str]) -> None:
    figures = selfplay_figures(
        capsys,
        "lie",
        "--players",
        "4",
        "--games",
        "20",
        "--seed",
        "3",
        "--bots",
        "heuristic,random",
    )
    assert figures["game"] == "lie" and figures["rounds"] == 60  # three rounds a game (T9)
    assert figures["bots"] == ["heuristic", "random", "random", "random"]
    assert sum(figures["wins"]) == pytest.approx(20)
    assert figures["wins"][0] > 5  # the heuristic seat wins well above its 1/4 share
    main(["selfplay", "lie", "--players", "2", "--games", "2", "--seed", "3"])
    assert "The Lie, 2 players, 2 games (6 rounds)" in capsys.readouterr().out


def test_selfplay_lie_rejects_bad_arguments() -> None:
    with pytest.raises(SystemExit, match="2-6 players"):
        main(["selfplay", "lie", "--players", "7"])
    with pytest.raises(SystemExit, match="--short is a Larry option"):
        main(["selfplay", "lie", "--short"])


def test_scenario_command_runs_lie_files(capsys: pytest.CaptureFixture[str]) -> None:
    lie = ROOT / "tests" / "scenarios" / "lie"
    assert main(["scenario", str(lie / "rulebook-trick-example.json"), "-v"]) == 0
    out = capsys.readouterr().out
    assert "PASS" in out and "'type': 'TrickWon', 'seat': 3, 'number': 214" in out


def test_plain_prompts_refuse_an_absurd_announcement_and_go_on() -> None:
    """In the plain prompts: the same check as the app (engine.legal.check_action)
    refuses the number with its ruling; the game goes on and nothing is played."""
    import random

    from fairdeal.engine.oracle import OracleDriver
    from fairdeal.engine.selfplay import make_bots
    from fairdeal.ui.games.larry.plain import TextGame

    answers = iter(["2", "-99999999999999999999", "2", "-99"])
    out: list[str] = []
    driver = OracleDriver(3, seed=1)
    bots = make_bots("random", 3, random.Random(1))
    game = TextGame(driver, 0, bots, lambda _: next(answers, None), out.append)
    assert game.play() == 1  # the answers run out later
    text = "\n".join(out)
    assert (
        "Not allowed: announced -99999999999999999999: an announcement is at least -99 (L6)" in text
    )
    assert "Player played a card face-down and said -99." in text


def test_plain_offers_two_cards_of_a_kind_once() -> None:
    """Two 'pick up 2' cards make the same move, and two 7s the same gift: one menu line each,
    as the app's one card per kind (the plain menu listed each twice)."""
    import random

    from fairdeal.engine.larry.view import view_for
    from fairdeal.engine.selfplay import make_bots
    from fairdeal.ui.games.larry.plain import TextGame
    from tests.engine.larry_deals import driver_with_hands

    hands = [["pick_up_2", "pick_up_2", "give_away_1", "7", "7"]]
    driver = driver_with_hands(hands, players=3)
    out: list[str] = []
    game = TextGame(driver, 0, make_bots("random", 3, random.Random(0)), lambda _: None, out.append)
    texts = [entry.text for entry in game._menu(view_for(driver.state, driver.knowledge[0], 0))]
    assert len(texts) == len(set(texts)), texts
    assert texts.count("play [Pick up 2] face-up at Ada (bot)") == 1
    gift = next(i for i, t in enumerate(texts, 1) if t.startswith("play [Give away 1] face-up"))
    answers = iter([str(gift), "1"])
    game.read = lambda _: next(answers, None)
    game.play()
    offered = [line for line in out if line.strip().startswith("[") and " give " in line]
    assert sum("give 7" in line for line in offered) == 1, offered
