"""What `fairdeal audit` says must be what happened: bytes it ignored are named even on a
finished game, two transcripts of different tables are called that (not "disagree at entry 0"),
and a record altered after signing does not read as if its signer cheated."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from fairdeal.engine.lie import LieOptions
from fairdeal.p2p.table.tools.audit import audit_many, audit_transcript
from fairdeal.ui.cli import main

from .records import applied_indices, read_records, seat_of, write_records
from .support import play_a_game

pytestmark = pytest.mark.timeout(120)


def _play(directory: Path, seed: int) -> Path:
    play_a_game(2, directory, LieOptions(rounds=1, hand_size=2), seed=seed, timeout=90)
    return directory / "seat1" / "table.transcript"


@pytest.fixture(scope="module")
def two_tables(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return (
        _play(tmp_path_factory.mktemp("table_a"), seed=3),
        _play(tmp_path_factory.mktemp("table_b"), seed=4),
    )


@pytest.mark.parametrize("extra", [1, 2, 3])
def test_bytes_appended_to_a_finished_game_are_named(
    two_tables: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: int
) -> None:
    path = tmp_path / "appended.transcript"
    path.write_bytes(two_tables[0].read_bytes() + b"\x00" * extra)
    report = audit_transcript(path)
    assert report.over and report.ignored_bytes == extra
    assert main(["audit", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"the last {extra} byte(s) are a torn record" in out and "were ignored" in out


def test_transcripts_of_two_tables_are_called_different_tables(
    two_tables: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    reports, disagreement = audit_many(list(two_tables))
    assert all(r.verified for r in reports)
    assert disagreement is not None and disagreement.what == "transcripts of different tables"
    assert main(["audit", *map(str, two_tables)]) == 1
    out = capsys.readouterr().out
    assert "NOT COMPARABLE" in out and "of table" in out and "at entry 0" not in out


def test_a_record_altered_after_signing_does_not_blame_its_signer(
    two_tables: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = read_records(two_tables[0])
    index = applied_indices(records)[6]
    signed = bytearray(records[index]["d"])
    signed[-1] ^= 0x01
    records[index]["d"] = bytes(signed)
    path = tmp_path / "altered.transcript"
    write_records(path, records)
    seat = seat_of(records[index])
    report = audit_transcript(path)
    assert not report.verified and report.fault.seat == seat and not report.fault.blames
    assert main(["audit", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"signed by seat {seat} does not verify (altered after signing, or forged)" in out
    assert "FAULT: seat" not in out
    assert main(["audit", "--json", str(path)]) == 1
    fault = json.loads(capsys.readouterr().out)["transcripts"][0]["fault"]
    assert fault["seat"] == seat and fault["blames"] is False


def test_one_table_still_compares_entry_by_entry(
    two_tables: tuple[Path, Path], tmp_path: Path
) -> None:
    copy = tmp_path / "copy.transcript"
    shutil.copy(two_tables[0], copy)
    _, disagreement = audit_many([two_tables[0], copy])
    assert disagreement is None


def test_a_verified_game_names_its_players_and_their_key_codes(
    two_tables: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The result said "winner(s): seat 2" and a hex roster: players read names and compare the
    key codes they were shown at the table (p2p/identity.py, fingerprint_code)."""
    report = audit_transcript(two_tables[0])
    assert report.names and len(report.codes) == report.seats
    assert main(["audit", str(two_tables[0])]) == 0
    out = capsys.readouterr().out
    winners = ", ".join(f"{report.names[w]} (seat {w})" for w in report.winners)
    assert f"winner(s): {winners};" in out
    scores = ", ".join(f"{report.names[s]} {v:+d}" for s, v in enumerate(report.scores))
    assert f"scores {scores};" in out
    for seat, (name, code) in enumerate(zip(report.names, report.codes, strict=True)):
        assert f"seat {seat} {name} (key code {code})" in out
    assert "roster 0=" not in out


@pytest.mark.parametrize(
    "content",
    [b"hello, this is a letter", b"", b"\x00\x00\x00\x03\x81\xa1k", b"\x00\x00\x00\x02\x01\x02"],
)
def test_a_file_that_is_no_transcript_is_called_that(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    """Said "damaged file (has an impossible length prefix …)" or "(is damaged (unpack(b)
    received extra data.))": a file whose start is no header record never was a transcript."""
    path = tmp_path / "letter.transcript"
    path.write_bytes(content)
    assert main(["audit", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: not a fairdeal transcript: "), out
    assert "FAULT" not in out and "is damaged (" not in out


def test_damage_after_the_header_is_named_damage_once(
    two_tables: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = two_tables[0].read_bytes()
    path = tmp_path / "extra.transcript"
    # a record whose body is two msgpack values: "received extra data"
    path.write_bytes(data + b"\x00\x00\x00\x02\xc0\xc0")
    assert main(["audit", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"at byte {len(data)}: damaged file (the record is not one msgpack value (" in out, out
    assert "is damaged (" not in out and "not a fairdeal transcript" not in out, out
