"""`fairdeal simulate lie`: four bot peers as OS processes over loopback
play a whole 3-round game of The Lie with every peer in agreement; every transcript passes
`fairdeal audit`, and one with an envelope altered, dropped or moved fails naming the right
seat, in Phase 1 (step envelopes opening a claim, answering, carrying the shares of a claimed
card) and in a trick."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import msgpack
import pytest

from fairdeal.p2p.table.tools.audit import audit_transcript
from fairdeal.ui.cli import main

from .records import (
    applied_indices,
    read_records,
    seat_of,
    swap_two_seats_envelopes,
    write_records,
)

pytestmark = [pytest.mark.timeout(200), pytest.mark.slow]


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("lie") / "sim"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(["simulate", "lie", "--peers", "4", "--seed", "5", "--out", str(out)])
    summary: dict[str, Any] = json.loads(printed.getvalue())
    summary["exit"] = code
    return summary


def test_four_peers_finish_a_three_round_game_in_agreement(simulated: dict[str, Any]) -> None:
    assert simulated["exit"] == 0
    assert simulated["result"] == "finished" and simulated["agree"], simulated["fault"]
    assert simulated["rounds"] == simulated["hands"] == 3  # T9
    # T3: every seat claimed 12 cards a round, each timed from its claim to its front
    assert simulated["claim_latency_ms"]["count"] == 4 * 12 * 3
    assert 0 < simulated["claim_latency_ms"]["median"] <= simulated["claim_latency_ms"]["p99"]
    assert simulated["ties"] >= 0 and simulated["void_claims"] >= 0
    assert simulated["cards_taken"] == 4 * 12 * 3
    assert len(simulated["steps_per_round"]) == 3 and simulated["envelopes_per_card"] > 0
    assert set(simulated["time"]) == {
        "setup_seconds",
        "moves_seconds",
        "doubts_seconds",
        "game_seconds",
        "later_hands_setup_seconds",
    }
    assert len(simulated["per_peer"]) == 4


def test_every_transcript_audits_with_the_same_result(
    simulated: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    files = simulated["transcripts"]
    assert main(["audit", "--json", *files]) == 0
    audit = json.loads(capsys.readouterr().out)
    assert audit["verified"] and audit["disagreement"] is None
    for report in audit["transcripts"]:
        assert report["over"] and report["hands"] == 3
        assert report["scores"] == simulated["scores"]  # T10: the prizes opened and counted
        assert report["counters"]["steps"] == simulated["steps"]
        assert report["counters"]["void_claims"] == simulated["void_claims"]


def kinds(records: list[dict]) -> list[tuple[str, Any]]:
    """(kind, body) of every applied envelope, in log order."""
    out = []
    for index in applied_indices(records):
        fields = msgpack.unpackb(records[index]["d"], raw=False)
        out.append((fields[5], fields[6]))
    return out


def position_of(records: list[dict], where: str) -> int:
    """An applied envelope's position in round 1 (an early one keeps the audit short): a step
    envelope opening a claim, one answering another, one carrying the shares of a claimed card
    (Phase 1), or the first play of a trick."""
    listed = kinds(records)
    steps = [(i, body) for i, (kind, body) in enumerate(listed) if kind == "lie.step"]
    if where == "claim":
        return [i for i, body in steps if body["open"] and body["open"]["claims"]][5]
    if where == "tick":
        return next(i for i, body in steps if body["answers"] is not None and i > steps[6][0])
    if where == "claim shares":
        return next(i for i, body in steps if body["shares"] is not None)
    return next(i for i, (kind, _) in enumerate(listed) if kind == "lie.act")


WHERE = ["claim", "tick", "claim shares", "trick"]  # "tick": a step envelope that answers


@pytest.mark.parametrize("where", WHERE)
def test_an_altered_envelope_names_its_seat(
    simulated: dict[str, Any], tmp_path: Path, where: str
) -> None:
    records = read_records(Path(simulated["transcripts"][0]))
    position = position_of(records, where)
    index = applied_indices(records)[position]
    author = seat_of(records[index])
    signed = bytearray(records[index]["d"])
    prev = msgpack.unpackb(signed, raw=False)[4]
    signed[signed.find(prev) + len(prev) - 1] ^= 0x01  # still msgpack, no longer signed
    records[index]["d"] = bytes(signed)
    path = tmp_path / "altered.transcript"
    write_records(path, records)
    report = audit_transcript(path)
    assert not report.verified
    assert report.fault.seat == author and report.fault.entry == position
    assert main(["audit", str(path)]) == 1


@pytest.mark.parametrize("where", WHERE)
def test_a_dropped_envelope_names_its_seat(
    simulated: dict[str, Any], tmp_path: Path, where: str
) -> None:
    records = read_records(Path(simulated["transcripts"][1]))
    dropped = records.pop(applied_indices(records)[position_of(records, where)])
    path = tmp_path / "dropped.transcript"
    write_records(path, records)
    report = audit_transcript(path)
    assert not report.verified
    assert report.fault.seat == seat_of(dropped) and "missing" in report.fault.what


@pytest.mark.parametrize("where", WHERE)
def test_a_moved_envelope_names_its_seat(
    simulated: dict[str, Any], tmp_path: Path, where: str
) -> None:
    records = read_records(Path(simulated["transcripts"][2]))
    _, first = swap_two_seats_envelopes(records, position_of(records, where))
    path = tmp_path / "moved.transcript"
    write_records(path, records)
    report = audit_transcript(path)
    assert not report.verified
    assert report.fault.seat == seat_of(records[first])  # the envelope now out of its place


@pytest.mark.parametrize("where", ["claim", "tick", "claim shares"])
def test_a_transcript_cut_in_phase_1_verifies_so_far(
    simulated: dict[str, Any], tmp_path: Path, where: str
) -> None:
    """A seat gone mid-Phase 1 (even mid-step) leaves a log that is verified so far,
    incomplete, not out of order: every envelope applies where it stands (protocol.md 10.7)."""
    records = read_records(Path(simulated["transcripts"][3]))
    position = position_of(records, where)
    cut = applied_indices(records)[position] + 1
    path = tmp_path / "cut.transcript"
    write_records(path, records[:cut])
    report = audit_transcript(path)
    assert report.verified, str(report.fault)
    assert report.incomplete and report.entries == position + 1
