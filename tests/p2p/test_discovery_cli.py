"""`fairdeal tables` formatting and arguments, with discovery replaced by a fixed result (the
loopback tests run the real command against a real advertisement)."""

from __future__ import annotations

import json

import pytest

import fairdeal.p2p.lobby.discovery
from fairdeal.p2p.lobby.discovery import DiscoveredTable, TableAd
from fairdeal.ui.cli import main

TABLES = [
    DiscoveredTable(
        instance="Friday (0123abcd)._fairdeal._tcp.local.",
        ad=TableAd("0123abcd" * 4, "Friday", "larry", 2, 4, "00ff00ff00ff00ff"),
        addresses=("192.0.2.7",),
        port=40400,
    )
]


@pytest.fixture
def found(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, object]]:
    calls: list[tuple[float, object]] = []

    async def fake_discover(timeout: float, interfaces: object = None) -> list[DiscoveredTable]:
        calls.append((timeout, interfaces))
        return TABLES

    monkeypatch.setattr(fairdeal.p2p.lobby.discovery, "discover_tables", fake_discover)
    return calls


def test_text_listing(
    found: list[tuple[float, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tables", "--timeout", "0.5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["TABLE", "GAME", "SEATS", "STATUS", "HOST", "KEY", "ADDRESS"]
    row = ["Friday", "larry", "2/4", "open", "00ff00ff00ff00ff", "192.0.2.7:40400"]
    assert lines[1].split() == row
    assert found == [(0.5, None)]


def test_json_listing_and_interfaces(
    found: list[tuple[float, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tables", "--json", "--interface", "127.0.0.1"]) == 0
    assert json.loads(capsys.readouterr().out) == [TABLES[0].to_json()]
    assert found == [(2.0, ["127.0.0.1"])]


def test_nothing_found(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    async def nothing(timeout: float, interfaces: object = None) -> list[DiscoveredTable]:
        return []

    monkeypatch.setattr(fairdeal.p2p.lobby.discovery, "discover_tables", nothing)
    assert main(["tables", "--timeout", "1"]) == 0
    assert capsys.readouterr().out == "no fairdeal tables found in 1 s\n"
    assert main(["tables", "--json", "--timeout", "1"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_timeout_must_be_positive(found: list[tuple[float, object]]) -> None:
    with pytest.raises(SystemExit, match="--timeout must be positive"):
        main(["tables", "--timeout", "0"])
    assert found == []


def test_text_listing_shows_the_host_code_as_compared_aloud(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One fingerprint format, the code people compare at the table."""
    code = "0421788310511320096473318"
    coded = DiscoveredTable(
        TABLES[0].instance,
        TableAd("0123abcd" * 4, "Friday", "larry", 2, 4, "00ff00ff00ff00ff", host_code=code),
        ("192.0.2.7",),
        40400,
    )

    async def fake_discover(timeout: float, interfaces: object = None) -> list[DiscoveredTable]:
        return [coded]

    monkeypatch.setattr(fairdeal.p2p.lobby.discovery, "discover_tables", fake_discover)
    assert main(["tables", "--timeout", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "04217 88310 51132 00964 73318" in out and "00ff00ff00ff00ff" not in out
