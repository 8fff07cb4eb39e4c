"""What the table waits for, in words a player reads (protocol.md 10.6).

For each seat the table waits for: "their turn", "shares for the doubt", "a give-away forward"...;
empty when it waits for nobody. The silence watch (p2p/table/runtime/watchdog.py) and the players'
screens show these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fairdeal.engine.requests import Reveal
from fairdeal.p2p.deck.messages import COIN_COMMIT, COIN_REVEAL, KEY, SHARES, SHUFFLE
from fairdeal.p2p.lobby.roster import ROSTER_KIND
from fairdeal.p2p.table.core.requests import Service, ServiceState

if TYPE_CHECKING:
    from fairdeal.p2p.table.core.driver import TableDriver
    from fairdeal.p2p.table.core.outbox import Expect

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


def owed_now(table: TableDriver) -> dict[int, tuple[str, ...]]:
    """Shares are owed by every publisher not yet applied (in seat order, they apply one by
    one). A give-away waits for the giver's private forward, which only the receiver sees: the
    receiver's own table names the giver alone, the others name the giver and the receiver's
    receipt; the giver's own table names the receiver only."""
    expect = table.expected()
    if expect is None:
        return {}
    service = table.server.service
    if service is not None and service.state is ServiceState.SHARES and expect.deck_kind == SHARES:
        what = f"shares for {shares_purpose(service)}"
        return {seat: (what,) for seat in service.publishers[service.published :]}
    transfer = table.pending_transfer()
    if transfer is not None and expect.kind == table.received_kind:
        giver, receiver = transfer.from_seat, transfer.to_seat
        owed: dict[int, tuple[str, ...]] = {}
        if table.me != giver:
            owed[giver] = ("a give-away forward",)
        if table.me != receiver:
            owed[receiver] = ("their receipt of the give-away",)
        return owed
    return {expect.seat: (expect_words(table, expect),)}


def owed_off_the_log(table: TableDriver) -> frozenset[int]:
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


def expect_words(table: TableDriver, expect: Expect) -> str:
    if expect.kind == table.act_kind:
        return "their turn"
    if expect.kind == ROSTER_KIND:
        return "the signed roster"
    if expect.kind == table.join_kind:
        return "their join"
    what = expect.deck_kind or expect.kind
    return DECK_WORDS.get(expect.deck_kind or "", f"their {what} envelope")
