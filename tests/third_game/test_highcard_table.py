"""High card, registered from outside fairdeal, plays networked: bot peers as OS processes over
loopback (p2p/table/simulate.py), every card dealt and opened with the fair deck's proofs, and
every seat's transcript audits as verified (p2p/table/audit.py). A transcript with one byte
changed is refused."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from fairdeal.engine.games import get_game
from fairdeal.p2p.deck.messages import SHARES
from fairdeal.p2p.identity import load_identity
from fairdeal.p2p.log.envelope import decode_envelope, sign_envelope
from fairdeal.p2p.table.audit import audit_many, audit_transcript
from fairdeal.p2p.table.simulate import Simulation
from fairdeal.ui.cli import main
from tests.game.test_audit import read_records, write_records
from tests.third_game.plugin import python_with_site

pytestmark = pytest.mark.slow


def test_three_peers_play_it_over_loopback_and_every_transcript_audits(
    highcard: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = get_game("highcard").options_from_data({"ranks": 3, "suits": 2})
    simulation = Simulation(
        3,
        tmp_path / "sim",
        options=options,
        bot="random",
        seed=2,
        timeout=120,
        python=python_with_site(tmp_path),
    )
    summary = asyncio.run(simulation.run())
    assert summary["result"] == "finished", summary["fault"]
    assert summary["agree"]
    (winner,) = summary["winners"]
    assert summary["scores"] == [int(seat == winner) for seat in range(3)]

    files = [Path(p) for p in summary["transcripts"]]
    reports, disagreement = audit_many(files)
    assert disagreement is None
    for report in reports:
        assert report.verified, str(report.fault)
        assert report.over
        assert list(report.winners) == [winner] and list(report.scores) == summary["scores"]
    assert main(["audit", *map(str, files)]) == 0  # the command line knows no game either
    assert "verified" in capsys.readouterr().out

    # one byte of the last applied envelope changed: its signature no longer verifies
    records = read_records(files[0])
    last = max(i for i, record in enumerate(records) if record["k"] == "applied")
    data = bytearray(records[last]["d"])
    data[-1] ^= 1
    altered = tmp_path / "altered.transcript"
    write_records(altered, [*records[:last], {**records[last], "d": bytes(data)}])
    fault = audit_transcript(altered).fault
    assert fault is not None and fault.what == "bad signature" and not fault.blames
    assert (fault.seat, fault.entry) == (2, reports[0].entries - 1)

    # seat 2 shows another card: it signs, in place of the share that opens its own card, the
    # valid share it gave for seat 0's card in the deal; the proof no longer fits, seat 2 is blamed
    envelopes = [decode_envelope(r["d"], r["s"], "test") for r in records if r["k"] == "applied"]
    deal, show = [e for e in envelopes if e.seat == 2 and e.body.get("kind") == SHARES]
    body = {
        **show.body,
        "shares": [{**show.body["shares"][0], "share": deal.body["shares"][0]["share"]}],
    }
    forged = sign_envelope(
        load_identity(tmp_path / "sim" / "seat2"),
        table=show.table,
        seat=show.seat,
        seq=show.seq,
        prev=show.prev,
        kind=show.kind,
        body=body,
    )
    cheat = tmp_path / "cheat.transcript"
    write_records(
        cheat, [*records[:last], {"k": "applied", "d": forged.signed, "s": forged.signature}]
    )
    fault = audit_transcript(cheat).fault
    assert fault is not None and fault.seat == 2 and fault.blames, fault
    assert "decryption share proof does not verify" in fault.what
    assert fault.entry == reports[0].entries - 1
