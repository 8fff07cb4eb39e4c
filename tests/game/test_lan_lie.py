"""LAN: 4 peers in 4 network namespaces find a table of The Lie by mDNS and play a
short game (one round, hands of 3: T3, T9) to the end with the full protocol, real-time claims
included; their transcripts audit as verified and agree."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from fairdeal.p2p.table.audit import audit_many
from tests.p2p.netns import VirtualLan

pytestmark = [pytest.mark.netns, pytest.mark.timeout(120)]
ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 60.0
TABLE = "Lie LAN test"


def result_line(line: str) -> bool:
    return line.startswith('{"seat"')


def test_four_namespaced_peers_find_a_lie_table_by_mdns_and_play_it_to_the_end(
    tmp_path: Path,
) -> None:
    env = {"PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "HOME": str(tmp_path)}
    with VirtualLan(4) as lan:
        host, *guests = lan.hosts
        base = [sys.executable, "-m", "fairdeal"]
        processes = [
            lan.spawn(
                host,
                [
                    *base,
                    *("host", "lie", "--seats", "4", "--headless"),
                    *("--rounds", "1", "--hand-size", "3"),
                    *("--name", TABLE, "--data-dir", str(tmp_path / "seat-host")),
                    *("--timeout", str(WAIT_S)),
                ],
                name="host",
                env=env,
                cwd=ROOT,
            )
        ]
        for index, guest in enumerate(guests, start=1):
            processes.append(
                lan.spawn(
                    guest,
                    [
                        *base,
                        *("bot", "--table", TABLE, "--data-dir", str(tmp_path / f"g{index}")),
                        *("--timeout", str(WAIT_S)),
                    ],
                    name=f"guest{index}",
                    env=env,
                    cwd=ROOT,
                )
            )
        results = [json.loads(p.expect(result_line, WAIT_S)) for p in processes]
    assert sorted(r["seat"] for r in results) == [0, 1, 2, 3]
    assert all(r["game"] == "lie" and r["rounds"] == 1 for r in results), results
    assert all(r["over"] and r["fault"] is None for r in results), results
    assert len({tuple(r["scores"]) for r in results}) == 1  # the same result everywhere (T10)
    files = [Path(r["transcript"]) for r in results]
    assert all(os.path.exists(f) for f in files)
    reports, disagreement = audit_many(files)
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
    assert all(r.signed_roster for r in reports)  # every seat signed the game and its options
