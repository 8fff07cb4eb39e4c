"""Larry's table events: what a doubt proved at the table (L9/L16), card by card.

The generic table reads them as `Verification`s (p2p/table/core/api.py) and tells them in the
words below; only Larry's own modules read their fields.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.p2p.table.core.api import ProofStatus, Verification, VerifiedCard


@dataclass(frozen=True, slots=True)
class DoubtVerification(Verification):
    """After a doubt (L9/L16): every pile card with its proof, the true total, the verdict."""

    doubter: int
    last_player: int
    cards: tuple[VerifiedCard, ...]
    announced: int
    true_total: int
    gloats: int
    correct: bool
    loser: int
    said: tuple[int, ...] = ()  # the total announced with each card, as everyone heard it

    def log_text(self) -> str:
        """The doubt as a headless peer logs it: each pile card, its proof, totals, verdict."""
        lines = [f"doubt by seat {self.doubter} against seat {self.last_player}:"]
        for card in self.cards:
            way = "face-up" if card.face_up else "face-down"
            lines.append(
                f"  slot {card.slot} played {way} by seat {card.seat}: card {card.face}, "
                f"shares {card.proof.value}"
            )
        verdict = "correct" if self.correct else "wrong"
        lines.append(
            f"  true total {self.true_total} vs announced {self.announced} "
            f"(gloats {self.gloats}): {verdict}; seat {self.loser} picks up"
        )
        return "\n".join(lines)

    def facts(self) -> dict[str, Any]:
        return {"correct": self.correct, "loser": self.loser}

    def story(
        self,
        names: Sequence[str],
        card_text: Callable[[int], str],
        proof_mark: Callable[[ProofStatus], str],
    ) -> str:
        cards = ", ".join(
            f"{card_text(c.face)} by {names[c.seat]} {proof_mark(c.proof)}" for c in self.cards
        )
        verdict = "right" if self.correct else "wrong"
        return (
            f"doubt view: {names[self.doubter]} doubted {names[self.last_player]}; the pile: "
            f"{cards}; true total {self.true_total} against {self.announced} said: "
            f"{verdict}; {names[self.loser]} picks up"
        )
