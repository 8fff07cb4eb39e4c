"""A withheld coin reveal: the one abort a commit–reveal coin cannot prevent, named and proved.

The last seat to reveal a joint coin (protocol.md 6.6) sees every other value first and could
stay silent once it dislikes the result; no protocol without an honest majority avoids that. So
the abort is made to cost it: once the table has waited past its silence limit for a seat's
reveal, `withheld_reveal` names that seat with the evidence (its signed commitment in the log,
and which seats revealed), every player is shown it, and the others may end the table with that
evidence (`TablePeer.end_table`, protocol.md 10.6).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairdeal.p2p.deck.messages import COIN_COMMIT, COIN_REVEAL
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import TableLog
from fairdeal.p2p.table.core.driver import DECK, Expect, TableDriver

WITHHELD_KIND = "withheld-reveal"  # the kind of its record in `<transcript>.faults`


@dataclass(frozen=True, slots=True)
class WithheldReveal:
    """Seat `seat` committed to coin `coin` and has not revealed for `waited` seconds."""

    seat: int
    coin: str
    waited: float
    commitment: Envelope  # its signed commitment, applied to the log
    revealed: tuple[int, ...]  # the seats whose reveals of the coin are out

    @property
    def what(self) -> str:
        return f"withheld its reveal of the {self.coin!r} coin"

    def describe(self) -> str:
        others = ", ".join(str(s) for s in self.revealed) or "none"
        return (
            f"seat {self.seat} committed to the {self.coin!r} coin ({self.commitment}, id "
            f"{self.commitment.id.hex()[:16]}) and has not revealed it for {self.waited:.0f} s; "
            f"seats that revealed: {others}"
        )


def _coin_message(envelope: Envelope, kind: str) -> Mapping[str, Any] | None:
    body = envelope.body
    if envelope.kind == DECK and isinstance(body, Mapping) and body.get("kind") == kind:
        return body
    return None


def withheld_reveal(table: TableDriver, log: TableLog, waited: float) -> WithheldReveal | None:
    """The coin reveal the table is stuck on, if the envelope it waits for is one."""
    expect = table.expected()
    if not isinstance(expect, Expect) or expect.kind != DECK or expect.deck_kind != COIN_REVEAL:
        return None
    commitments = [
        e for e in log.entries if e.seat == expect.seat and _coin_message(e, COIN_COMMIT)
    ]
    if not commitments:
        return None
    commitment = commitments[-1]
    coin = str(commitment.body["coin"])
    revealed = sorted(
        {
            e.seat
            for e in (*log.entries, *log.buffered)
            if (m := _coin_message(e, COIN_REVEAL)) is not None and m.get("coin") == coin
        }
    )
    return WithheldReveal(expect.seat, coin, waited, commitment, tuple(revealed))
