"""Commands say what happened instead of doing something else or dumping a traceback:
`play --lobby` without a terminal refuses (it used to start a plain Larry game), a reader that
stops reading (`| head`) ends the command quietly with status 141 (it used to say "Broken
pipe"), a simulated peer on a damaged transcript prints one line (it used to print a
TranscriptError traceback), and `bot --table NAME` with no such table says so (it used to say
"timed out (is the other side there?)")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import fairdeal.p2p.table.runtime.gather as gather
from fairdeal.p2p.lobby.discovery import DiscoveredTable, TableAd
from fairdeal.p2p.table.tools.simulate import Simulation
from fairdeal.ui.cli import BROKEN_PIPE_STATUS, main

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize(
    "argv", [["play", "--lobby"], ["play", "--seats", "3", "--bots", "1"]], ids=["lobby", "network"]
)
def test_the_app_only_modes_of_play_refuse_without_a_terminal(
    argv: list[str], tmp_path: Path
) -> None:
    # pytest's stdin and stdout are not terminals
    with pytest.raises(SystemExit, match="needs a terminal on stdin and stdout"):
        main([*argv, "--data-dir", str(tmp_path)])


def test_a_reader_that_stops_ends_play_quietly() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "fairdeal", "play", "--plain", "--seats", "2", "--seed", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stdin is not None
    process.stdout.readline()
    process.stdout.close()  # `| head -1`
    try:
        process.stdin.write(b"1\n" * 50)  # the game goes on and writes to the closed pipe
        process.stdin.close()
    except BrokenPipeError:  # it may already have ended
        pass
    assert process.wait(timeout=30) == BROKEN_PIPE_STATUS
    assert process.stderr is not None
    err = process.stderr.read().decode()
    assert "Broken pipe" not in err and "Traceback" not in err, err


def test_a_simulated_peer_on_a_damaged_transcript_says_so_in_one_line(tmp_path: Path) -> None:
    simulation = Simulation(2, tmp_path / "sim")
    seat = tmp_path / "sim" / "seat0"
    (seat / "table.transcript").write_bytes(b"\x00\x00\x00\x05not a transcript")
    command = [
        sys.executable,
        "-m",
        "fairdeal.p2p.table.tools.sim_peer",
        "--plan",
        str(simulation.plan),
    ]
    result = subprocess.run(
        [*command, "--data", str(seat)],
        input=json.dumps({"addresses": [], "dial": "all"}) + "\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr, result.stderr
    assert "cannot be resumed" in result.stderr
    last = json.loads(result.stdout.strip().splitlines()[-1])
    assert "cannot be resumed" in last["error"]


class _NothingFound:
    """A browser that sees only a table of another name, then times out."""

    def __init__(self, _zeroconf: object) -> None:
        ad = TableAd("0123abcd" * 4, "Friday", "larry", 1, 4, "00ff00ff00ff00ff")
        self.tables = {
            "Friday": DiscoveredTable("Friday._fairdeal._tcp.local.", ad, ("192.0.2.7",), 1)
        }

    async def start(self) -> None:
        pass

    async def wait_for(self, _predicate: Any, timeout: float) -> None:
        raise TimeoutError

    async def close(self) -> None:
        pass


class _Zeroconf:
    async def async_close(self) -> None:
        pass


def test_bot_with_no_such_table_says_no_table_of_that_name_was_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(gather, "TableBrowser", _NothingFound)
    monkeypatch.setattr(gather, "open_zeroconf", lambda _interfaces=None: _Zeroconf())
    code = main(["bot", "--table", "Saturday", "--timeout", "1", "--data-dir", str(tmp_path)])
    assert code == 1
    err = capsys.readouterr().err
    assert "no table named 'Saturday' was found on the network in 1 s" in err
    assert "tables seen: Friday" in err and "timed out" not in err
