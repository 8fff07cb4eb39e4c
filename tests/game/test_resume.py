"""`fairdeal resume`: the app's seat of a networked table, gone mid-game without a goodbye,
restarts from its transcript and secrets (p2p.table.tools.session.resume_table), catches up, and
the game completes with every transcript verified; and the command's clear errors."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import msgpack
import pytest

from fairdeal.engine.bots import make_bot
from fairdeal.engine.larry import LarryOptions
from fairdeal.p2p.identity import load_or_create_identity
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.log.transcript import Transcript, load_transcript
from fairdeal.p2p.table.core.api import Notice, ReplayDone, ReplayStarted, StateChanged
from fairdeal.p2p.table.runtime.gather import join_lobby, open_lobby
from fairdeal.p2p.table.runtime.headless import play_headless
from fairdeal.p2p.table.tools.audit import audit_many
from fairdeal.p2p.table.tools.session import (
    NetworkedTable,
    NetworkSettings,
    current_settings,
    join_table,
    use_settings,
)
from fairdeal.ui.app import FairdealApp
from fairdeal.ui.cli import build_parser, main
from fairdeal.ui.commands import resume as resume_command

pytestmark = pytest.mark.timeout(120)
WAIT_S = 60.0
OPTIONS = LarryOptions(short_game=True)


def settings(directory: Path) -> NetworkSettings:
    return NetworkSettings(
        data_dir=directory, bind="127.0.0.1", advertise=False, silence_limit=60.0
    )


async def headless_host(directory: Path, address: asyncio.Future[tuple[str, int]]) -> Any:
    identity = load_or_create_identity(directory, "Hal")
    seated = await open_lobby(
        identity,
        3,
        OPTIONS,
        name="resume test",
        bind="127.0.0.1",
        advertise=False,
        on_address=address.set_result,
    )
    return seated, await play_headless(identity, seated, directory, silence_limit=60.0)


async def headless_guest(directory: Path, host: str, port: int) -> Any:
    identity = load_or_create_identity(directory, "Gus")
    seated = await join_lobby(identity, host, port, bind="127.0.0.1")
    return seated, await play_headless(identity, seated, directory, silence_limit=60.0)


async def play_app_seat(session: NetworkedTable, moves: int | None = None) -> int:
    """Play the app's seat as a player would (a bot chooses), `moves` times or to the end."""
    bot = make_bot("heuristic", random.Random(7))
    played = 0

    def ready() -> bool:
        peer = session.peer
        table = None if peer is None else peer.table
        return table is not None and table.state is not None and (table.over or table.my_turn())

    while moves is None or played < moves:
        await session.wait_for(ready, WAIT_S)
        assert session.peer is not None and session.peer.table is not None
        table = session.peer.table
        if table.over:
            break
        before = table.applied
        await session.act(bot.choose(session.view()))
        played += 1
        await session.wait_for(lambda t=table, n=before: t.applied > n or t.over, WAIT_S)
    return played


async def crash(session: NetworkedTable) -> None:
    """The app dies: its tasks stop and its sockets close, with no goodbye and no clean close."""
    tasks, session._tasks = session._tasks, []
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert session.peer is not None and session.seated is not None
    if session.peer._watchdog is not None:
        session.peer._watchdog.cancel()
    await session.seated.mesh.close()


