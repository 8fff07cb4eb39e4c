"""`fairdeal play` hands the networked tables the player's identity and the address to use."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fairdeal.p2p.table.tools.session import NetworkSettings, current_settings
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.cli import main
from fairdeal.ui.table_finder import ZeroconfFinder

from .test_entry import FakeTty


def test_play_sets_the_identity_and_address_for_networked_tables(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    opened: list[FairdealApp] = []
    monkeypatch.setattr(FairdealApp, "run", lambda app: opened.append(app))
    monkeypatch.setattr(sys, "stdin", FakeTty())
    monkeypatch.setattr(sys, "stdout", FakeTty())
    arguments = ["play", "--lobby", "--name", "Tess", "--data-dir", str(tmp_path)]
    assert main([*arguments, "--bind", "127.0.0.1"]) == 0
    assert current_settings() == NetworkSettings(
        data_dir=tmp_path, bind="127.0.0.1", interfaces=("127.0.0.1",)
    )
    (app,) = opened
    assert isinstance(app.finder, ZeroconfFinder) and app.finder._interfaces == ("127.0.0.1",)
    assert app.player.name == "Tess"
