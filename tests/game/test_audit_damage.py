"""`fairdeal audit` never calls a damaged file verified, and never changes it.

Only a genuinely torn last record is a crash's tail (the report says "incomplete" and how many
bytes it ignored); an enlarged or impossible length prefix in the middle, bytes appended, a
changed header seat, a second header, or a file cut before the fault its `.faults` file records
all fail, naming the byte offset where there is one."""

from __future__ import annotations

import hashlib
import random
import shutil
import struct
from pathlib import Path

import msgpack
import pytest

from fairdeal.p2p.log.records import MAX_RECORD_SIZE, MAX_TRANSCRIPT_SIZE
from fairdeal.p2p.table.runtime.peer import evidence_path
from fairdeal.p2p.table.tools.audit import AuditReport, audit_transcript
from fairdeal.ui.cli import main

from .cheaters import OverLimitBot
from .support import play_a_game


def _play(directory: Path, seats: int, **kwargs) -> None:
    play_a_game(seats, directory, seed=11, **kwargs)


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("honest")
    _play(directory, 3)
    return directory / "seat1" / "table.transcript"


@pytest.fixture(scope="module")
def cheated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("cheated")
    _play(directory, 3, wrap={0: OverLimitBot})
    return directory / "seat1" / "table.transcript"


def frames(data: bytes) -> list[tuple[int, int]]:
    """(offset, payload length) of each record."""
    out, offset = [], 0
    while offset < len(data):
        (length,) = struct.unpack_from(">I", data, offset)
        out.append((offset, length))
        offset += 4 + length
    return out


def damaged(tmp_path: Path, data: bytes, name: str = "table.transcript") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def audit_unchanged(path: Path) -> AuditReport:
    """Audit `path` and check that the audit did not change a byte of it."""
    before = hashlib.sha256(path.read_bytes()).digest()
    report = audit_transcript(path)
    assert hashlib.sha256(path.read_bytes()).digest() == before
    return report


def test_the_honest_transcript_verifies(honest: Path) -> None:
    report = audit_unchanged(honest)
    assert report.verified and report.over and not report.incomplete
    assert report.ignored_bytes == 0


