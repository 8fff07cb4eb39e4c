"""A table's transcript is private like the identity, in any data directory:
`tables/` is created 0700 and every transcript and its fault evidence 0600, whatever the umask
and the mode of a directory made with `--data-dir`."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.log.transcript import Transcript, open_private


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The usual umask (022), which makes new files 0644 unless the code says otherwise."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def test_a_new_transcript_and_its_folder_are_private(tmp_path: Path, open_umask: None) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)  # what `mkdir DIR` gives before `fairdeal play --data-dir DIR`
    roster = Roster(b"t" * 16, (Identity.generate("a").key, Identity.generate("b").key))
    transcript = Transcript.create(data / "tables" / "abc.transcript", roster, 0)
    transcript.close()
    assert mode(data / "tables") == 0o700
    assert mode(data / "tables" / "abc.transcript") == 0o600


def test_an_evidence_file_opened_for_appending_is_made_private(
    tmp_path: Path, open_umask: None
) -> None:
    path = tmp_path / "abc.transcript.faults"
    path.write_bytes(b"old")
    path.chmod(0o644)  # written by an older version
    with open_private(path, append=True) as file:
        file.write(b"new")
    assert mode(path) == 0o600 and path.read_bytes() == b"oldnew"
    with pytest.raises(FileExistsError):  # a new transcript never overwrites one
        open_private(path)
