"""Rejoining as the README says — run the same command again with the same data
directory — works for `fairdeal bot --peer …` and for a headless `fairdeal host` (which listens
on its old port again, its bots with it). Real processes, SIGKILLed mid-hand; the game completes
and every transcript audits and agrees.

Mid-hand by construction, not by luck: a short game runs its 20 to 40 actions in well under a
second, so a test that polls the transcripts and kills as soon as it sees an action kills
wherever it happens to look next, on a loaded machine after the game's last action (the rerun
then has nothing to take back, and the host never sees another action). Until each kill the two
processes run by turns, never both at once (`by_turns`): one alone moves the game on only as far
as it can without the other, so the kill comes within a few actions of the one awaited however
late this process looks (`LOOKS_AWAY_S`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from fairdeal.p2p.log.transcript import (
    TranscriptContents,
    TranscriptError,
    done_marker,
    load_transcript,
)
from fairdeal.p2p.table.tools.audit import audit_many

pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="stops processes (POSIX)"),
]
WAIT_S = 90.0
TURN_S = 0.02  # how long one process runs alone in `by_turns`: the pace only, not the bound
# Before each kill this process looks away as long as a loaded machine may keep it: the kill
# must come mid-hand all the same (polling and killing at once, the game ran on to its end).
LOOKS_AWAY_S = 1.0
ACT = "larry.act"


async def spawn(*args: str, log: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "fairdeal",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=open(log, "ab"),  # the child owns it
    )


async def first_line(process: asyncio.subprocess.Process) -> dict:
    assert process.stdout is not None
    async with asyncio.timeout(WAIT_S):
        return json.loads(await process.stdout.readline())


def contents(data: Path) -> TranscriptContents | None:
    """The seat's transcript in `data` (None while there is none)."""
    for path in (data / "tables").glob("*.transcript"):
        try:
            return load_transcript(path)
        except (TranscriptError, OSError):
            return None
    return None


def acts(data: Path, seat: int | None = None) -> int:
    """How many actions (of `seat`, else of any) the seat's transcript in `data` applied."""
    held = contents(data)
    applied = held.applied if held is not None else []
    return sum(1 for e in applied if e.kind == ACT and seat in (None, e.seat))


def own_acts(data: Path) -> tuple[int, int]:
    """The seat of the transcript in `data`, and how many actions it signed."""
    held = contents(data)
    assert held is not None
    return held.seat, sum(1 for e in held.signed if e.kind == ACT)


def over(data: Path) -> bool:
    """Whether the seat's game in `data` is over (its transcript marked done)."""
    return any(done_marker(path).exists() for path in (data / "tables").glob("*.transcript"))


def stop(process: asyncio.subprocess.Process) -> None:
    """SIGSTOP `process` and return once it is stopped, every thread of it (or gone)."""
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError, ChildProcessError):  # collected: it is gone
        os.kill(process.pid, signal.SIGSTOP)
        # WNOWAIT: a stop or an exit stays for asyncio's child watcher to collect
        os.waitid(os.P_PID, process.pid, os.WSTOPPED | os.WEXITED | os.WNOWAIT)


def go_on(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGCONT)


async def by_turns(
    processes: tuple[asyncio.subprocess.Process, asyncio.subprocess.Process],
    condition: Callable[[], bool],
    what: str,
) -> None:
    """Let the two processes run by turns, never both at once, until `condition` holds; return
    with both stopped. One process alone plays only its own seats' turns before it needs an
    envelope of the other, so `condition` is seen within a turn of each after it first holds,
    however long this process takes to look."""
    deadline = time.monotonic() + WAIT_S
    for process in processes:
        stop(process)
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        for process in processes:
            go_on(process)
            await asyncio.sleep(TURN_S)  # its turn: how long is the pace, not the bound
            stop(process)


async def results(process: asyncio.subprocess.Process) -> list[dict]:
    assert process.stdout is not None
    async with asyncio.timeout(WAIT_S * 2):
        out = await process.stdout.read()
        code = await process.wait()
    lines = [json.loads(line) for line in out.decode().splitlines() if line.strip()]
    assert code == 0, lines
    return [line for line in lines if "over" in line]


async def test_rerunning_bot_and_host_takes_the_seats_back(tmp_path: Path) -> None:
    host_dir, guest_dir = tmp_path / "host", tmp_path / "guest"
    host_args = ["host", "larry", "--seats", "3", "--bots", "1", "--headless", "--short"]
    host_args += ["--bind", "127.0.0.1", "--no-mdns", "--data", str(host_dir)]
    host_args += ["--silence-limit", "120", "--timeout", "240"]
    host = await spawn(*host_args, log=tmp_path / "host.log")
    processes = [host]
    try:
        listening = (await first_line(host))["listening"]
        guest_args = ["bot", "--peer", f"{listening[0]}:{listening[1]}", "--bind", "127.0.0.1"]
        guest_args += ["--data", str(guest_dir), "--silence-limit", "120", "--timeout", "240"]
        guest = await spawn(*guest_args, log=tmp_path / "guest.log")
        processes.append(guest)

        await by_turns((host, guest), lambda: acts(guest_dir) >= 2, "the guest's second action")
        await asyncio.sleep(LOOKS_AWAY_S)  # both stopped: the table waits
        assert not over(guest_dir) and not over(host_dir), "the guest's kill came after the end"
        guest.kill()  # SIGKILL, mid-hand
        await guest.wait()
        seat, played = own_acts(guest_dir)
        go_on(host)
        guest = await spawn(*guest_args, log=tmp_path / "guest.log")  # the same command
        processes.append(guest)

        def played_again() -> bool:  # only the guest's new run signs its next action
            return acts(host_dir, seat) > played

        await by_turns((host, guest), played_again, "the rerun guest's action at the host")
        await asyncio.sleep(LOOKS_AWAY_S)
        assert not over(host_dir) and not over(guest_dir), "the host's kill came after the end"
        host.kill()  # the host and its bot, mid-hand
        await host.wait()
        go_on(guest)
        host = await spawn(*host_args, log=tmp_path / "host.log")
        processes.append(host)
        again = await first_line(host)
        assert again == {"listening": listening, "resumed": True}  # its old port

        finished = await results(host) + await results(guest)
    finally:
        for process in processes:
            if process.returncode is None:
                process.kill()
                await process.wait()
    assert len(finished) == 3 and all(r["over"] and r["fault"] is None for r in finished)
    transcripts = sorted(tmp_path.glob("**/tables/*.transcript"))
    assert len(transcripts) == 3
    reports, disagreement = audit_many(transcripts)
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
