"""The command line names what went wrong in words: an address nobody listens on
is "nothing is listening at HOST:PORT", and an audit of a file that cannot be read says "cannot
read", never FAULT (no seat is at fault when there is nothing to audit)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from fairdeal.ui.cli import main


def dead_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_bot_dialling_a_dead_address_says_nothing_is_listening(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = dead_port()
    argv = ["bot", "--peer", f"127.0.0.1:{port}", "--bind", "127.0.0.1", "--data", str(tmp_path)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"fairdeal bot: nothing is listening at 127.0.0.1:{port}" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("what", ["missing", "directory"])
def test_audit_of_a_file_it_cannot_read_says_cannot_read(
    what: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "table.transcript"
    if what == "directory":
        path.mkdir()
    assert main(["audit", str(path)]) == 2
    out, err = capsys.readouterr()
    assert f"{path}: cannot read:" in err and "FAULT" not in out + err
    assert main(["audit", "--json", str(path)]) == 2
    assert '"cannot_read"' in capsys.readouterr().out
