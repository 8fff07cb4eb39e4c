"""A full disk mid-game (ENOSPC, injected into the transcript's writes) stops
that seat with a clear message, keeps everything written, and the seat resumes once there is
space again: the game completes and every transcript audits."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pytest

from fairdeal.p2p.log.transcript import TranscriptWriteError, torn_tail_path
from fairdeal.p2p.table.core.api import Notice
from fairdeal.p2p.table.tools.audit import audit_many, audit_transcript

from .support import open_table, rejoin_seat

pytestmark = pytest.mark.timeout(120)
VICTIM = 1


class FullDisk:
    """The transcript's file on a disk that fills up: the next write gets half its bytes down,
    then ENOSPC, as a real full disk does."""

    def __init__(self, file: Any) -> None:
        self._file = file

    def write(self, data: bytes) -> int:
        self._file.write(data[: len(data) // 2])
        self._file.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


async def test_a_full_disk_stops_the_seat_keeps_what_was_written_and_it_resumes(
    tmp_path: Path,
) -> None:
    table = await open_table(3, tmp_path, seed=3, silence_limit=60.0)
    try:
        victim = table.peers[VICTIM]
        await victim.sync.wait_until(lambda: victim.table.applied >= 40, timeout=60)
        transcript = victim.sync.transcript
        transcript._file = FullDisk(transcript._file)
        with pytest.raises(TranscriptWriteError, match="no space left on the disk"):
            await victim.finished(timeout=60)
        notices = [e.text for e in victim.history.events if isinstance(e, Notice)]
        assert any("no space left" in text and "same command again" in text for text in notices)
        await victim.close()
        await table.meshes[VICTIM].close()

        path = table.transcript(VICTIM)
        kept = audit_transcript(path)  # what was written is intact, up to a torn record
        assert kept.verified and kept.incomplete and kept.ignored_bytes > 0, kept.fault
        on_disk = path.read_bytes()

        # Space again: the seat restarts from its files (as `fairdeal resume` does).
        await rejoin_seat(table, VICTIM, tmp_path, seed=3)
        for peer in table.peers:
            await peer.finished(timeout=60)
        aside = torn_tail_path(path, len(on_disk) - kept.ignored_bytes)
        assert on_disk.endswith(aside.read_bytes())  # the torn bytes were kept aside
    finally:
        await table.close()
    reports, disagreement = audit_many([table.transcript(s) for s in range(3)])
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
