"""One command line: `--bots` is a count in `play` and `host` alike and the kinds
are `--bot-kind`; the data directory is `--data-dir` everywhere; every number's help says its
unit; the game is documented; bad arguments are refused by the command line (exit 2, on stderr)
before any app or network starts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

import fairdeal.p2p.table.tools.session as table_session
import fairdeal.ui.commands.host as host
import fairdeal.ui.commands.play as play
from fairdeal.p2p.errors import P2PError
from fairdeal.ui.cli import COMMANDS, build_parser, main

UNITS = ("second", "2-8", "how many", "seed", "seat number")  # what a number's help must say


@pytest.fixture(autouse=True)
def no_app(monkeypatch: pytest.MonkeyPatch) -> list[argparse.Namespace]:
    """Nothing here may open an app: record what would have been run instead."""
    ran: list[argparse.Namespace] = []
    monkeypatch.setattr(play, "run_app", lambda args: ran.append(args) or 0)
    monkeypatch.setattr(play, "run_plain", lambda args: ran.append(args) or 0)
    monkeypatch.setattr(host, "run_app", lambda args, runner=None: ran.append(args) or 0)
    monkeypatch.setattr(table_session, "_settings", table_session.current_settings())
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    return ran


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2, argv
    return capsys.readouterr().err


def sub_parsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_bots_is_a_count_in_play_and_host_and_the_kinds_are_bot_kind(
    no_app: list[argparse.Namespace],
) -> None:
    assert main(["play", "--players", "4", "--bots", "3", "--bot-kind", "random"]) == 0
    assert main(["host", "larry", "--seats", "4", "--bots", "3", "--bot-kind", "random"]) == 0
    played, hosted = no_app
    assert (played.bots, played.bot_kind) == (3, "random")
    assert (hosted.bots, hosted.bot_kind) == (3, "random")
    assert main(["play", "--players", "3"]) == 0  # every other seat by default
    assert play.bot_seats(no_app[-1]) == 2


def test_a_kind_given_to_bots_says_where_kinds_go(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["play", "--bots", "heuristic"], ["host", "larry", "--seats", "3", "--bots", "x"]):
        err = refused(argv, capsys)
        assert "--bots" in err and "--bot-kind" in err


def test_the_data_directory_is_data_dir_everywhere_and_data_still_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parsers = sub_parsers()
    for name in ("play", "host", "bot", "resume"):
        options = {o for a in parsers[name]._actions for o in a.option_strings}
        assert "--data-dir" in options, name
        assert "--data DIR" not in parsers[name].format_help(), name  # the alias is unlisted
    args = build_parser().parse_args(["host", "larry", "--seats", "3", "--data", str(tmp_path)])
    assert args.data_dir == tmp_path
    args = build_parser().parse_args(["bot", "--peer", "h:1", "--data-dir", str(tmp_path)])
    assert args.data_dir == tmp_path


def test_every_number_says_its_unit_and_the_game_is_documented() -> None:
    for name, parser in sub_parsers().items():
        for action in parser._actions:
            takes_number = action.type in (int, float) or getattr(action.type, "__name__", "") in (
                "seats",
                "bot_count",
                "seconds",
                "positive_seconds",
            )
            if takes_number and action.help != argparse.SUPPRESS:
                assert any(unit in (action.help or "") for unit in UNITS), (name, action.dest)
            if action.dest == "game":
                assert action.help and "larry" in action.help, name
    assert set(sub_parsers()) == set(COMMANDS)


@pytest.mark.parametrize(
    ("argv", "culprit"),
    [
        (["play", "--players", "9"], "--players"),
        (["play", "--players", "3", "--bots", "5"], "--bots 5"),
        (["play", "--seat", "4", "--players", "3"], "--seat 4"),
        (["play", "--bot-delay", "-1"], "--bot-delay"),
        (["play", "--bot-delay", "nan"], "--bot-delay"),
        (["play", "--game", "poker"], "--game"),
        (["play", "--bind", "not-an-address"], "--bind"),
        (["play", "--bind", "192.0.2.250"], "not an address of this machine"),
        (["play", "--plain", "--players", "3", "--bots", "1"], "--plain"),
        (["play", "--bot-kind", "heuristic,random,random", "--players", "3"], "--bot-kind"),
        (["host", "poker", "--seats", "3"], "GAME"),
        (["host", "larry", "--seats", "3", "--bots", "3"], "--bots 3"),
        (["host", "larry", "--seats", "3", "--silence-limit", "0"], "--silence-limit"),
        (["host", "larry", "--seats", "3", "--timeout", "-5"], "--timeout"),
        (["bot", "--peer", "nowhere"], "--peer"),
        (["resume", "x.transcript", "--silence-limit", "-1"], "--silence-limit"),
        (["simulate", "larry", "--peers", "1", "--out", "x"], "--peers"),
    ],
)
def test_bad_arguments_are_refused_by_the_command_line(
    argv: list[str],
    culprit: str,
    no_app: list[argparse.Namespace],
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = refused(argv, capsys)
    assert culprit in err, err
    assert err.startswith("usage: fairdeal"), err
    assert not no_app  # nothing was started


def test_a_data_directory_that_cannot_be_used_is_a_cli_error(tmp_path: Path) -> None:
    from fairdeal.ui.launch import run_app
    from fairdeal.ui.table_factory import TableSpec

    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("x")
    # Raised before any screen; fairdeal.ui.cli.main words it for every command alike
    # (tests/ui/test_cli_errors.py checks the words).
    with pytest.raises((OSError, P2PError), match=str(not_a_directory)):
        run_app(TableSpec(), data_dir=not_a_directory, name=None, runner=lambda app: None)


@pytest.mark.parametrize("command", [["bot", "--peer", "127.0.0.1:1"], ["watch", "127.0.0.1:1"]])
def test_a_data_dir_naming_a_file_is_refused_by_name(
    command: list[str],
    tmp_path: Path,
    no_app: list[argparse.Namespace],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--data-dir` naming a file said only "File exists" once the command had started."""
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    for given in (a_file, a_file / "inside"):
        err = refused([*command, "--data-dir", str(given)], capsys)
        assert f"{a_file} is a file, not a directory" in err, err
        assert "File exists" not in err and err.startswith("usage: fairdeal"), err
    assert not no_app
