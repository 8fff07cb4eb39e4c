"""A damaged identity.json: the error says what to do (move it aside, the key code changes), and
a local game against bots, which needs no key, still starts, saying why there is none."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.p2p.errors import IdentityFileError
from fairdeal.p2p.identity import IDENTITY_FILE, load_identity
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.launch import run_app
from fairdeal.ui.table_factory import TableSpec


def damaged(directory: Path) -> Path:
    directory.mkdir(mode=0o700, exist_ok=True)
    path = directory / IDENTITY_FILE
    path.write_text('{"seed": "12', encoding="utf-8")
    path.chmod(0o600)
    return directory


def test_the_error_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(IdentityFileError) as error:
        load_identity(damaged(tmp_path / "data"))
    said = str(error.value)
    assert "is damaged" in said and "move it aside" in said and "key code changes" in said


def test_a_local_game_starts_without_a_key_and_says_why(tmp_path: Path) -> None:
    """It blocked even a game against bots, which needs no key."""
    started: list[FairdealApp] = []
    data = damaged(tmp_path / "data")
    assert run_app(TableSpec(), data_dir=data, name="Tess", runner=started.append) == 0
    [app] = started
    assert app.player.name == "Tess" and app.player.code == ""
    assert app.player.problem is not None and "move it aside" in app.player.problem


async def test_the_app_shows_why_there_is_no_key(tmp_path: Path) -> None:
    started: list[FairdealApp] = []
    run_app(TableSpec(), data_dir=damaged(tmp_path / "data"), name=None, runner=started.append)
    app = started[0]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = [(n.title, str(n.message)) for n in app._notifications]  # as test_app_notices
        assert any(
            title == "Your identity file is damaged" and "move it aside" in message
            for title, message in shown
        ), shown


def test_a_table_on_the_network_still_needs_it(tmp_path: Path) -> None:
    started: list[FairdealApp] = []
    data = damaged(tmp_path / "data")
    with pytest.raises(IdentityFileError, match="move it aside"):
        run_app(TableSpec(networked=True), data_dir=data, name=None, runner=started.append)
    with pytest.raises(IdentityFileError):  # the lobby may open one
        run_app(TableSpec(), data_dir=data, name=None, open_table=False, runner=started.append)
    assert not started
