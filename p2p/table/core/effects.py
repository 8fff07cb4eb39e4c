"""What the table core's machines ask of the driver that wires them (p2p/table/core/driver.py).

The request server's side (serving.py) and the give-aways (giveaways.py) own their state and
return these outputs instead of reaching back into the driver: what to publish, what to hand to
the fair deck's outbox, what to count, what to tell the screen, how to answer the engine. The
driver applies them in order, so the order of the table's events is the order they were made in.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairdeal.engine.requests import Ack, Arrange, Arrangement, Faces, Transfer
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.table.core.outbox import Publish


@dataclass(frozen=True, slots=True)
class TakeDeck:
    """The fair deck's output: its messages go out (a give-away's forward privately, for
    `transfer`), its events come back to the request server."""

    output: Output
    transfer: Transfer | None = None


@dataclass(frozen=True, slots=True)
class Proved:
    """`count` more proofs checked (shuffles, shares, coins)."""

    count: int


@dataclass(frozen=True, slots=True)
class Progress:
    """A setup-like stage moved (`api.SetupProgress` once the driver adds its proofs so far)."""

    phase: str
    seat: int | None
    done: int
    total: int


@dataclass(frozen=True, slots=True)
class Arranged:
    """A joint coin arranged `request.slots` with `seed` (the game's `on_arranged` hook)."""

    request: Arrange
    seed: bytes


@dataclass(frozen=True, slots=True)
class Answer:
    """The engine's request is served: this is its answer."""

    resolution: Ack | Faces | Arrangement


Effect = Publish | TakeDeck | Proved | Progress | Arranged | Answer
