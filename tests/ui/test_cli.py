"""The command line lists every subcommand and rejects unknown ones."""

from __future__ import annotations

import pytest

from fairdeal.ui.cli import COMMANDS, build_parser


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out


def test_unknown_subcommand_is_rejected(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["no-such-command"])
    assert exit_info.value.code == 2
    assert "no-such-command" in capsys.readouterr().err
