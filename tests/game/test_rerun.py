"""Rejoining as the README says — run the same command again with the same data
directory — works for `fairdeal bot --peer …` and for a headless `fairdeal host` (which listens
on its old port again, its bots with it). Real processes, SIGKILLed mid-hand; the game completes
and every transcript audits and agrees."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from fairdeal.p2p.log.transcript import TranscriptError, load_transcript
from fairdeal.p2p.table.audit import audit_many

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]
WAIT_S = 90.0


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


def acts(data: Path) -> int:
    """How many actions the seat's transcript in `data` holds (0 while there is none)."""
    for path in (data / "tables").glob("*.transcript"):
        try:
            contents = load_transcript(path)
        except (TranscriptError, OSError):
            return 0
        return sum(1 for e in contents.applied if e.kind == "larry.act")
    return 0


async def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)  # polling files another process writes


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

        await until(lambda: acts(guest_dir) >= 2, "the guest's second action")
        guest.kill()  # SIGKILL, mid-hand
        await guest.wait()
        guest = await spawn(*guest_args, log=tmp_path / "guest.log")  # the same command
        processes.append(guest)

        before = acts(host_dir)
        await until(lambda: acts(host_dir) >= before + 2, "two more actions at the host")
        host.kill()  # the host and its bot, mid-hand
        await host.wait()
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
