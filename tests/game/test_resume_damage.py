"""`fairdeal resume` never destroys a record.

A transcript damaged in the middle is refused with a clear error naming the byte offset, and the
file is left exactly as it was; a torn last record is kept aside before it is cut off; and a
seat killed in its very first moment (the transcript just created, before seat 0's join) can
resume too."""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import struct
from pathlib import Path

import pytest

from fairdeal.p2p.log.transcript import Transcript, TranscriptError, torn_tail_path
from fairdeal.p2p.table.tools.resume import CannotResume, resume_point
from fairdeal.ui.cli import main

from .support import identity, play_a_game

SEAT = 1


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 3-seat game; seat 1's data directory holds its identity file too."""
    directory = tmp_path_factory.mktemp("played")
    play_a_game(3, directory, seed=5)
    identity(SEAT).save(directory / f"seat{SEAT}")
    return directory / f"seat{SEAT}"


def frames(data: bytes) -> list[int]:
    """The offset of each record."""
    out, offset = [], 0
    while offset < len(data):
        out.append(offset)
        offset += 4 + struct.unpack_from(">I", data, offset)[0]
    return out


def seat_copy(played: Path, tmp_path: Path, data: bytes) -> tuple[Path, Path]:
    """A data directory like seat 1's, with `data` as its transcript."""
    directory = tmp_path / "data"
    directory.mkdir()
    shutil.copy(played / "identity.json", directory / "identity.json")
    shutil.copy(played / "secrets", directory / "secrets")
    (directory / "secrets").chmod(0o600)
    (directory / "identity.json").chmod(0o600)
    path = directory / "table.transcript"
    path.write_bytes(data)
    return directory, path


