"""High card, registered from outside fairdeal, plays networked: bot peers as OS processes over
loopback (p2p/table/tools/simulate.py), every card dealt and opened with the fair deck's proofs, and
every seat's transcript audits as verified (p2p/table/tools/audit.py), by the library and by
`fairdeal audit`. A transcript with one byte changed does not verify; a seat that opens its card
with another card's share is blamed."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fairdeal.engine.games import get_game
from fairdeal.p2p.deck.messages import SHARES
from fairdeal.p2p.identity import load_identity
from fairdeal.p2p.log.envelope import decode_envelope
from fairdeal.p2p.table.tools.audit import AuditReport, audit_many, audit_transcript
from fairdeal.p2p.table.tools.simulate import Simulation
from fairdeal.ui.cli import main
from tests.game.records import read_records, resigned, write_records
from tests.third_game.plugin import installed

pytestmark = pytest.mark.slow


@dataclass
class Played:
    directory: Path
    summary: dict[str, Any]
    files: list[Path]
    reports: list[AuditReport]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """One table of three seats, played once for the tests of this module (high card stays
    installed while they run)."""
    directory = tmp_path_factory.mktemp("highcard")
    with installed():
        options = get_game("highcard").options_from_data({"ranks": 3, "suits": 2})
        simulation = Simulation(
            3,
            directory / "sim",
            options=options,
            bot="random",
            seed=2,
            timeout=120,
        )
        summary = asyncio.run(simulation.run())
        files = [Path(p) for p in summary["transcripts"]]
        reports, disagreement = audit_many(files)
        assert disagreement is None
        yield Played(directory, summary, files, reports)


def test_three_peers_play_it_over_loopback_and_every_transcript_audits(played: Played) -> None:
    summary = played.summary
    assert summary["result"] == "finished", summary["fault"]
    assert summary["agree"]
    (winner,) = summary["winners"]
    assert summary["scores"] == [int(seat == winner) for seat in range(3)]
    assert len(played.reports) == 3
    for report in played.reports:
        assert report.verified, str(report.fault)
        assert report.over
        assert list(report.winners) == [winner] and list(report.scores) == summary["scores"]
        # roster; 3 joins, 3 keys, 3 shuffles; the deal's shares of 3 seats; 3 shows, 3 shares
        assert report.entries == 19


def test_fairdeal_audit_verifies_them_knowing_no_game(
    played: Played, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", *map(str, played.files)]) == 0
    assert "verified" in capsys.readouterr().out


def test_an_altered_byte_does_not_verify(played: Played) -> None:
    records = read_records(played.files[0])
    last = max(i for i, record in enumerate(records) if record["k"] == "applied")
    data = bytearray(records[last]["d"])
    data[-1] ^= 1
    altered = played.directory / "altered.transcript"
    write_records(altered, [*records[:last], {**records[last], "d": bytes(data)}])
    fault = audit_transcript(altered).fault
    assert fault is not None and fault.what == "bad signature" and not fault.blames
    assert (fault.seat, fault.entry) == (2, 18)  # the last seat's shares that open its card


def test_a_seat_that_opens_its_card_with_another_cards_share_is_blamed(played: Played) -> None:
    # seat 2 signs, in place of the share that opens its own card, the valid share it gave for
    # seat 0's card in the deal: the proof does not fit the card, and seat 2 signed it
    records = read_records(played.files[0])
    last = max(i for i, record in enumerate(records) if record["k"] == "applied")
    envelopes = [decode_envelope(r["d"], r["s"], "test") for r in records if r["k"] == "applied"]
    deal, show = [e for e in envelopes if e.seat == 2 and e.body.get("kind") == SHARES]
    share = deal.body["shares"][0]["share"]
    body = {**show.body, "shares": [{**show.body["shares"][0], "share": share}]}
    forged = resigned(load_identity(played.directory / "sim" / "seat2"), show, body)
    cheat = played.directory / "cheat.transcript"
    forged_record = {"k": "applied", "d": forged.signed, "s": forged.signature}
    write_records(cheat, [*records[:last], forged_record])
    fault = audit_transcript(cheat).fault
    assert fault is not None and fault.seat == 2 and fault.blames, fault
    assert "decryption share proof does not verify" in fault.what
    assert fault.entry == 18
