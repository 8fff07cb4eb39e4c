"""The factory: local tables for one human and bots, networked play through one door."""

from __future__ import annotations

import sys
import types

import pytest

from fairdeal.engine.larry import LarryOptions
from fairdeal.engine.lie import LieOptions
from fairdeal.p2p.lobby.discovery import DiscoveredTable, TableAd
from fairdeal.p2p.table.runtime.local import LocalTable
from fairdeal.ui.table_factory import (
    NETWORKED_DRIVER_MODULE,
    NetworkedPlayUnavailable,
    TableSpec,
    join_discovered,
    join_table,
    open_table,
    parse_address,
)

AD = TableAd("ab" * 16, "Friday", "larry", 1, 4, "fedcba9876543210")


def test_one_human_and_bots_gives_a_local_table() -> None:
    session = open_table(TableSpec(seats=5, bots=4, name="Tess", seed=3, short_game=True))
    assert isinstance(session, LocalTable)
    assert [seat.is_bot for seat in session.seats] == [False, True, True, True, True]
    assert session.seats[0].name == "Tess" and session.seats[0].is_me
    assert session.view().options.short_game


def test_a_build_without_the_networked_driver_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, NETWORKED_DRIVER_MODULE, None)  # as if not installed
    with pytest.raises(NetworkedPlayUnavailable, match="no networked table driver"):
        open_table(TableSpec(seats=4, bots=1))
    with pytest.raises(NetworkedPlayUnavailable, match="no networked table driver"):
        join_table("127.0.0.1", 45123, "Tess")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (TableSpec(game="poker"), "unknown game 'poker'"),
        (TableSpec(game="lie", seats=7, bots=6), "The Lie is played by 2 to 6 players"),
        (TableSpec(game="lie", bot_delay=1e9), "0 to 60 seconds"),
        (TableSpec(game="lie", claim_pace=-1), "0 to 60 seconds"),
        (TableSpec(seats=9, bots=3), "2 to 8"),
        (TableSpec(seats=3, bots=3), "bots"),
    ],
)
def test_bad_specs_say_why(spec: TableSpec, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        open_table(spec)


def test_addresses_are_parsed_or_refused_with_an_example() -> None:
    assert parse_address(" 192.168.1.20:45123 ") == ("192.168.1.20", 45123)
    assert parse_address("[::1]:9") == ("::1", 9)
    for bad in ("nonsense", "host:", ":80", "host:99999", "host:x1"):
        with pytest.raises(ValueError):
            parse_address(bad)


def test_the_networked_driver_is_called_through_its_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, dict[str, object]]] = []
    driver = types.ModuleType(NETWORKED_DRIVER_MODULE)
    driver.host_table = lambda **kw: calls.append(("host", kw)) or "hosted"  # type: ignore[attr-defined]
    driver.join_table = lambda **kw: calls.append(("join", kw)) or "joined"  # type: ignore[attr-defined]
    driver.join_discovered = lambda t, **kw: calls.append(("found", {"t": t, **kw})) or "found"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, NETWORKED_DRIVER_MODULE, driver)
    assert open_table(TableSpec(seats=4, bots=2, name="Tess", short_game=True)) == "hosted"
    assert join_table("10.0.0.2", 4000, "Tess") == "joined"
    assert open_table(TableSpec(seats=3, bots=2, networked=True)) == "hosted"  # bots only
    found = DiscoveredTable("F._fairdeal._tcp.local.", AD, ("10.0.0.3",), 4001)
    assert join_discovered(found, "Tess") == "found"
    (_, hosted), (_, joined), (_, bots_only), (_, via_lobby) = calls
    assert hosted["seats"] == 4 and hosted["bots"] == 2 and hosted["name"] == "Tess"
    assert hosted["options"] == LarryOptions(short_game=True)
    assert hosted["bot_delay"] == TableSpec().bot_delay > 0  # bot peers think as local bots do
    assert joined == {"host": "10.0.0.2", "port": 4000, "name": "Tess"}
    assert bots_only["seats"] == 3 and bots_only["bots"] == 2
    assert via_lobby == {"t": found, "name": "Tess"}


def test_a_lie_table_of_one_human_and_bots_is_local_and_holds_its_bots() -> None:
    from fairdeal.p2p.table.runtime.local import LocalTable

    table = open_table(TableSpec(game="lie", seats=3, bots=2, seed=1, claim_pace=0.5))
    assert isinstance(table, LocalTable) and table.game.name == "lie"
    assert table.state.options.rounds == 3
    short = open_table(TableSpec(game="lie", seats=2, bots=1, short_game=True))
    assert isinstance(short, LocalTable) and short.state.options.rounds == 1


def test_a_networked_lie_table_hosts_the_lie_with_its_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fewer bots than the other seats (or `networked`) opens The Lie on the network,
    with the rounds (T9) and hand size (T3) chosen: the options the lobby's terms carry."""
    calls: list[dict[str, object]] = []
    driver = types.ModuleType(NETWORKED_DRIVER_MODULE)
    driver.host_table = lambda **kw: calls.append(kw) or "hosted"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, NETWORKED_DRIVER_MODULE, driver)
    spec = TableSpec(game="lie", seats=4, bots=2, claim_pace=0.3).choosing(
        {"rounds": 2, "hand_size": 6}
    )
    assert open_table(spec) == "hosted"
    assert open_table(TableSpec(game="lie", seats=3, bots=2, networked=True)) == "hosted"
    assert open_table(TableSpec(game="lie", seats=2, bots=0, short_game=True)) == "hosted"
    first, bots_only, short = calls
    assert first["options"] == LieOptions(rounds=2, hand_size=6)
    assert (first["seats"], first["bots"], first["claim_pace"]) == (4, 2, 0.3)
    assert bots_only["options"] == LieOptions() and bots_only["bots"] == 2
    assert short["options"] == LieOptions(rounds=1)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (TableSpec(game="lie", seats=7, bots=1), "The Lie is played by 2 to 6 players"),
        (
            TableSpec(game="lie", seats=4, bots=1).choosing({"rounds": 0}),
            "rounds 0 is out of range: 1-3",
        ),
        (
            TableSpec(game="lie", seats=4, bots=1).choosing({"hand_size": 13}),
            "hand size 13 is out of range",
        ),
        (
            TableSpec(game="lie", seats=4, bots=1).choosing({"hand_size": 0}),
            "hand size 0 is out of range",
        ),
        (
            TableSpec(game="larry", seats=4, bots=1).choosing({"rounds": 2}),
            "options of The Lie, not of Larry",
        ),
    ],
)
def test_absurd_lie_options_are_refused_naming_the_option(spec: TableSpec, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        open_table(spec)
