"""Watchers over loopback (protocol.md 4.8): a peer with no seat follows a 4-seat table to the
end and agrees with the players' transcripts; nothing private reaches it on the wire; more than
the limit are refused with the reason; a hostile watcher (garbage, forged envelopes, a flood of
requests, one that crashes, one that stalls) changes nothing at the table; both games; the app's
screen and the lobby's `w` follow a live table to its end."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from fairdeal.engine.larry import LarryOptions
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.envelope import sign_envelope
from fairdeal.p2p.net.channel import open_channel
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.table.core.api import WatchersChanged
from fairdeal.p2p.table.runtime.watchers import MAX_WATCHERS, seat_share
from fairdeal.p2p.table.tools.audit import LiveAudit, audit_many
from fairdeal.p2p.table.tools.replay import load_replay
from fairdeal.p2p.table.tools.watch import WatchClient, WatchRefused

from .support import LocalTable, open_table, play_to_end

pytestmark = pytest.mark.timeout(240)

# A full game: 3 hands at 4 seats, give-aways (L11) among them.
OPTIONS = LarryOptions(short_game=False, hands=2)


def watcher_identity(index: int) -> Identity:
    return Identity.generate(f"watcher{index}", lambda n: bytes([200 + index]) * n)


def record_sends(table: LocalTable, key: bytes) -> tuple[list[str], list[str]]:
    """Every message type the seated meshes send to `key`, and every one sent between seats."""
    to_watcher: list[str] = []
    between_seats: list[str] = []
    seats = set(table.roster.keys)
    for mesh in table.meshes:
        send, broadcast = mesh.send, mesh.broadcast

        def spy_send(peer: bytes, message: Mapping[str, Any], send=send) -> bool:  # type: ignore[no-untyped-def]
            (to_watcher if peer == key else between_seats).append(message["t"])
            return send(peer, message)

        def spy_broadcast(message: Mapping[str, Any], exclude=(), broadcast=broadcast, mesh=mesh):  # type: ignore[no-untyped-def]
            for peer in set(mesh.peers) - set(exclude):
                (to_watcher if peer == key else between_seats).append(message["t"])
            return broadcast(message, exclude)

        mesh.send, mesh.broadcast = spy_send, spy_broadcast  # type: ignore[method-assign]
    assert seats
    return to_watcher, between_seats


def record_received(mesh: Mesh) -> list[str]:
    """Every message type `mesh` takes off its channels (its dispatch looks each one up)."""
    received: list[str] = []

    class Recording(dict):  # type: ignore[type-arg]
        def get(self, key, default=None):  # type: ignore[no-untyped-def]
            received.append(key)
            return super().get(key, default)

    mesh._handlers = Recording(mesh._handlers)  # type: ignore[attr-defined]
    return received


def test_a_watcher_follows_a_table_to_the_end_and_agrees_with_the_players(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        table = await open_table(4, tmp_path, OPTIONS, seed=5)
        watcher = WatchClient(watcher_identity(0))
        to_watcher, between_seats = record_sends(table, watcher.identity.key)
        received = record_received(watcher.mesh)
        try:
            host, port = table.meshes[1].address  # type: ignore[misc]
            await watcher.connect(host, port)
            await play_to_end(table, timeout=200)
            replay = await watcher.follow(timeout=30)
            await watcher.close()  # it leaves: the seat it watched through sees it go
            await table.meshes[1].wait_until(lambda: not table.peers[1].watch.watchers, 10)
            for peer in table.peers:  # the other seats hear of it from that one
                async with asyncio.timeout(10):
                    while peer.watch.everyone():
                        await peer.history.changed()
        finally:
            await watcher.close()
            await table.close()
        assert replay.fault is None, replay.fault
        assert replay.frames[-1].view.state.over
        # the players of the seat it watched through were told who watches (name, key code)
        who = (watcher.identity.name, watcher.identity.code)
        for peer in table.peers:  # every seat's players, as the seat it came through told them
            told = [e for e in peer.history.events if isinstance(e, WatchersChanged)]
            assert told[0].watchers == (who,), peer.seat  # the seats panel lists it
            assert told[0].text == f"Watching the table: {who[0]} ({who[1]})."
            assert told[-1].watchers == (), peer.seat  # and drops it once it has gone
        reports, disagreement = audit_many([table.transcript(s) for s in range(4)])
        assert disagreement is None and all(r.verified for r in reports)
        assert replay.report.ids == reports[0].ids  # the same log, envelope for envelope
        assert replay.frames[-1].view.state.scores == reports[0].scores
        # Nothing private on the wire to it: the header and envelopes only, while the seats
        # did send each other give-aways' forwards (L11, protocol.md 10.8).
        assert set(to_watcher) == {"watching", "env"}
        assert set(received) == {"watching", "env"}  # as its channel decrypted them
        assert "fwd" in between_seats
        # The watcher knows the fronts opened to all, as an auditor of a transcript does, and
        # no more (a seat's own replay knows its hand besides).
        public = load_replay(table.transcript(1), None).frames[-1].view
        own = load_replay(table.transcript(1), tmp_path / "seat1").frames[-1].view
        assert dict(replay.frames[-1].view.knowledge) == dict(public.knowledge)
        assert set(public.knowledge) < set(own.knowledge)

    asyncio.run(run())


def test_each_seat_serves_its_share_of_the_tables_watchers() -> None:
    assert [seat_share(3, seat) for seat in range(3)] == [3, 3, 2]
    assert [seat_share(5, seat) for seat in range(5)] == [2, 2, 2, 1, 1]
    for seats in range(1, 9):  # "up to 8 watchers per table": the shares add up to exactly 8
        shares = [seat_share(seats, seat) for seat in range(seats)]
        assert sum(shares) == MAX_WATCHERS and min(shares) >= 1, (seats, shares)
    with pytest.raises(ValueError, match="not 0"):
        seat_share(0, 0)
    with pytest.raises(ValueError, match="no seat 4"):
        seat_share(4, 4)


def test_watchers_beyond_a_seats_share_are_refused_with_the_reason(tmp_path: Path) -> None:
    async def run() -> None:
        table = await open_table(2, tmp_path, LarryOptions(short_game=True), seed=6, bots=False)
        share = seat_share(2, 0)
        watchers = [WatchClient(watcher_identity(i)) for i in range(share + 1)]
        try:
            host, port = table.meshes[0].address  # type: ignore[misc]
            for watcher in watchers[:share]:
                await watcher.connect(host, port)
            with pytest.raises(WatchRefused, match=f"already serves {share} watchers, its share"):
                await watchers[-1].connect(host, port)
            assert len(table.peers[0].watch.watchers) == share
            assert table.peers[0].watch.refused == 1
            # the other seat serves its own share: the refused one watches through it
            other = WatchClient(watcher_identity(share + 1))
            watchers.append(other)
            await other.connect(*table.meshes[1].address)  # type: ignore[misc]
            assert len(table.peers[1].watch.watchers) == 1
            await watchers[0].close()  # one leaves: a place is free again
            await table.meshes[0].wait_until(lambda: len(table.peers[0].watch.watchers) < share, 10)
            late = WatchClient(watcher_identity(share + 2))
            watchers.append(late)
            await late.connect(host, port)
        finally:
            for watcher in watchers:
                await watcher.close()
            await table.close()

    asyncio.run(run())


def test_a_watcher_catching_up_gives_its_event_loop_a_turn_between_envelopes(
    tmp_path: Path,
) -> None:
    """Its channel's reader hands over every buffered frame at once; checked in one go, the
    log so far (shuffle proofs and all) held the loop for seconds under load, and a channel
    dialled meanwhile timed out (the simulation's watchers had to dial again)."""

    async def run() -> None:
        table = await open_table(4, tmp_path, OPTIONS, seed=5)
        watcher = WatchClient(watcher_identity(0))
        turns: list[str] = []
        feed = LiveAudit.feed

        def counted_feed(self: LiveAudit, envelope: Any, index: int) -> None:
            turns.append("feed")
            feed(self, envelope, index)

        async def ticker() -> None:
            while True:
                turns.append("tick")
                await asyncio.sleep(0)

        ticking = asyncio.get_running_loop().create_task(ticker())
        try:
            await play_to_end(table, timeout=200)  # the whole log comes at once on connecting
            LiveAudit.feed = counted_feed  # type: ignore[method-assign]
            await watcher.connect(*table.meshes[1].address)  # type: ignore[misc]
            replay = await watcher.follow(timeout=60)
        finally:
            LiveAudit.feed = feed  # type: ignore[method-assign]
            ticking.cancel()
            await watcher.close()
            await table.close()
        assert replay.fault is None and replay.frames[-1].view.state.over
        feeds = turns.count("feed")
        assert feeds == len(table.peers[0].sync.log.entries) > 100  # type: ignore[union-attr]
        runs = "".join("f" if turn == "feed" else "." for turn in turns).split(".")
        assert max(len(run) for run in runs) == 1  # never two envelopes without a turn between

    asyncio.run(run())


async def hostile(mesh: Mesh, seat_key: bytes, table: LocalTable, stop: asyncio.Event) -> None:
    """Garbage, forged envelopes, a flood of requests, then stalls (stops reading)."""
    rng = random.Random(1)
    forger = watcher_identity(9)
    count = 0
    while not stop.is_set():
        count += 1
        # an envelope in seat 0's name, signed by the watcher's own key
        envelope = sign_envelope(
            forger,
            table=table.roster.table,
            seat=0,
            seq=count,
            prev=b"\0" * 32,
            kind="act",
            body={"x": 1},
        )
        for message in (
            {"t": "watch"},
            {"t": "need", "table": table.roster.table, "have": [0] * 300},
            {"t": "fwd", "table": table.roster.table, "garbage": rng.randbytes(32)},
            {"t": "env", "d": rng.randbytes(64), "s": rng.randbytes(64)},
            {"t": "left", "seat": 0, "reason": "forged"},
            envelope.to_wire(),
        ):
            mesh.send(seat_key, message)
        await asyncio.sleep(0)


def test_a_hostile_watcher_changes_nothing_at_the_table(tmp_path: Path) -> None:
    async def run() -> None:
        table = await open_table(4, tmp_path, LarryOptions(short_game=True), seed=5)
        intruder = Mesh(watcher_identity(5))
        stop = asyncio.Event()
        staller = None
        try:
            await intruder.start("127.0.0.1", 0)
            host, port = table.meshes[0].address  # type: ignore[misc]
            peer = await intruder.connect(host, port)
            flood = asyncio.get_running_loop().create_task(hostile(intruder, peer.key, table, stop))
            # and a watcher that goes away mid-game (a crash: its channel just closes)
            quitter = WatchClient(watcher_identity(6))
            await quitter.connect(*table.meshes[2].address)  # type: ignore[misc]
            await quitter.close()
            # and one that asks to watch and then never reads a byte (a stall)
            staller = await open_channel(*table.meshes[3].address, watcher_identity(7))  # type: ignore[misc]
            staller.send({"t": "watch"})
            await play_to_end(table, timeout=200)
            stop.set()
            await flood
            assert watcher_identity(7).key in table.peers[3].watch.watchers  # it was served
        finally:
            if staller is not None:
                await staller.close()
            await intruder.close()
            await table.close()
        reports, disagreement = audit_many([table.transcript(s) for s in range(4)])
        assert disagreement is None and all(r.verified and r.over for r in reports)
        assert all(peer.table is not None and peer.table.fault is None for peer in table.peers)

    asyncio.run(run())


def test_fairdeal_watch_plain_prints_the_game_as_it_goes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from fairdeal.ui.commands.watch import _plain

    async def run() -> int:
        table = await open_table(3, tmp_path, LarryOptions(short_game=True), seed=8)
        try:
            host, port = table.meshes[2].address  # type: ignore[misc]
            watching = asyncio.get_running_loop().create_task(
                _plain(WatchClient(watcher_identity(1)), host, port, 200)
            )
            await play_to_end(table, timeout=200)
            return await watching
        finally:
            await table.close()

    assert asyncio.run(run()) == 0
    out = capsys.readouterr().out
    assert out.startswith("-- WATCHING ✓ verified so far · step 1/")
    assert "Hand 1: " in out and "Game over" in out
    assert "every signature and proof checked" in out


def test_the_watch_app_follows_the_end(tmp_path: Path) -> None:
    from fairdeal.ui.games.larry.replay import LarryReplayScreen
    from fairdeal.ui.watch_app import WatchApp

    async def run() -> None:
        table = await open_table(3, tmp_path, LarryOptions(short_game=True), seed=8)
        try:
            host, port = table.meshes[0].address  # type: ignore[misc]
            client = WatchClient(watcher_identity(2))
            app = WatchApp(client, host, port)
            async with app.run_test(size=(100, 32)) as pilot:
                await play_to_end(table, timeout=200)
                await client.follow(timeout=30)
                for _ in range(200):  # until the screen stands at the last step
                    await pilot.pause()
                    screens = [s for s in app.screen_stack if isinstance(s, LarryReplayScreen)]
                    if screens and screens[-1].session.position == len(client.replay.frames) - 1:
                        break
                assert screens and screens[-1].session.position == len(client.replay.frames) - 1
                assert screens[-1].session.view().state.over
        finally:
            await table.close()

    asyncio.run(run())


def test_fairdeal_watch_refuses_a_bad_address_before_anything_starts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from fairdeal.ui.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["watch", "no-port-here"])
    assert exit_.value.code == 2
    assert "is not HOST:PORT" in capsys.readouterr().err


