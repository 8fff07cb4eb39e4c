"""Decryption shares on the log: which ones a seat owes now, and whose are public already.

A seat publishes exactly the shares it owes, no more and no less (protocol.md 10.3, 10.5): for
a deal, its share of every card dealt to another seat; for a reveal, the owner every share not
public yet, and every seat its own of a card never dealt. A game that carries shares in its
own envelopes (a deal inside its steps) has them checked here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fairdeal.engine.requests import Deal, Reveal
from fairdeal.p2p.deck import DeckFault, Slot
from fairdeal.p2p.deck.messages import SharesMessage

if TYPE_CHECKING:
    from fairdeal.p2p.table.core.driver import TableDriver


def require_shares(
    seat: int, message: SharesMessage, owed: set[tuple[Slot, int]], revealing: bool
) -> None:
    """DeckFault naming `seat` unless `message` holds exactly the shares `owed`, once each."""
    given = [(item.slot, item.share.seat) for item in message.shares]
    if len(set(given)) != len(given) or set(given) != owed:
        missing = sorted(str(s) + f"/{t}" for s, t in owed - set(given))
        extra = sorted(str(s) + f"/{t}" for s, t in set(given) - owed)
        what = "revealed" if revealing else "dealt"
        raise DeckFault(
            seat,
            f"published the wrong shares for the cards being {what}",
            {"missing": missing, "unexpected": extra},
        )


class SharesLedger:
    """Whose shares of each card are public, for one table."""

    def __init__(self, table: TableDriver) -> None:
        self.table = table
        self.public: dict[Slot, set[int]] = {}

    def check(self, seat: int, message: SharesMessage) -> None:
        """The shares a seat publishes for the request being served must be exactly the ones
        it owes now (no more, no less)."""
        table = self.table
        service = table.server.service
        assert service is not None
        request = service.requests[0]
        owed: set[tuple[Slot, int]] = set()
        for slot in service.slots:
            owner = table.deck.owner(slot)
            public = self.public.get(slot, set())
            if isinstance(request, Deal):
                if owner != seat:
                    owed.add((slot, seat))
            elif owner == seat:  # the owner opens it: every share not public yet
                owed |= {(slot, t) for t in range(table.seats) if t not in public}
            elif owner is None and seat not in public:  # never dealt: every seat opens it
                owed.add((slot, seat))
        require_shares(seat, message, owed, isinstance(request, Reveal))

    def apply_owed(self, seat: int, body: Any, owed: set[tuple[Slot, int]]) -> None:
        """A seat's `deck.shares` carried in one of the game's own envelopes: exactly `owed`
        (raises DeckFault naming the seat), then the deck takes them."""
        table = self.table
        message = table.deck.parse(seat, body)
        assert isinstance(message, SharesMessage)
        require_shares(seat, message, owed, False)
        output = table.deck.handle(seat, body, message)
        self.note_public(message)
        table.take_output(output)

    def note_public(self, message: SharesMessage) -> None:
        for item in message.shares:
            self.public.setdefault(item.slot, set()).add(item.share.seat)
        self.table.count_proofs(len(message.shares))
