"""`fairdeal` with no arguments opens the app; without a terminal `play` falls back to text."""

from __future__ import annotations

import argparse
import io
import sys

import pytest

import fairdeal.ui.commands.play as play
from fairdeal.ui.cli import main


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_arguments_open_the_app_in_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[argparse.Namespace] = []
    monkeypatch.setattr(play, "run_app", lambda args: opened.append(args) or 0)
    monkeypatch.setattr(sys, "stdin", FakeTty())
    monkeypatch.setattr(sys, "stdout", FakeTty())
    assert main([]) == 0
    assert len(opened) == 1 and not opened[0].plain and not opened[0].lobby


def test_plain_is_chosen_by_flag_or_without_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen: list[str] = []
    monkeypatch.setattr(play, "run_app", lambda args: chosen.append("app") or 0)
    monkeypatch.setattr(play, "run_plain", lambda args: chosen.append("plain") or 0)
    monkeypatch.setattr(sys, "stdin", FakeTty())
    monkeypatch.setattr(sys, "stdout", FakeTty())
    main(["play", "--plain"])
    monkeypatch.setattr(sys, "stdin", io.StringIO())  # piped input
    main(["play"])
    assert chosen == ["plain", "plain"]


def test_bad_tables_are_refused_before_the_app_opens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", FakeTty())
    monkeypatch.setattr(sys, "stdout", FakeTty())
    with pytest.raises(SystemExit):
        main(["play", "--bot-kind", "clever"])
    assert "unknown bot kind 'clever'" in capsys.readouterr().err