def test_fairdeal_watch_names_an_address_where_nobody_listens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from fairdeal.ui.cli import main

    assert main(["watch", "127.0.0.1:1", "--plain", "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    # as `fairdeal bot` says it, not "[Errno 111] Connect call failed ('127.0.0.1', 1)"
    assert "nothing is listening at 127.0.0.1:1" in err and "Errno" not in err, err


def test_a_watcher_follows_the_lie_and_agrees_with_the_players(tmp_path: Path) -> None:
    """The Lie's Phase 1 (seats at once, T3): the watcher's log is the seats' log."""
    from fairdeal.engine.lie import LieOptions

    async def run() -> None:
        table = await open_table(3, tmp_path, LieOptions(rounds=1, hand_size=3), seed=4)
        watcher = WatchClient(watcher_identity(3))
        try:
            await watcher.connect(*table.meshes[0].address)  # type: ignore[misc]
            await play_to_end(table, timeout=200)
            replay = await watcher.follow(timeout=30)
        finally:
            await watcher.close()
            await table.close()
        assert replay.fault is None, replay.fault
        assert replay.game == "lie" and replay.frames[-1].view.state.over
        reports, disagreement = audit_many([table.transcript(s) for s in range(3)])
        assert disagreement is None and all(r.verified for r in reports)
        assert replay.report.ids == reports[0].ids

    asyncio.run(run())


def test_w_in_the_lobby_watches_the_chosen_table(tmp_path: Path) -> None:
    from fairdeal.p2p.lobby.discovery import DiscoveredTable, TableAd
    from fairdeal.p2p.table.tools.session import NetworkSettings, use_settings
    from fairdeal.ui.app import FairdealApp
    from fairdeal.ui.games.larry.replay import LarryReplayScreen
    from fairdeal.ui.player import Player
    from fairdeal.ui.table_finder import FixedFinder

    previous = use_settings(NetworkSettings(data_dir=tmp_path / "me"))

    async def run() -> None:
        table = await open_table(3, tmp_path, LarryOptions(short_game=True), seed=8)
        try:
            host_id = table.peers[0].identity
            host, port = table.meshes[0].address  # type: ignore[misc]
            ad = TableAd("ab" * 16, "Ben's table", "larry", 3, 3, host_id.fingerprint, playing=True)
            found = DiscoveredTable("Ben._fairdeal._tcp.local.", ad, (host,), port)
            app = FairdealApp(Player("Tess", "ab12", "ab12"), finder=FixedFinder([found]))
            async with app.run_test(size=(100, 32)) as pilot:
                await pilot.pause()
                await pilot.press("w")
                await play_to_end(table, timeout=200)
                for _ in range(400):  # until the watched table's last step is on screen
                    await pilot.pause()
                    screens = [s for s in app.screen_stack if isinstance(s, LarryReplayScreen)]
                    replay = screens[-1].session.replay if screens else None
                    done = replay is not None and replay.frames[-1].view.state.over
                    if done and screens[-1].session.position == len(replay.frames) - 1:
                        break
                assert screens and screens[-1].session.view().state.over
                assert replay is not None and replay.live and replay.fault is None
        finally:
            await table.close()

    try:
        asyncio.run(run())
    finally:
        use_settings(previous)


def test_a_watcher_whose_seat_dies_says_so_and_goes_on_through_another_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The seat watched through goes away mid-game (and comes back elsewhere, as after a
    crash): `watch --plain` says so, goes on through the next seat at the address the header
    gave, checks the log resent from the start against what it had, and follows to the end."""
    from fairdeal.ui.commands.watch import _plain

    from .support import rejoin_seat

    async def run() -> tuple[int, WatchClient, LocalTable]:
        table = await open_table(
            3, tmp_path, LarryOptions(short_game=True), seed=9, record_addresses=True
        )
        client = WatchClient(watcher_identity(2))
        try:
            host, port = table.meshes[1].address  # type: ignore[misc]
            watching = asyncio.get_running_loop().create_task(_plain(client, host, port, 200))
            async with asyncio.timeout(60):
                while client.index < 20:
                    await asyncio.sleep(0.01)  # polling the watcher's count
            await table.peers[1].close()  # the seat watched through dies mid-game
            await table.meshes[1].close()
            await rejoin_seat(table, 1, tmp_path, seed=9)  # back, listening elsewhere
            await play_to_end(table, timeout=200)
            return await watching, client, table
        finally:
            await table.close()

    code, client, table = asyncio.run(run())
    out, err = capsys.readouterr()
    assert "fairdeal watch: seat 1 (peer1) went away after " in err
    assert "the game is unfinished" in err
    assert "fairdeal watch: watching through seat 2 (peer2) now" in err
    assert code == 0 and "Game over" in out
    assert "every signature and proof checked" in out and "unfinished" not in out
    assert client.replay is not None and client.replay.fault is None
    reports, disagreement = audit_many([table.transcript(s) for s in range(3)])
    assert disagreement is None and all(r.verified and r.over for r in reports)
    assert client.replay.report.ids == reports[0].ids  # the whole log, each envelope once


def test_a_watcher_left_with_no_seat_to_watch_through_says_the_game_is_unfinished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from fairdeal.ui.commands.watch import _plain

    async def run() -> int:
        table = await open_table(
            3, tmp_path, LarryOptions(short_game=True), seed=10, record_addresses=True
        )
        client = WatchClient(watcher_identity(3))
        try:
            host, port = table.meshes[0].address  # type: ignore[misc]
            watching = asyncio.get_running_loop().create_task(_plain(client, host, port, 200))
            async with asyncio.timeout(60):
                while client.index < 20:
                    await asyncio.sleep(0.01)  # polling the watcher's count
            await table.close()  # every seat goes away mid-game
            return await watching
        finally:
            await table.close()

    assert asyncio.run(run()) == 1
    out, err = capsys.readouterr()
    assert "fairdeal watch: seat 0 (peer0) went away after " in err
    assert "no other seat of the table can be reached: the game is unfinished" in err
    assert "entries, every signature and proof checked; the game is unfinished" in out


def test_a_seat_taken_over_from_must_resend_the_same_log() -> None:
    """After a switch, the new seat's log is checked against what was checked, place by place:
    a different envelope at a place already checked stops the watching, naming that seat."""
    from fairdeal.p2p.identity import PublicIdentity

    async def run() -> WatchClient:
        seats = [watcher_identity(10 + s) for s in range(2)]
        roster = [s.key for s in seats]
        client = WatchClient(watcher_identity(4))
        first, second = (PublicIdentity(s.key, s.name) for s in seats)
        table = b"w" * 16

        def envelope(seat: int, body: int) -> dict[str, Any]:
            signed = sign_envelope(
                seats[seat], table=table, seat=seat, seq=0, prev=b"\0" * 32, kind="x", body=body
            )
            return signed.to_wire()

        header = {"t": "watching", "table": table, "roster": roster, "extra": {}}
        client.seat_key = first.key
        client._on_watching(first, {**header, "seat": 0})
        client._on_env(first, envelope(0, 1))
        client.seat_key = second.key  # the first seat went away; the second one serves
        client._on_watching(second, {**header, "seat": 1})
        client._on_env(second, envelope(0, 2))  # another envelope for the place checked
        await client.close()
        return client

    client = asyncio.run(run())
    assert client.stopped == "seat 1's log differs at entry 0 from the one checked so far"
    assert client.over
