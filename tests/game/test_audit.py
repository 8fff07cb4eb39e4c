"""`fairdeal audit`: honest transcripts verify and agree; any one envelope altered, dropped or
moved fails with the right seat named."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import msgpack
import pytest

from fairdeal.p2p.log.envelope import sign_envelope
from fairdeal.p2p.table.tools.audit import audit_many, audit_transcript
from fairdeal.ui.cli import main

from .records import (
    applied_indices,
    read_records,
    seat_of,
    swap_two_seats_envelopes,
    write_records,
)
from .support import identity, play_a_game


@pytest.fixture(scope="module")
def game_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("game")
    play_a_game(3, directory, seed=7)
    return directory


def transcripts(directory: Path) -> list[Path]:
    return sorted(directory.glob("seat*/table.transcript"))


def test_every_transcript_verifies_and_they_agree(game_dir: Path, capsys) -> None:
    files = transcripts(game_dir)
    reports, disagreement = audit_many(files)
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
    assert len({tuple(r.scores) for r in reports}) == 1
    assert main(["audit", *map(str, files)]) == 0
    assert "verified" in capsys.readouterr().out
    assert main(["audit", "--json", *map(str, files)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verified"] and report["disagreement"] is None
    assert [t["scores"] for t in report["transcripts"]] == [list(reports[0].scores)] * 3


@pytest.mark.parametrize("position", [5, 17, 40])
def test_an_altered_envelope_names_its_seat(game_dir: Path, tmp_path: Path, position: int) -> None:
    records = read_records(transcripts(game_dir)[0])
    index = applied_indices(records)[position]
    record = records[index]
    signed = bytearray(record["d"])
    signed[-1] ^= 0x01  # the last byte of the body
    record["d"] = bytes(signed)
    path = tmp_path / "altered.transcript"
    write_records(path, records)
    report = audit_transcript(path)
    assert not report.verified
    assert report.fault.seat == seat_of(records[index])
    assert report.fault.entry == position
    assert main(["audit", str(path)]) == 1


@pytest.mark.parametrize("position", [3, 20, 45])
def test_a_dropped_envelope_names_its_seat(game_dir: Path, tmp_path: Path, position: int) -> None:
    records = read_records(transcripts(game_dir)[1])
    index = applied_indices(records)[position]
    dropped = records.pop(index)
    path = tmp_path / "dropped.transcript"
    write_records(path, records)
    report = audit_transcript(path)
    assert not report.verified
    assert report.fault.seat == seat_of(dropped)
    assert "missing" in report.fault.what


@pytest.mark.parametrize("position", [4, 30, 50])
def test_a_moved_envelope_names_its_seat(game_dir: Path, tmp_path: Path, position: int) -> None:
    records = read_records(transcripts(game_dir)[2])
    at, first = swap_two_seats_envelopes(records, position)
    path = tmp_path / "moved.transcript"
    write_records(path, records)
    report = audit_transcript(path)
    assert not report.verified
    assert report.fault.seat == seat_of(records[first])  # the envelope now out of its place
    assert report.fault.entry == at


def test_every_transcript_carries_the_signed_roster(game_dir: Path) -> None:
    for path in transcripts(game_dir):
        report = audit_transcript(path)
        assert report.signed_roster and report.verified
        records = read_records(path)
        first = msgpack.unpackb(records[applied_indices(records)[0]]["d"], raw=False)
        assert first[2] == 0 and first[5] == "roster"  # seat 0's roster opens the log


@pytest.mark.parametrize("seat", [0, 2])
def test_a_tampered_roster_signature_names_its_seat(
    game_dir: Path, tmp_path: Path, seat: int
) -> None:
    records = read_records(transcripts(game_dir)[1])
    signatures = records[0]["extra"]["signed_roster"]["signatures"]
    signatures[seat] = bytes([signatures[seat][0] ^ 0x01]) + signatures[seat][1:]
    path = tmp_path / "forged-roster.transcript"
    write_records(path, records)
    report = audit_transcript(path)
    assert not report.verified
    assert report.fault.seat == seat
    assert "roster signature" in report.fault.what
    assert main(["audit", str(path)]) == 1


def test_a_signed_roster_of_other_players_is_refused(game_dir: Path, tmp_path: Path) -> None:
    records = read_records(transcripts(game_dir)[0])
    keys = records[0]["roster"]
    records[0]["roster"] = [keys[1], keys[0], *keys[2:]]  # the header seats them differently
    path = tmp_path / "swapped.transcript"
    write_records(path, records)
    report = audit_transcript(path)
    assert not report.verified
    assert "not this transcript's table" in report.fault.what


def test_an_honest_transcript_records_protocol_version_5(game_dir: Path) -> None:
    assert all(read_records(path)[0]["proto"] == 5 for path in transcripts(game_dir))


def _as_version_4(header: dict) -> None:
    header["proto"] = 4  # version 4 bounded held envelopes by count only, not by bytes


def _as_version_3(header: dict) -> None:
    header["proto"] = 3  # version 3 sent the shuffle proof's challenge, not its commitments


def _as_version_2(header: dict) -> None:
    header["proto"] = 2  # version 2 sent no relayed envelopes and had another Phase 1


def _as_version_1(header: dict) -> None:
    del header["proto"]  # a version 1 header: the field did not exist


@pytest.mark.parametrize(
    ("version", "make_old"),
    [(4, _as_version_4), (3, _as_version_3), (2, _as_version_2), (1, _as_version_1)],
)
def test_a_transcript_of_an_older_protocol_version_is_refused_naming_its_version(
    game_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    version: int,
    make_old: Callable[[dict], None],
) -> None:
    """Refused before any proof is checked, naming the version that made it."""
    records = read_records(transcripts(game_dir)[0])
    make_old(records[0])
    path = tmp_path / f"v{version}.transcript"
    write_records(path, records)
    report = audit_transcript(path)
    assert not report.verified
    assert report.fault.what == "another protocol version"
    assert f"made by protocol version {version}" in report.fault.evidence
    assert main(["audit", str(path)]) == 1
    assert f"made by protocol version {version}" in capsys.readouterr().out


def test_a_log_without_the_roster_envelope_names_seat_0(game_dir: Path, tmp_path: Path) -> None:
    records = read_records(transcripts(game_dir)[2])
    del records[applied_indices(records)[0]]  # seat 0's roster envelope
    path = tmp_path / "no-roster.transcript"
    write_records(path, records)
    report = audit_transcript(path)
    assert not report.verified
    assert report.fault.seat == 0


def test_transcripts_of_different_games_disagree(game_dir: Path, tmp_path: Path) -> None:
    files = transcripts(game_dir)
    records = read_records(files[0])
    cut = applied_indices(records)[10]
    write_records(tmp_path / "prefix.transcript", records[:cut])
    reports, disagreement = audit_many([files[0], tmp_path / "prefix.transcript"])
    assert disagreement is None  # a prefix of the same log agrees
    assert not reports[1].over


def test_an_envelope_larger_than_its_kind_can_carry_is_its_authors_fault(
    game_dir: Path, tmp_path: Path
) -> None:
    """No peer applies an envelope over its kind's cap (protocol.md 4.4 "Sizes"), so neither
    does the audit: an action padded past 4096 bytes, signed by its seat, names that seat."""
    records = read_records(transcripts(game_dir)[0])
    at = next(i for i in applied_indices(records) if decode(records[i])[5] == "larry.act")
    _layout, table, seat, seq, prev, kind, body = decode(records[at])
    padded = sign_envelope(
        identity(seat),
        table=table,
        seat=seat,
        seq=seq,
        prev=prev,
        kind=kind,
        body={**body, "pad": b"x" * 5000},
    )
    records[at] = {**records[at], "d": padded.signed, "s": padded.signature}
    path = tmp_path / "padded.transcript"
    write_records(path, records)
    report = audit_transcript(path)
    assert not report.verified
    assert report.fault.what == "envelope too large" and report.fault.seat == seat
    assert "more than its kind can carry (4096)" in report.fault.evidence


def decode(record: dict) -> list:
    return msgpack.unpackb(record["d"], raw=False)
