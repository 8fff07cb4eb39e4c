"""What the table waits for, in words a player reads (protocol.md 10.6).

For each seat the table waits for: "their turn", "shares for the doubt", "a give-away forward"...;
empty when it waits for nobody. The silence watch (p2p/table/runtime/watchdog.py) and the players'
screens show these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from fairdeal.engine.requests import Reveal, Transfer
from fairdeal.p2p.deck.messages import COIN_COMMIT, COIN_REVEAL, KEY, SHARES, SHUFFLE
from fairdeal.p2p.lobby.roster import ROSTER_KIND
from fairdeal.p2p.table.core.outbox import Expect
from fairdeal.p2p.table.core.requests import Service, ServiceState

# A reveal's purpose by its reason (engine/requests.py); another reason is said as it is.
REVEAL_PURPOSES = {
    "doubt": "the doubt",
    "face_up": "the face-up card",
    "score": "the scoring",
    "play": "the play",
}
DECK_WORDS = {
    KEY: "their key",
    SHUFFLE: "their shuffle",
    SHARES: "their shares",
    COIN_COMMIT: "their commitment to a joint coin",
    COIN_REVEAL: "their reveal of a joint coin",
}


@dataclass(frozen=True, slots=True)
class Kinds:
    """A game's envelope kinds, by what they are for."""

    act: str
    join: str
    receipt: str


def owed_now(
    expect: Expect | None, service: Service | None, me: int, kinds: Kinds
) -> dict[int, tuple[str, ...]]:
    """Who the table waits for when `expect` is due and `service` served, seen by seat `me`.
    Shares are owed by every publisher not yet applied (in seat order, they apply one by one).
    A give-away waits for the giver's private forward, which only the receiver sees: the
    receiver's own table names the giver alone, the others name the giver and the receiver's
    receipt; the giver's own table names the receiver only."""
    if expect is None:
        return {}
    if service is not None and service.state is ServiceState.SHARES and expect.deck_kind == SHARES:
        what = f"shares for {shares_purpose(service)}"
        return {seat: (what,) for seat in service.publishers[service.published :]}
    transfer = service.transfer if service is not None else None
    if transfer is not None and expect.kind == kinds.receipt:
        giver, receiver = transfer.from_seat, transfer.to_seat
        owed: dict[int, tuple[str, ...]] = {}
        if me != giver:
            owed[giver] = ("a give-away forward",)
        if me != receiver:
            owed[receiver] = ("their receipt of the give-away",)
        return owed
    return {expect.seat: (expect_words(kinds, expect),)}


class Waiting(Protocol):
    """What `owed_off_the_log` reads of a table (`TableDriver`)."""

    @property
    def received_kind(self) -> str: ...

    def expected(self) -> Expect | None: ...

    def pending_transfer(self) -> Transfer | None: ...


def owed_off_the_log(table: Waiting) -> frozenset[int]:
    """The seats the table waits for whose debt no envelope pays: a give-away's giver owes a
    private forward (protocol.md 10.8), so an envelope it signed, even its next, does not show
    it is not silent."""
    transfer = table.pending_transfer()
    expect = table.expected()
    if transfer is None or expect is None or expect.kind != table.received_kind:
        return frozenset()
    return frozenset({transfer.from_seat})


def shares_purpose(service: Service) -> str:
    request = service.requests[0]
    if isinstance(request, Reveal):
        return REVEAL_PURPOSES.get(request.reason, f"the {request.reason.replace('_', ' ')}")
    return "the deal"


def expect_words(kinds: Kinds, expect: Expect) -> str:
    if expect.kind == kinds.act:
        return "their turn"
    if expect.kind == ROSTER_KIND:
        return "the signed roster"
    if expect.kind == kinds.join:
        return "their join"
    what = expect.deck_kind or expect.kind
    return DECK_WORDS.get(expect.deck_kind or "", f"their {what} envelope")
