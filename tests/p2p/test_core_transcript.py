"""Persistence: transcripts survive a torn last record, refuse damage elsewhere, and secrets
live in their own 0600 file."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import TableLog, seat_order
from fairdeal.p2p.log.transcript import (
    SecretStore,
    Transcript,
    TranscriptError,
    TranscriptVersionError,
    load_transcript,
    replay,
)
from fairdeal.p2p.net.framing import encode_frame, pack_message
from fairdeal.p2p.net.mesh import Mesh
from tests.p2p.core_support import FAST, make_identity, roster_of

ROSTER = roster_of(3)
IDS = [make_identity(i) for i in range(3)]


def write_game(path: Path, moves: int) -> TableLog:
    transcript = Transcript.create(path, ROSTER, seat=0)
    log = TableLog(ROSTER, seat_order([0, 1, 2]))
    log.on_applied(transcript.append_applied)
    for n in range(moves):
        seat = n % 3
        envelope = log.author(IDS[seat], seat, "move", {"n": n})
        if seat == 0:
            transcript.append_signed(envelope)
        log.receive(envelope)
    transcript.close()
    return log


def test_transcript_holds_applied_and_own_signed_envelopes(tmp_path: Path) -> None:
    log = write_game(tmp_path / "t", 5)
    contents = load_transcript(tmp_path / "t")
    assert contents.roster == ROSTER and contents.seat == 0
    assert [e.signed for e in contents.applied] == [e.signed for e in log.entries]
    assert [e.seq for e in contents.signed] == [0, 1]


def test_torn_last_record_is_cut_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "t"
    log = write_game(path, 4)
    data = path.read_bytes()
    path.write_bytes(data[:-7])  # the crash hit in the middle of the last record
    transcript, contents = Transcript.reopen(path)
    transcript.close()
    assert [e.signed for e in contents.applied] == [e.signed for e in log.entries[:3]]
    assert path.stat().st_size < len(data) - 7  # the torn bytes were cut off


def test_damage_in_the_middle_is_an_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "t"
    write_game(path, 4)
    data = path.read_bytes()
    for position in (150, 200, 300, len(data) - 40):
        damaged = bytearray(data)
        damaged[position] ^= 0x55
        path.write_bytes(bytes(damaged))
        with pytest.raises(TranscriptError, match=str(path)):
            load_transcript(path)


def test_not_a_transcript_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t"
    path.write_bytes(b"")
    with pytest.raises(TranscriptError, match="no header"):
        load_transcript(path)
    path.write_bytes(b"\x00\x00\x00\x02\x81\xc1")
    with pytest.raises(TranscriptError, match="record at byte 0 is not one msgpack value"):
        load_transcript(path)
    path.write_bytes(b"\x00\x00\x00\x05\x81\xa1k\xa1x")
    with pytest.raises(TranscriptError, match="not a version 1 fairdeal transcript"):
        load_transcript(path)


async def test_restore_replays_through_the_game_and_resumes_signing(tmp_path: Path) -> None:
    path = tmp_path / "t"
    original = write_game(path, 7)  # seat 0 signed seq 0, 1, 2
    replayed: list[int] = []
    mesh = Mesh(IDS[0], FAST)
    sync = TableSync.restore(
        mesh, IDS[0], path, seat_order([0, 1, 2]), apply=lambda e: replayed.append(e.body["n"])
    )
    try:
        assert replayed == list(range(7))
        assert sync.log.head == original.head
        assert sync.log.next_seq(0) == 3
        next_own = sync.log.author(IDS[0], 0, "move", {})
        assert next_own.seq == 3  # never signs a place twice after a restart
    finally:
        sync.transcript.close()  # type: ignore[union-attr]
        await mesh.close()


async def test_restore_rebuffers_a_signed_but_unapplied_envelope(tmp_path: Path) -> None:
    path = tmp_path / "t"
    transcript = Transcript.create(path, ROSTER, seat=2)
    log = TableLog(ROSTER, seat_order([0, 1, 2]))
    early = log.author(IDS[2], 2, "move", {"early": True})  # seat 2 signs before its turn
    transcript.append_signed(early)
    transcript.close()
    mesh = Mesh(IDS[2], FAST)
    sync = TableSync.restore(mesh, IDS[2], path, seat_order([0, 1, 2]))
    try:
        assert sync.log.buffered == [early]
        assert sync.log.author(IDS[2], 2, "move", {}).seq == 1
    finally:
        sync.transcript.close()  # type: ignore[union-attr]
        await mesh.close()


def test_secrets_are_kept_0600_and_out_of_reprs(tmp_path: Path) -> None:
    path = tmp_path / "game.secrets"
    store = SecretStore(path)
    store.put("x_0", b"\x13" * 32)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert SecretStore(path).get("x_0") == b"\x13" * 32
    assert "13131313" not in repr(store) and "x_0" not in repr(store)
    path.chmod(0o644)
    with pytest.raises(TranscriptError, match="readable by other users"):
        SecretStore(path)


def test_extra_header_data_is_kept_for_auditors(tmp_path: Path) -> None:
    path = tmp_path / "t"
    Transcript.create(path, ROSTER, seat=1, extra={"options": {"game": "larry"}}).close()
    assert load_transcript(path).extra == {"options": {"game": "larry"}}


def test_replay_refuses_a_transcript_the_rules_do_not_produce(tmp_path: Path) -> None:
    path = tmp_path / "t"
    write_game(path, 4)
    contents = load_transcript(path)
    assert len(replay(contents, seat_order([0, 1, 2])).entries) == 4
    with pytest.raises(TranscriptError, match="replay applied 0 of the 4"):
        replay(contents, seat_order([1, 0, 2]))  # other rules: seat 1 was to start


async def test_advance_after_a_rule_change_applies_and_records(tmp_path: Path) -> None:
    gate = {"open": False}

    def ordering(log: TableLog) -> int | None:
        return 0 if gate["open"] else None  # e.g. waiting for a timer the game runs

    mesh = Mesh(IDS[0], FAST)
    transcript = Transcript.create(tmp_path / "t", ROSTER, seat=0)
    sync = TableSync(mesh, TableLog(ROSTER, ordering), IDS[0], 0, transcript)
    try:
        envelope = sync.publish("move", {})
        assert sync.log.entries == [] and sync.log.buffered == [envelope]
        gate["open"] = True
        assert sync.advance() == [envelope]
        assert [e.signed for e in load_transcript(tmp_path / "t").applied] == [envelope.signed]
    finally:
        transcript.close()
        await mesh.close()


def test_records_of_an_unknown_kind_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "t"
    log = write_game(path, 2)
    with path.open("ab") as file:
        file.write(encode_frame(pack_message({"k": "from-a-later-version", "x": 1})))
    contents = load_transcript(path)
    assert [e.signed for e in contents.applied] == [e.signed for e in log.entries]


def test_a_damaged_secrets_file_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "game.secrets"
    path.write_bytes(b"\xc1")
    path.chmod(0o600)
    with pytest.raises(TranscriptError, match="secrets file is damaged"):
        SecretStore(path)


def test_a_transcript_of_protocol_version_1_is_refused_clearly(tmp_path: Path) -> None:
    header = {"k": "header", "v": 1, "table": b"t" * 16, "roster": [b"k" * 32], "seat": 0}
    path = tmp_path / "old"
    path.write_bytes(encode_frame(pack_message(header)))  # version 1 wrote no "proto"
    with pytest.raises(TranscriptVersionError, match="made by protocol version 1"):
        load_transcript(path)
    path.write_bytes(encode_frame(pack_message({**header, "proto": 2})))
    with pytest.raises(TranscriptVersionError, match="made by protocol version 2"):
        load_transcript(path)
    path.write_bytes(encode_frame(pack_message({**header, "proto": 3})))
    with pytest.raises(TranscriptVersionError, match="made by protocol version 3"):
        load_transcript(path)
    path.write_bytes(encode_frame(pack_message({**header, "proto": 4})))
    with pytest.raises(TranscriptVersionError, match="made by protocol version 4"):
        load_transcript(path)
    path.write_bytes(encode_frame(pack_message({**header, "proto": 5})))
    assert load_transcript(path).seat == 0
    path.write_bytes(encode_frame(pack_message({**header, "proto": "two"})))
    with pytest.raises(TranscriptVersionError, match="made by protocol version 'two'"):
        load_transcript(path)
