"""A guest that gets no answer, and a host that nobody reaches, say what to check (the firewall,
which Windows and macOS ask about the first time fairdeal hosts; the address; the port) instead
of a bare timeout (p2p/net/unreachable.py)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from fairdeal.p2p.net.unreachable import unreachable_reason
from fairdeal.p2p.table.tools.watch import WatchRefused, why_not
from fairdeal.ui.cli import main

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize(
    "error", [TimeoutError(), OSError(errno.EHOSTUNREACH, "No route to host")], ids=str
)
def test_no_answer_names_the_firewall_the_address_and_the_port(error: OSError) -> None:
    said = unreachable_reason(error, "192.168.1.20", 40123)
    assert "192.168.1.20:40123" in said
    assert "firewall" in said and "192.168.1.20 is the host's address" in said and "port" in said


def test_a_refusal_says_nothing_listens_there_and_no_more() -> None:
    """Something answered: the port is wrong or the table closed, not a firewall's silence."""
    said = unreachable_reason(ConnectionRefusedError(), "127.0.0.1", 9)
    assert said == "nothing is listening at 127.0.0.1:9"


def test_a_watch_that_gets_no_answer_says_what_to_check() -> None:
    assert "firewall" in why_not(TimeoutError(), "10.0.0.2", 4000)
    assert why_not(WatchRefused("not seated"), "10.0.0.2", 4000) == "10.0.0.2:4000: not seated"


def test_a_host_nobody_reached_says_what_to_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["host", "larry", "--seats", "2", "--headless", "--bind", "127.0.0.1", "--no-mdns"]
    assert main([*argv, "--timeout", "1", "--data", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "fairdeal host: nobody reached this table at 127.0.0.1:" in err
    assert "firewall" in err and "--peer HOST:PORT" in err and "timed out" not in err
