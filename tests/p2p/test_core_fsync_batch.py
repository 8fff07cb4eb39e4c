"""One fsync for every envelope a seat signs in one turn of the event loop, and nothing the seat
sends leaves before it (protocol.md 4.7): what is sent after a signed record is held by the
mesh until the fsync is done, and dropped if the disk refuses it."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import TableLog, seat_order
from fairdeal.p2p.log.transcript import Transcript, TranscriptWriteError, load_transcript
from fairdeal.p2p.net.channel import SecureChannel
from tests.p2p.core_support import (
    LoopbackPeer,
    make_identity,
    roster_of,
    start_table,
    stop_table,
)
from tests.p2p.memory_mesh import MemoryNetwork


def record_events(peer: LoopbackPeer, events: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Append "fsync" to `events` at each fsync of the peer's transcript, "send <t>" at each
    frame its channels encrypt (the message type read back from the payload)."""
    transcript = peer.sync.transcript
    assert transcript is not None
    flush = transcript._flush

    def counted_flush() -> None:
        flush()
        events.append("fsync")

    monkeypatch.setattr(transcript, "_flush", counted_flush)
    original = SecureChannel.send_payloads

    def send_payloads(channel: SecureChannel, plaintexts: list[bytes]) -> None:
        if channel in peer.mesh._readers:
            for plaintext in plaintexts:
                events.append("send env" if b"\xa3env" in plaintext else "send other")
        original(channel, plaintexts)

    monkeypatch.setattr(SecureChannel, "send_payloads", send_payloads)


@contextlib.asynccontextmanager
async def recorded_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[list[LoopbackPeer], list[str]]]:
    """A 3-seat table with transcripts whose seat 0's fsyncs and sends are recorded
    (`record_events`), stopped on the way out."""
    peers = await start_table(3, transcripts=tmp_path)
    try:
        events: list[str] = []
        record_events(peers[0], events, monkeypatch)
        yield peers, events
    finally:
        await stop_table(peers)


async def test_envelopes_signed_in_one_turn_share_one_fsync_before_any_is_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with recorded_table(tmp_path, monkeypatch) as (peers, events):
        author = peers[0]
        signed = [author.sync.publish("move", {"n": n}) for n in range(3)]
        author.mesh.send(peers[1].mesh.identity.key, {"t": "hello"})  # after them, held too
        assert events == []  # written, not yet on disk: nothing left
        for peer in peers[1:]:
            await peer.sync.wait_until(lambda p=peer: p.sync.log.holds(0, 2), timeout=5)
        assert events[0] == "fsync" and events.count("fsync") == 1, events
        # every envelope to both other seats, and the message sent after them
        assert sorted(events[1:]) == ["send env"] * 6 + ["send other"], events
        on_disk = load_transcript(tmp_path / "seat0.transcript")
        assert [e.signed for e in on_disk.signed] == [e.signed for e in signed]


async def test_a_refused_fsync_sends_nothing_and_stops_the_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with recorded_table(tmp_path, monkeypatch) as (peers, events):
        author = peers[0]
        transcript = author.sync.transcript
        assert transcript is not None

        def full_disk() -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(transcript, "_flush", full_disk)
        failures: list[TranscriptWriteError] = []
        stopped = asyncio.Event()
        author.sync.on_failure(lambda error: (failures.append(error), stopped.set()))
        author.sync.publish("move", {"n": 0})  # written: the write itself succeeds
        author.sync.publish("move", {"n": 1})
        assert failures == []
        await asyncio.wait_for(stopped.wait(), timeout=5)  # the batch's fsync fails
        assert len(failures) == 1 and "no space left" in str(failures[0])
        assert author.sync.failure is failures[0]
        assert events == []  # nothing of what was held went out
        with pytest.raises(TranscriptWriteError):
            author.sync.publish("move", {"n": 2})
        await author.mesh.drain()  # a drain releases no held message either
        assert events == []
        for peer in peers[1:]:
            assert not peer.sync.log.holds(0, 0)


