"""Headless tables played by `fairdeal` processes (`host --headless` and `bot`), each printing
its result as one JSON line, and the checks every such game must pass: one game, played to its
end by every seat, whose transcripts audit as verified and agree."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from fairdeal.p2p.table.tools.audit import audit_many
from tests.p2p.netns import VirtualLan

ROOT = Path(__file__).resolve().parents[2]


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "fairdeal", *args]


def host_with_a_bot_from_another_process(
    directory: Path,
    host: tuple[str, ...],
    data: str,
    timeout: float,
    guest_options: tuple[str, ...] = (),
) -> list[dict[str, Any]]:
    """Run `fairdeal host <host> --headless` on loopback and one `fairdeal bot --peer` joining
    it (with `guest_options`); `data` is the data folder's option (both spellings are
    accepted). Returns every seat's result line, the guest's first. What each process logged
    is left in `directory`: host.err and guest.err."""
    host_log = (directory / "host.err").open("w")
    server = subprocess.Popen(
        command(
            *host,
            *("--headless", "--no-mdns", "--bind", "127.0.0.1", data, str(directory / "host")),
            *("--timeout", str(timeout)),
        ),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=host_log,
        text=True,
    )
    try:
        assert server.stdout is not None
        listening = json.loads(server.stdout.readline())["listening"]
        guest = subprocess.run(
            command(
                *("bot", "--peer", f"127.0.0.1:{listening[1]}", "--bind", "127.0.0.1"),
                *(data, str(directory / "guest"), "--timeout", str(timeout)),
                *guest_options,
            ),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=timeout + 10,
        )
        (directory / "guest.err").write_text(guest.stderr)
        assert guest.returncode == 0, guest.stderr[-2000:]
        results = [json.loads(guest.stdout.strip().splitlines()[-1])]
        results += [json.loads(line) for line in server.stdout.read().splitlines()]
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
        host_log.close()
    return results


def _result_line(line: str) -> bool:
    return line.startswith('{"seat"')


def play_on_a_virtual_lan(
    directory: Path, seats: int, host: tuple[str, ...], table: str, data: str, wait: float
) -> list[dict[str, Any]]:
    """One peer in each of `seats` network namespaces: `fairdeal host <host> --headless` names
    its table `table`, the others are bots that find it by mDNS. Returns every seat's result."""
    env = {"PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "HOME": str(directory)}
    with VirtualLan(seats) as lan:
        first, *guests = lan.hosts
        processes = [
            lan.spawn(
                first,
                command(
                    *host,
                    *("--seats", str(seats), "--headless", "--name", table),
                    *(data, str(directory / "seat-host"), "--timeout", str(wait)),
                ),
                name="host",
                env=env,
                cwd=ROOT,
            )
        ]
        for index, guest in enumerate(guests, start=1):
            processes.append(
                lan.spawn(
                    guest,
                    command(
                        *("bot", "--table", table, data, str(directory / f"g{index}")),
                        *("--timeout", str(wait)),
                    ),
                    name=f"guest{index}",
                    env=env,
                    cwd=ROOT,
                )
            )
        return [json.loads(p.expect(_result_line, wait)) for p in processes]


def assert_one_verified_game(results: list[dict[str, Any]], seats: int) -> None:
    """Every seat played the game to its end without a fault, with one result everywhere (T10);
    the transcripts audit as verified, over and agreeing, each opening with the roster every
    seat signed (the game and its options)."""
    assert sorted(r["seat"] for r in results) == list(range(seats))
    assert all(r["over"] and r["fault"] is None for r in results), results
    assert len({tuple(r["scores"]) for r in results}) == 1
    files = [Path(r["transcript"]) for r in results]
    assert all(os.path.exists(f) for f in files)
    reports, disagreement = audit_many(files)
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
    assert all(r.signed_roster for r in reports)
