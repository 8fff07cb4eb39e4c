"""Helpers for the tests that run a table as `fairdeal` processes (`Simulation`) and kill some."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from fairdeal.p2p.table.tools.audit import AuditReport, audit_many
from fairdeal.p2p.table.tools.simulate import Simulation


@contextlib.contextmanager
def leftovers_killed(simulation: Simulation) -> Iterator[Simulation]:
    """However the block ends, no peer process of `simulation` is left running."""
    try:
        yield simulation
    finally:
        for peer in simulation.peers:
            if peer.process is not None and peer.process.returncode is None:
                peer.process.kill()


def assert_transcripts_audit(simulation: Simulation) -> list[AuditReport]:
    """Every seat's transcript audits as verified and over, and they agree; returns the
    reports."""
    reports, disagreement = audit_many(simulation.transcripts())
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
    return reports