def test_without_an_event_loop_a_signed_record_syncs_at_once(tmp_path: Path) -> None:
    """A replay at start-up has no loop to batch in: the record is on disk when publish returns."""
    roster = roster_of(2)
    identity = make_identity(0)
    mesh = MemoryNetwork().mesh(identity)
    transcript = Transcript.create(tmp_path / "t", roster, seat=0)
    fsyncs: list[str] = []
    flush = transcript._flush

    def counted_flush() -> None:
        flush()
        fsyncs.append("fsync")

    transcript._flush = counted_flush  # type: ignore[method-assign]
    log = TableLog(roster, seat_order([1, 0]))  # seat 1 first: the envelope waits, buffered
    sync = TableSync(mesh, log, identity, 0, transcript)  # type: ignore[arg-type]
    sync.publish("move", {})
    assert fsyncs == ["fsync"] and not sync._signed_unsynced
    transcript.close()


async def test_a_batch_of_applied_records_syncs_off_the_loop_and_its_failure_stops_the_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing waits on the fsync of applied records only: it runs on a worker thread, and a
    refused one stops the seat like any refused write (nothing more is signed or sent)."""
    network = MemoryNetwork()
    roster = roster_of(2)
    ids = [make_identity(0), make_identity(1)]
    meshes = [network.mesh(identity) for identity in ids]
    transcript = Transcript.create(tmp_path / "t", roster, seat=0)
    log = TableLog(roster, seat_order([1, 0]))
    reader = TableSync(meshes[0], log, ids[0], 0, transcript)  # type: ignore[arg-type]
    author = TableSync(meshes[1], TableLog(roster, seat_order([1, 0])), ids[1], 1)  # type: ignore[arg-type]
    threads: list[str] = []
    real_fsync = os.fsync
    ours = transcript._file.fileno()

    def refusing_fsync(fd: int) -> None:
        if fd != ours:
            return real_fsync(fd)
        threads.append(threading.current_thread().name)
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", refusing_fsync)
    stopped = asyncio.Event()
    reader.on_failure(lambda error: stopped.set())
    author.publish("move", {})
    network.deliver()
    assert [e.seat for e in reader.log.entries] == [1]  # applied, its record written
    await asyncio.wait_for(stopped.wait(), timeout=5)
    assert threads and all(name.startswith("transcript-fsync") for name in threads)
    assert reader.failure is not None and "Input/output error" in str(reader.failure)
    with pytest.raises(TranscriptWriteError):
        reader.publish("move", {})
    assert not any(sender == ids[0].key for sender, _, _ in network.sent)
    transcript.close()


def test_batches_written_while_a_background_fsync_runs_share_the_next_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = Transcript.create(tmp_path / "t", roster_of(2), seat=0)
    ours = transcript._file.fileno()
    real_fsync = os.fsync
    started, go_on = threading.Event(), threading.Event()
    calls: list[int] = []

    def slow_fsync(fd: int) -> None:
        if fd == ours:
            calls.append(fd)
            started.set()
            assert go_on.wait(timeout=5)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", slow_fsync)
    transcript.sync_in_background(lambda: None)
    assert started.wait(timeout=5)  # the first fsync is running
    for _ in range(3):  # three more batches meanwhile
        transcript.sync_in_background(lambda: None)
    go_on.set()
    transcript.join_background()
    assert len(calls) == 2  # the running one, then one for all three
    transcript.close()


def test_a_reopened_transcript_is_on_disk_before_anything_in_it_is_sent_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that died after writing a turn's records, before their fsync, left them with
    the OS only: the restart syncs them before it relays any of them."""
    path = tmp_path / "t"
    Transcript.create(path, roster_of(2), seat=0).close()
    synced: list[int] = []
    real_fsync = os.fsync

    def counted_fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", counted_fsync)
    transcript, _ = Transcript.reopen(path)
    assert synced == [transcript._file.fileno()]
    transcript.close()

    def failing_fsync(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(TranscriptWriteError, match="Input/output error"):
        Transcript.reopen(path)
