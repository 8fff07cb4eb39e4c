"""A seat tells the other seats whom it serves as watchers (protocol.md 4.8), so that every
seat's players see who watches the table; a bad list is refused naming the seat and changes
nothing, and a peer with no seat is not listened to."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from fairdeal.p2p.errors import PeerError
from fairdeal.p2p.identity import PublicIdentity, fingerprint_code
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.table.runtime.watchers import SERVES, WatchService

TABLE = b"t" * 32
SEATS = [PublicIdentity(bytes([s]) * 32, f"seat{s}") for s in range(4)]
STRANGER = PublicIdentity(b"\xee" * 32, "watcher")


class FakeMesh:
    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[PublicIdentity, dict[str, Any]], None]] = {}
        self.sent: list[tuple[bytes, Mapping[str, Any]]] = []

    def on(self, kind: str, handler: Callable[[PublicIdentity, dict[str, Any]], None]) -> None:
        self.handlers[kind] = handler

    def on_peer_up(self, callback: object) -> None: ...

    def on_peer_down(self, callback: object) -> None: ...

    def send(self, key: bytes, message: Mapping[str, Any]) -> bool:
        self.sent.append((key, message))
        return True


class FakeLog:
    roster = Roster(TABLE, tuple(s.key for s in SEATS))
    entries: tuple[object, ...] = ()

    def on_applied(self, callback: object) -> None: ...


def service() -> tuple[WatchService, FakeMesh, list[int]]:
    mesh = FakeMesh()
    watch = WatchService(mesh, FakeLog(), 0, {})  # type: ignore[arg-type]
    changes: list[int] = []
    watch.on_change(lambda: changes.append(1))
    return watch, mesh, changes


def serves(*watchers: list[object], table: bytes = TABLE) -> dict[str, Any]:
    return {"t": SERVES, "table": table, "watchers": list(watchers)}


def test_another_seats_watchers_are_listed_and_go_when_it_says_so() -> None:
    watch, mesh, changes = service()
    ann = b"\xaa" * 32
    mesh.handlers[SERVES](SEATS[2], serves([ann, "Ann"]))
    assert watch.everyone() == (("Ann", fingerprint_code(ann)),)
    mesh.handlers[SERVES](SEATS[2], serves())
    assert watch.everyone() == () and len(changes) == 2


def test_a_seats_own_watcher_is_told_to_the_other_seats_only() -> None:
    watch, mesh, _ = service()
    mesh.handlers["watch"](STRANGER, {"t": "watch"})
    told = [key for key, message in mesh.sent if message["t"] == SERVES]
    assert told == [s.key for s in SEATS[1:]]  # not the watcher, not itself
    assert watch.everyone() == (("watcher", STRANGER.code),)


@pytest.mark.parametrize(
    "message",
    [
        serves([b"\xaa" * 31, "short key"]),
        serves([b"\xaa" * 32, "x" * 65]),
        serves(*[[bytes([k]) * 32, "many"] for k in range(3)]),  # more than a 4-seat share (2)
        serves([b"\xaa" * 32]),
        serves([b"\xaa" * 32, "Ann"], table=b"u" * 32),
    ],
    ids=["key", "name", "share", "pair", "table"],
)
def test_a_bad_list_is_refused_naming_the_seat_and_changes_nothing(
    message: dict[str, Any],
) -> None:
    watch, mesh, changes = service()
    ann = b"\xaa" * 32
    mesh.handlers[SERVES](SEATS[2], serves([ann, "Ann"]))
    with pytest.raises(PeerError, match="seat2"):
        mesh.handlers[SERVES](SEATS[2], message)
    assert watch.everyone() == (("Ann", fingerprint_code(ann)),) and len(changes) == 1


def test_a_peer_with_no_seat_is_not_listened_to() -> None:
    watch, mesh, changes = service()
    mesh.handlers[SERVES](STRANGER, serves([b"\xaa" * 32, "Ghost"]))
    assert watch.everyone() == () and not changes


class FollowedLog(FakeLog):
    """A log that keeps its applied-listeners, to see when the service follows it."""

    def __init__(self) -> None:
        self.listeners: list[Callable[[object], None]] = []

    def on_applied(self, callback: Callable[[object], None]) -> None:
        self.listeners.append(callback)

    def off_applied(self, callback: Callable[[object], None]) -> None:
        self.listeners.remove(callback)


class Wired:
    def to_wire(self) -> dict[str, Any]:
        return {"t": "env", "n": 1}


def test_the_log_is_followed_only_while_this_seat_has_watchers() -> None:
    """With no watcher, applying an envelope calls nothing of the watch service; the first
    watcher makes it follow the log, and once the last is gone it stops."""
    mesh, log = FakeMesh(), FollowedLog()
    WatchService(mesh, log, 0, {})  # type: ignore[arg-type]
    assert log.listeners == []
    mesh.handlers["watch"](STRANGER, {"t": "watch"})
    assert len(log.listeners) == 1
    log.listeners[0](Wired())
    assert mesh.sent[-1] == (STRANGER.key, {"t": "env", "n": 1})
    mesh.send = lambda key, message: False  # type: ignore[method-assign]  # the watcher is gone
    log.listeners[0](Wired())
    assert log.listeners == []
