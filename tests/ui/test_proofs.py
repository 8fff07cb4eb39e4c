"""What several cards' proofs amount to (p2p/table/core/api.py), as The Lie's trick, prizes and
claims show it."""

from __future__ import annotations

import pytest

from fairdeal.p2p.table.core.api import ProofStatus, combined_proof

V, F, NA = ProofStatus.VERIFIED, ProofStatus.FAILED, ProofStatus.NOT_APPLICABLE


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        ((), None),  # nothing known yet
        ((V, None), None),  # one still on its way
        ((None, F), F),  # a failure is known at once
        ((V, F), F),
        ((V, V), V),
        ((NA, NA), NA),  # a local table: nothing to prove
        ((V, NA), NA),
    ],
)
def test_several_proofs_combine_into_one_status(
    statuses: tuple[ProofStatus | None, ...], expected: ProofStatus | None
) -> None:
    assert combined_proof(statuses) is expected
