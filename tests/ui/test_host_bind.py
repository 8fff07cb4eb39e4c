"""`fairdeal host --bind ADDR --bots K` — the bots reach the host where it
listens (they used to dial 127.0.0.1, which a host bound to 127.0.0.2 does not answer)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairdeal.p2p.table.tools.audit import audit_transcript
from fairdeal.ui.cli import main

pytestmark = pytest.mark.timeout(120)


def test_headless_host_on_another_loopback_address_plays_with_its_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["host", "larry", "--seats", "2", "--bots", "1", "--headless", "--short"]
    args += ["--bind", "127.0.0.2", "--no-mdns", "--data", str(tmp_path), "--timeout", "90"]
    assert main(args) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["listening"][0] == "127.0.0.2"
    results = [line for line in lines if "over" in line]
    assert len(results) == 2 and all(r["over"] and r["fault"] is None for r in results)
    assert all(audit_transcript(Path(r["transcript"])).verified for r in results)
