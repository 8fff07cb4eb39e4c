"""Clear errors, never a traceback, for bad identity files and data
directories, from every command that reads them."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from fairdeal.p2p.identity import Identity
from fairdeal.ui.cli import explain, main

IDENTITY = "identity.json"


def make_identity(directory: Path, how: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / IDENTITY
    if how == "directory":
        path.mkdir(mode=0o700)
        return path
    Identity.generate("Ann", lambda n: b"\x01" * n).save(directory)
    if how == "damaged":
        path.write_bytes(path.read_bytes()[:20])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "wrong-mode":
        path.chmod(0o644)
    elif how == "not-a-map":
        path.write_text(json.dumps([1, 2, 3]))
    return path


COMMANDS = {
    "bot": ["bot", "--peer", "127.0.0.1:9", "--bind", "127.0.0.1", "--timeout", "5"],
    "host": [
        "host",
        "larry",
        "--seats",
        "2",
        "--headless",
        "--bind",
        "127.0.0.1",
        "--no-mdns",
        "--timeout",
        "5",
    ],
    "play": ["play", "--lobby"],
}


@pytest.mark.parametrize("how", ["damaged", "empty", "wrong-mode", "directory", "not-a-map"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_bad_identity_file_is_a_clear_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    how: str,
    command: str,
) -> None:
    if command == "play":  # the app (it would need a terminal; it fails before it runs)
        from fairdeal.ui.commands import play

        tty = SimpleNamespace(isatty=lambda: True)
        monkeypatch.setattr(play, "sys", SimpleNamespace(stdin=tty, stdout=tty))
    data = tmp_path / "data"
    path = make_identity(data, how)
    before = path.read_bytes() if path.is_file() else None
    flag = "--data-dir" if command == "play" else "--data"
    assert main([*COMMANDS[command], flag, str(data)]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"fairdeal {command}: ") and str(path) in error, error
    assert "Traceback" not in error
    assert (path.read_bytes() if path.is_file() else None) == before  # left as it was


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only directories")
def test_a_read_only_data_directory_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o500)
    try:
        assert main([*COMMANDS["bot"], "--data", str(data)]) == 1
    finally:
        data.chmod(0o700)
    error = capsys.readouterr().err
    assert "cannot write" in error and "Traceback" not in error


def test_a_data_directory_that_refuses_writes_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same as root, where permissions do not stop writes: the write itself fails."""
    from fairdeal.p2p import identity

    def refuse(path: Path, data: bytes) -> None:
        raise PermissionError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr(identity, "write_private_file", refuse)
    assert main([*COMMANDS["bot"], "--data", str(tmp_path / "data")]) == 1
    error = capsys.readouterr().err
    assert f"cannot write {tmp_path / 'data' / IDENTITY}" in error and "Traceback" not in error


def test_disk_errors_are_explained_with_what_to_do() -> None:
    full = OSError(errno.ENOSPC, "No space left on device", "/data/tables/x.transcript")
    assert "no space left" in explain(full) and "/data/tables/x.transcript" in explain(full)
    assert "free some space" in explain(full)
    read_only = PermissionError(errno.EACCES, "Permission denied", "/data/secrets")
    assert "cannot write /data/secrets" in explain(read_only)
    assert "timed out" in explain(TimeoutError())
