"""One proof per equivocation (protocol.md 4.4 step 3, 10.4): a seat that signs hundreds of
different envelopes for one place is proven once at every honest peer — one fault, one proof
relayed, one record in `<transcript>.faults` — and the evidence file is not read again for
every fault."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

from fairdeal.p2p.log.envelope import Envelope, sign_envelope
from fairdeal.p2p.table.runtime.evidence import EvidenceFile, evidence_path
from tests.p2p.test_relay import TABLE, open_memory_table

COPIES = 300


def records_in(path: Path) -> int:
    data, offset, count = path.read_bytes(), 0, 0
    while offset < len(data):
        offset += 4 + int.from_bytes(data[offset : offset + 4], "big")
        count += 1
    return count


def test_three_hundred_envelopes_for_one_place_are_one_fault_and_one_proof() -> None:
    network, syncs, ids = open_memory_table(4)
    log = syncs[0].log
    copies = [log.author(ids[0], 0, "move", {"n": n}) for n in range(COPIES)]
    for seat in (1, 2, 3):
        for envelope in copies:
            syncs[0].mesh.send(ids[seat].key, envelope.to_wire())
    network.deliver()
    for sync in syncs[1:]:
        faults = [f for f in sync.log.faults if f.kind == "equivocation"]
        assert len(faults) == 1, (sync.seat, len(faults))
        assert faults[0].seat == 0 and all(e.verify(ids[0].key) for e in faults[0].evidence)
        assert len(sync.mesh.errors) == 1  # one report, not one per copy
    honest = {ids[s].key for s in (1, 2, 3)}
    sent = [src for src, _dst, kind in network.sent if kind == "env" and src in honest]
    # each honest peer relays the first envelope to the 2 other honest peers and its proof
    # (both envelopes) once to the same 2: at most 6 each, 18 in all (901 before)
    assert len(sent) <= 18, len(sent)


def test_a_second_place_of_a_proven_equivocator_adds_nothing() -> None:
    """One proof per seat: the table stops on the first, and a second pair of the same seat
    would only make every honest peer keep, relay and write more of the same proof."""
    network, syncs, ids = open_memory_table(3)
    pairs = [
        [
            sign_envelope(
                ids[0], table=TABLE, seat=0, seq=seq, prev=syncs[0].log.head, kind="m", body=n
            )
            for n in range(2)
        ]
        for seq in (0, 1)
    ]
    for pair in pairs:
        for envelope in pair:
            syncs[0].mesh.send(ids[1].key, envelope.to_wire())
    network.deliver()
    for sync in syncs[1:]:
        assert [f.seat for f in sync.log.faults] == [0], sync.seat


def _fault(n: int) -> tuple[int, str, str, list[Envelope]]:
    _network, syncs, ids = open_memory_table(2)
    envelope = syncs[0].log.author(ids[0], 0, "move", {"n": n})
    return 0, "rejected", f"fault {n}", [envelope]


def test_the_evidence_file_keeps_each_record_once_and_reads_the_file_once(
    tmp_path: Path,
) -> None:
    transcript = tmp_path / "t.transcript"
    failures: list[object] = []
    evidence = EvidenceFile(transcript, failures.append)
    faults = [_fault(n) for n in range(20)]
    with mock.patch.object(Path, "read_bytes", autospec=True, side_effect=Path.read_bytes) as read:
        for fault in faults:
            evidence.keep(*fault)
            evidence.keep(*fault)  # found again (a replay after a restart): not written twice
        assert read.call_count <= 1  # was once per fault: the whole file read again each time
    assert records_in(evidence_path(transcript)) == 20 and failures == []
    # a restarted peer finds the same faults again: the file does not grow
    again = EvidenceFile(transcript, failures.append)
    for fault in faults[:5]:
        again.keep(*fault)
    assert records_in(evidence_path(transcript)) == 20
