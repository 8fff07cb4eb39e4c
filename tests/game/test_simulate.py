"""`fairdeal simulate larry`: bot peers as OS processes over loopback play to the end, and every
transcript they write passes `fairdeal audit`."""

from __future__ import annotations

import json
from pathlib import Path

from fairdeal.p2p.table.tools.audit import audit_many
from fairdeal.ui.cli import main


def test_simulate_four_peers_full_game_and_every_transcript_audits(tmp_path: Path, capsys) -> None:
    out = tmp_path / "sim"
    assert main(["simulate", "larry", "--peers", "4", "--seed", "3", "--out", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["result"] == "finished" and summary["agree"]
    assert summary["hands"] == 3  # L18: a full game
    assert set(summary["time"]) == {
        "setup_seconds",
        "moves_seconds",
        "doubts_seconds",
        "game_seconds",
        "later_hands_setup_seconds",
    }
    files = [Path(p) for p in summary["transcripts"]]
    assert len(files) == 4
    reports, disagreement = audit_many(files)
    assert disagreement is None
    for report in reports:
        assert report.verified, str(report.fault)
        assert report.over and report.hands == 3
        assert list(report.scores) == summary["scores"]
    assert main(["audit", *map(str, files)]) == 0