async def test_the_app_seat_resumes_after_a_crash_and_the_game_completes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    address: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    host = asyncio.ensure_future(headless_host(tmp_path / "host", address))
    host_ip, port = await asyncio.wait_for(asyncio.shield(address), WAIT_S)
    guest = asyncio.ensure_future(headless_guest(tmp_path / "guest", host_ip, port))
    app_dir = tmp_path / "app"
    session = join_table(host=host_ip, port=port, name="Ada", settings=settings(app_dir))
    resumed: NetworkedTable | None = None
    try:
        await session.start()
        assert await play_app_seat(session, moves=2) == 2
        assert session.peer is not None
        transcript = session.peer.transcript_path
        texts = [e.text for e in session.history.events if isinstance(e, Notice)]
        assert any(f"fairdeal resume {transcript}" in text for text in texts)
        header = load_transcript(transcript).extra
        assert len(header["addresses"]) == 3 and all(header["addresses"])
        await crash(session)

        # A stranger's data directory is refused before anything opens.
        assert main(["resume", str(transcript), "--data-dir", str(tmp_path / "host")]) == 1
        assert "not that seat's" in capsys.readouterr().err

        apps: list[FairdealApp] = []  # the app `fairdeal resume` opens (not run: no terminal)
        previous = current_settings()
        try:
            arguments = ["resume", str(transcript), "--bind", "127.0.0.1"]  # data dir: inferred
            assert resume_command.run(build_parser().parse_args(arguments), apps.append) == 0
        finally:
            use_settings(previous)
        resumed = apps[0].first_session
        assert isinstance(resumed, NetworkedTable)
        assert resumed.seat == session.seat and resumed.settings.data == app_dir
        await resumed.start()
        await play_app_seat(resumed)
        assert resumed.seated is not None and resumed.seated.mesh.address is not None
        assert list(resumed.seated.mesh.address) == header["addresses"][resumed.seat]
        assert resumed.peer is not None
        await resumed.peer.finished(WAIT_S)
        assert any(
            isinstance(e, Notice) and e.text.startswith("resumed from")
            for e in resumed.history.events
        )
        # The replayed game comes between two markers, in order, so that the app
        # logs it without reopening its views, and "resumed from" follows what it resumed.
        events = list(resumed.history.events)
        start = next(i for i, e in enumerate(events) if isinstance(e, ReplayStarted))
        done = next(i for i, e in enumerate(events) if isinstance(e, ReplayDone))
        assert events[done].text.startswith("resumed from")
        replayed = [e for e in events[start:done] if isinstance(e, StateChanged)]
        assert len(replayed) >= 2 and not any(isinstance(e, StateChanged) for e in events[:start])
        async with asyncio.timeout(WAIT_S):
            (host_seated, host_result), (guest_seated, guest_result) = await asyncio.gather(
                host, guest
            )
    finally:
        for task in (host, guest):
            task.cancel()
        if resumed is not None:
            await resumed.close()
    assert host_result["over"] and guest_result["over"]
    await host_seated.mesh.close()
    await guest_seated.mesh.close()
    paths = [transcript, Path(host_result["transcript"]), Path(guest_result["transcript"])]
    reports, disagreement = audit_many(paths)
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]

    # A finished game cannot be resumed; nor can a seat whose secrets are gone.
    capsys.readouterr()
    assert main(["resume", str(transcript), "--data-dir", str(app_dir)]) == 1
    assert "finished" in capsys.readouterr().err
    (app_dir / "secrets").unlink()
    assert main(["resume", str(transcript), "--data-dir", str(app_dir)]) == 1
    error = capsys.readouterr().err
    assert "secrets" in error and str(transcript) in error


def test_resume_refuses_a_missing_or_damaged_transcript(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "gone.transcript"
    assert main(["resume", str(missing), "--data-dir", str(tmp_path)]) == 1
    assert f"{missing}: no such transcript" in capsys.readouterr().err
    damaged = tmp_path / "damaged.transcript"
    damaged.write_bytes(b"\xff" * 64)
    assert main(["resume", str(damaged), "--data-dir", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert "damaged transcript" in error and str(damaged) in error
    assert "Traceback" not in error


def test_resume_refuses_a_transcript_not_started_in_a_lobby(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tables" / "bare.transcript"
    Transcript.create(path, Roster(b"t" * 16, (b"k" * 32, b"j" * 32)), 0).close()
    assert main(["resume", str(path)]) == 1  # the data directory is the one holding tables/
    error = capsys.readouterr().err
    assert str(path) in error and "no signed roster" in error


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_resume_refuses_a_transcript_of_an_older_protocol_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], version: int
) -> None:
    path = tmp_path / "tables" / "old.transcript"
    Transcript.create(path, Roster(b"t" * 16, (b"k" * 32, b"j" * 32)), 0).close()
    data = path.read_bytes()  # the header is the only record: rewrite it as version 1 wrote it
    header = msgpack.unpackb(data[4:], raw=False)
    if version == 1:
        del header["proto"]  # version 1 wrote no "proto"
    else:
        header["proto"] = version
    payload = msgpack.packb(header, use_bin_type=True)
    path.write_bytes(len(payload).to_bytes(4, "big") + payload)
    assert main(["resume", str(path)]) == 1
    error = capsys.readouterr().err
    assert f"made by protocol version {version}" in error and str(path) in error
    assert "damaged" not in error and "Traceback" not in error