def mid_game(played: Path) -> bytes:
    """Seat 1's transcript cut at a record boundary in the middle of the game."""
    data = (played / "table.transcript").read_bytes()
    return data[: frames(data)[len(frames(data)) // 2]]


def digest(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


def test_a_mid_game_transcript_resumes(played: Path, tmp_path: Path) -> None:
    directory, path = seat_copy(played, tmp_path, mid_game(played))
    point = resume_point(path, directory)
    assert point.seat == SEAT


@pytest.mark.parametrize(
    "how", ["enlarged", "past-the-end", "impossible", "flipped", "appended", "appended-long"]
)
def test_a_damaged_transcript_is_refused_and_left_untouched(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    data = bytearray(mid_game(played))
    offsets = frames(bytes(data))
    at = offsets[len(offsets) // 2]
    if how == "enlarged":
        struct.pack_into(">I", data, at, struct.unpack_from(">I", data, at)[0] + 1000)
    elif how == "past-the-end":  # the case that cut 99,713 bytes to 81,121
        struct.pack_into(">I", data, at, len(data))
    elif how == "impossible":
        struct.pack_into(">I", data, at, 0xFFFFFFF0)
    elif how == "flipped":
        data[at + 4] ^= 0xFF  # no longer a map
    elif how == "appended":
        at = len(data)
        data += b"\x00\x00\x00\x09\xc1garbage!"
    else:  # a plausible prefix over bytes that are not a record's start
        at = len(data)
        data += b"\x00\x01\x00\x00" + bytes(range(7, 200))
    directory, path = seat_copy(played, tmp_path, bytes(data))
    before = digest(path)
    assert main(["resume", str(path), "--data-dir", str(directory)]) == 1
    error = capsys.readouterr().err
    assert f"byte {at}" in error and str(path) in error and "Traceback" not in error
    with pytest.raises(TranscriptError, match=f"byte {at}"):
        Transcript.reopen(path)  # what the restarted peer itself does
    assert digest(path) == before
    assert sorted(p.name for p in directory.iterdir()) == [
        "identity.json",
        "secrets",
        "table.transcript",
    ]


def test_a_torn_last_record_is_kept_aside_before_it_is_cut(played: Path, tmp_path: Path) -> None:
    whole = mid_game(played)
    last = frames(whole)[-1]
    torn = whole[: last + 25]
    directory, path = seat_copy(played, tmp_path, torn)
    assert resume_point(path, directory).seat == SEAT  # reading changes nothing
    assert path.read_bytes() == torn
    transcript, _contents = Transcript.reopen(path)
    transcript.close()
    aside = torn_tail_path(path, last)
    assert path.read_bytes() + aside.read_bytes() == torn  # every byte is still on disk


@pytest.mark.parametrize("records", [1, 2])
def test_a_seat_killed_in_its_first_moment_can_resume(
    played: Path, tmp_path: Path, records: int
) -> None:
    """The header alone, or with seat 0's roster envelope: the game has not begun."""
    data = (played / "table.transcript").read_bytes()
    directory, path = seat_copy(played, tmp_path, data[: frames(data)[records]])
    before = digest(path)
    point = resume_point(path, directory)
    assert point.seat == SEAT
    assert digest(path) == before


def test_an_empty_transcript_is_a_clear_error(played: Path, tmp_path: Path) -> None:
    directory, path = seat_copy(played, tmp_path, b"")
    with pytest.raises(CannotResume, match="no header"):
        resume_point(path, directory)


async def test_a_read_only_data_directory_never_freezes_resume(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 10: the seat cannot reopen its transcript for writing (a read-only disk, as root
    sees it: the open fails). The app is told so at once instead of "Setting up the table"."""
    import errno

    from fairdeal.p2p.table.core.api import Notice
    from fairdeal.p2p.table.tools.session import NetworkSettings, resume_table

    directory, path = seat_copy(played, tmp_path, mid_game(played))
    before = digest(path)

    def read_only(cls: type, transcript: Path) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(transcript))

    monkeypatch.setattr(Transcript, "reopen", classmethod(read_only))
    session = resume_table(
        path, NetworkSettings(data_dir=directory, bind="127.0.0.1", advertise=False)
    )
    await session.start()
    try:
        async with asyncio.timeout(30):
            async for _event in session.events():
                pass  # ends when the session closes its history
        texts = [e.text for e in session.history.events if isinstance(e, Notice)]
        assert any("Could not set up the table" in t and "Read-only" in t for t in texts), texts
    finally:
        await session.close()
    assert digest(path) == before


def test_resume_refuses_an_unwritable_transcript_up_front(
    played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory, path = seat_copy(played, tmp_path, mid_game(played))
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode: False if Path(p) == path else real_access(p, mode)
    )
    with pytest.raises(CannotResume, match="not writable"):
        resume_point(path, directory)


def test_opening_the_hosted_table_again_in_the_app_takes_seat_0_back(tmp_path: Path) -> None:
    """Item 9: the app's host_table with a data directory holding its unfinished table resumes
    it instead of opening a new one; once the game is over (`.done`), it opens a new table."""
    from fairdeal.engine.larry import LarryOptions
    from fairdeal.p2p.log.transcript import done_marker
    from fairdeal.p2p.table.tools.session import NetworkSettings, host_table

    source = tmp_path / "played"

    play_a_game(2, source, seed=8)
    data = tmp_path / "data"
    (data / "tables").mkdir(parents=True)
    identity(0).save(data)
    shutil.copy(source / "seat0" / "secrets", data / "secrets")
    whole = (source / "seat0" / "table.transcript").read_bytes()
    path = data / "tables" / "t.transcript"
    path.write_bytes(whole[: frames(whole)[len(frames(whole)) // 2]])
    settings = NetworkSettings(data_dir=data, bind="127.0.0.1", advertise=False)
    options = LarryOptions(short_game=True)
    resumed = host_table(seats=2, bots=0, options=options, name="peer0", settings=settings)
    assert resumed._transcript == path and resumed.seat == 0
    done_marker(path).touch()
    fresh = host_table(seats=2, bots=0, options=options, name="peer0", settings=settings)
    assert fresh._transcript is None