@pytest.mark.parametrize("extra", [1, 9, 300])
def test_an_enlarged_middle_length_prefix_fails_at_its_offset(
    honest: Path, tmp_path: Path, extra: int
) -> None:
    data = honest.read_bytes()
    offset, length = frames(data)[len(frames(data)) // 2]
    bad = bytearray(data)
    struct.pack_into(">I", bad, offset, length + extra)
    report = audit_unchanged(damaged(tmp_path, bytes(bad)))
    assert not report.verified
    assert report.fault.seat is None and report.fault.offset == offset, report.fault


def test_a_middle_length_prefix_past_the_end_fails_at_its_offset(
    honest: Path, tmp_path: Path
) -> None:
    """The enlarged prefix swallows every later record: it is not a torn tail."""
    data = honest.read_bytes()
    offset, _ = frames(data)[len(frames(data)) // 2]
    bad = bytearray(data)
    struct.pack_into(">I", bad, offset, len(data))  # reaches past the end of the file
    report = audit_unchanged(damaged(tmp_path, bytes(bad)))
    assert not report.verified and report.fault.offset == offset, report.fault


def test_an_impossible_middle_length_prefix_fails_at_its_offset(
    honest: Path, tmp_path: Path
) -> None:
    data = honest.read_bytes()
    offset, _ = frames(data)[5]
    bad = bytearray(data)
    struct.pack_into(">I", bad, offset, MAX_RECORD_SIZE + 1)
    report = audit_unchanged(damaged(tmp_path, bytes(bad)))
    assert not report.verified and report.fault.offset == offset
    assert "impossible length" in str(report.fault)


@pytest.mark.parametrize("seed", range(8))
def test_random_bytes_appended_fail_at_their_offset(
    honest: Path, tmp_path: Path, seed: int
) -> None:
    data = honest.read_bytes()
    junk = random.Random(seed).randbytes(random.Random(seed).randint(4, 400))
    report = audit_unchanged(damaged(tmp_path, data + junk))
    assert not report.verified, report.result_text()
    assert report.fault.offset == len(data), report.fault


def test_a_changed_header_seat_fails(honest: Path, tmp_path: Path) -> None:
    data = honest.read_bytes()
    _, length = frames(data)[0]
    header = msgpack.unpackb(data[4 : 4 + length], raw=False)
    assert header["seat"] == 1
    for seat in (0, 2, 7):
        header["seat"] = seat
        payload = msgpack.packb(header, use_bin_type=True)
        path = damaged(tmp_path, struct.pack(">I", len(payload)) + payload + data[4 + length :])
        report = audit_unchanged(path)
        assert not report.verified, seat
        assert report.fault.seat is None, report.fault


def test_a_second_header_record_fails_at_its_offset(honest: Path, tmp_path: Path) -> None:
    data = honest.read_bytes()
    _, length = frames(data)[0]
    header = data[: 4 + length]
    offset, _ = frames(data)[10]
    report = audit_unchanged(damaged(tmp_path, data[:offset] + header + data[offset:]))
    assert not report.verified and report.fault.offset == offset
    assert "second header" in report.fault.what


@pytest.mark.parametrize("cut", [1, 3, 4, 5, 40])
def test_a_torn_last_record_is_incomplete_and_counts_the_ignored_bytes(
    honest: Path, tmp_path: Path, cut: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a crash leaves: the last record's first `cut` bytes."""
    data = honest.read_bytes()
    offset, _ = frames(data)[-30]
    path = damaged(tmp_path, data[: offset + cut])
    report = audit_unchanged(path)
    assert report.verified and report.incomplete and not report.over
    assert report.ignored_bytes == cut
    assert "incomplete: the log stops mid-game" in report.result_text()
    assert f"last {cut} byte(s) are a torn record" in report.result_text()
    assert main(["audit", str(path)]) == 0
    assert "incomplete" in capsys.readouterr().out


def test_a_file_cut_before_a_recorded_fault_is_not_verified(cheated: Path, tmp_path: Path) -> None:
    whole = audit_unchanged(cheated)
    assert not whole.verified and whole.fault.seat == 0  # the over-limit announcement
    data = cheated.read_bytes()
    offset, _ = frames(data)[-1]  # the cheater's envelope, applied as evidence
    copy = damaged(tmp_path, data[:offset])
    shutil.copy(evidence_path(cheated), evidence_path(copy))
    report = audit_unchanged(copy)
    assert not report.verified, report.result_text()
    assert report.fault.seat == 0 and "above the limit" in report.fault.what, report.fault
    cut_more = damaged(tmp_path, data[: frames(data)[-5][0]], "cut-more.transcript")
    shutil.copy(evidence_path(cheated), evidence_path(cut_more))
    report = audit_unchanged(cut_more)
    assert not report.verified and report.fault.seat is None
    assert "ends before a fault" in report.fault.what


def test_a_file_over_the_size_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.transcript"
    with open(path, "wb") as file:
        file.truncate(MAX_TRANSCRIPT_SIZE + 1)  # sparse: no disk used
    report = audit_unchanged(path)
    assert not report.verified and report.fault.offset == 0
    assert "cap" in report.fault.evidence


def test_a_directory_or_unreadable_file_is_a_clear_fault(tmp_path: Path) -> None:
    report = audit_transcript(tmp_path)
    assert not report.verified and "cannot read" in report.fault.what


def test_joins_with_a_first_seat_other_than_0_fail(tmp_path: Path) -> None:
    """protocol.md 10.1: the joins carry first_seat 0, as every peer
    requires; the audit used to take any first_seat seat 0's join named."""

    from fairdeal.engine.larry import LarryOptions
    from fairdeal.p2p.games.larry.table import JOIN, options_for_join
    from fairdeal.p2p.log.tablelog import Roster, TableLog, seat_order
    from fairdeal.p2p.log.transcript import Transcript

    from .support import identity

    ids = [identity(s) for s in range(2)]
    roster = Roster(b"\x09" * 16, tuple(i.key for i in ids))
    good = options_for_join(LarryOptions(short_game=True))
    for first_seat, verified in ((0, True), (1, False)):
        path = tmp_path / f"first{first_seat}.transcript"
        transcript = Transcript.create(path, roster, 0)
        log = TableLog(roster, seat_order([0, 1]))
        log.on_applied(transcript.append_applied)
        options = good if first_seat == 0 else {**good, "first_seat": first_seat}
        for seat in (0, 1):
            body = {"game": "larry", "seats": 2, "options": options}
            log.receive(log.author(ids[seat], seat, JOIN, body))
        transcript.close()
        report = audit_unchanged(path)
        assert report.verified is verified, report.fault
        if not verified:
            assert report.fault.seat == 0 and "first_seat is 1" in report.fault.evidence
