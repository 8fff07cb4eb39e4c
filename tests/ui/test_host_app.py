"""`fairdeal host larry` without --headless opens the app on a networked table; without a
terminal it refuses, pointing at --headless, instead of hanging."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

import fairdeal.p2p.table.tools.session as table_session
import fairdeal.ui.commands.host as host
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.cli import build_parser, main
from fairdeal.ui.table_factory import TableSpec
from fairdeal.ui.table_finder import FixedFinder, ZeroconfFinder


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def keep_network_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands set process-wide network settings; put them back after each test."""
    monkeypatch.setattr(table_session, "_settings", table_session.current_settings())


def host_app(argv: list[str]) -> FairdealApp:
    """The app `fairdeal host ARGV` would run, built without a terminal."""
    built: list[FairdealApp] = []
    args = build_parser().parse_args(["host", *argv])
    assert host.run_app(args, runner=built.append) == 0
    assert len(built) == 1
    return built[0]


def test_host_opens_the_app_on_a_networked_table_with_the_seats_and_bots(tmp_path: Path) -> None:
    app = host_app(
        [
            *("larry", "--seats", "5", "--bots", "2", "--short", "--name", "Ada"),
            *("--data", str(tmp_path), "--bind", "127.0.0.1", "--silence-limit", "7"),
        ]
    )
    spec = app.first_table
    assert isinstance(spec, TableSpec)
    assert (spec.seats, spec.bots, spec.seat, spec.humans) == (5, 2, 0, 3)
    assert spec.networked and spec.short_game and spec.game == "larry"
    assert spec.name == "Ada" == app.player.name
    assert spec.fingerprint == app.player.code != ""  # the code compared aloud
    assert app.first_session is None and app.table_defaults == spec
    assert isinstance(app.finder, ZeroconfFinder)
    settings = table_session.current_settings()
    assert settings.data_dir == tmp_path and settings.bind == "127.0.0.1"
    assert settings.interfaces == ("127.0.0.1",) and settings.advertise
    assert settings.silence_limit == 7


def test_host_with_all_but_one_seat_bots_still_opens_on_the_network(tmp_path: Path) -> None:
    """A local table would be the default for one human and bots; `host` always hosts."""
    app = host_app(["larry", "--seats", "3", "--bots", "2", "--data", str(tmp_path)])
    assert app.first_table is not None and app.first_table.networked
    assert (app.first_table.seats, app.first_table.bots) == (3, 2)


def test_no_mdns_neither_advertises_nor_browses(tmp_path: Path) -> None:
    app = host_app(["larry", "--seats", "2", "--no-mdns", "--data", str(tmp_path)])
    assert isinstance(app.finder, FixedFinder)
    assert not table_session.current_settings().advertise


def test_host_without_a_terminal_points_at_headless(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def must_not_open(*_: object, **__: object) -> int:
        raise AssertionError("the app must not open without a terminal")

    monkeypatch.setattr(host, "run_app", must_not_open)
    monkeypatch.setattr(sys, "stdin", io.StringIO())  # piped input
    monkeypatch.setattr(sys, "stdout", FakeTty())
    with pytest.raises(SystemExit, match=r"needs a terminal.*--headless"):
        main(["host", "larry", "--seats", "3", "--data", str(tmp_path)])
    monkeypatch.setattr(sys, "stdin", FakeTty())
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # output to a pipe
    with pytest.raises(SystemExit, match="--headless"):
        main(["host", "larry", "--seats", "3", "--data", str(tmp_path)])


def test_host_in_a_terminal_opens_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[int] = []
    monkeypatch.setattr(host, "run_app", lambda args: opened.append(args.seats) or 0)
    monkeypatch.setattr(sys, "stdin", FakeTty())
    monkeypatch.setattr(sys, "stdout", FakeTty())
    assert main(["host", "larry", "--seats", "4", "--bots", "1"]) == 0
    assert opened == [4]


def test_play_builds_its_app_through_the_same_launcher(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    built: list[FairdealApp] = []
    monkeypatch.setattr(FairdealApp, "run", lambda app: built.append(app))
    args = build_parser().parse_args(
        ["play", "--lobby", "--no-discovery", "--data-dir", str(tmp_path), "--name", "Bo"]
    )
    import fairdeal.ui.commands.play as play

    assert play.run_app(args) == 0
    (app,) = built
    assert app.first_table is None and isinstance(app.finder, FixedFinder)
    assert app.table_defaults.name == "Bo" and not app.table_defaults.networked
    assert table_session.current_settings().data_dir == tmp_path


async def test_the_hosted_app_asks_the_networked_driver_for_the_table(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Pilot: the app `host` builds opens its table through `host_table` with our seats, bots and
    name, and shows the table screen (a scripted session stands in for the network)."""
    import fairdeal.ui.table_factory as table_factory
    from fairdeal.ui.games.larry.screen import TableScreen

    from .fake_session import ScriptedSession

    asked: list[tuple[str, dict[str, object]]] = []  # (factory, its arguments)

    def networked(function: str, *_: object, **arguments: object) -> ScriptedSession:
        asked.append((function, arguments))
        return ScriptedSession(ready=False)

    monkeypatch.setattr(table_factory, "_networked", networked)
    arguments = ["--seats", "4", "--bots", "1", "--name", "Ada", "--data", str(tmp_path)]
    app = host_app(["larry", *arguments])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
    ((function, given),) = asked
    assert function == "host_table"
    assert (given["seats"], given["bots"], given["name"]) == (4, 1, "Ada")
    assert given["bot_kind"] == "heuristic"
