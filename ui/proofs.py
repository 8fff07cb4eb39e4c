"""How a proof's outcome is shown, written once for both games' screens (what several cards'
proofs amount to is p2p/table/core/api.py's `combined_proof`).

Larry's doubt view names each pile card's proof in words; The Lie marks each played
combination, each arriving front and each prize with the short mark. A local table has nothing
to prove: its cards carry no mark in The Lie (and "– local" in a doubt view).
"""

from __future__ import annotations

from rich.text import Text

from fairdeal.p2p.table.core.api import ProofStatus

PROOF_MARKS = {
    ProofStatus.VERIFIED: ("✓ proved", "green"),
    ProofStatus.FAILED: ("✗ FAILED", "bold red"),
    ProofStatus.NOT_APPLICABLE: ("– local", "dim"),
}
SHORT_MARKS = {ProofStatus.VERIFIED: ("✓", "green"), ProofStatus.FAILED: ("✗", "bold red")}


def short_mark(status: ProofStatus | None) -> Text:
    """ "✓" or "✗" (styled); nothing when there is nothing to prove or nothing known yet."""
    if status not in SHORT_MARKS:
        return Text()
    mark, style = SHORT_MARKS[status]
    return Text(mark, style=style)
