"""Decryption shares on the log: which ones a seat owes now, and whose are public already.

A seat publishes exactly the shares it owes, no more and no less (protocol.md 10.3, 10.5): for
a deal, its share of every card dealt to another seat; for a reveal, the owner every share not
public yet, and every seat its own of a card never dealt. A game that carries shares in its
own envelopes (a deal inside its steps) has them checked here too.
"""

from __future__ import annotations

from collections.abc import Callable

from fairdeal.engine.requests import Deal, Reveal
from fairdeal.p2p.deck import DeckFault, Slot
from fairdeal.p2p.deck.messages import SharesMessage
from fairdeal.p2p.table.core.requests import Service


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
    """Whose shares of each card are public, for one table: it owns that record and nothing
    else; what a seat owes is worked out from the request being served and the cards' owners,
    given with each message."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.public: dict[Slot, set[int]] = {}

    def owed(
        self, seat: int, service: Service, owner: Callable[[Slot], int | None]
    ) -> set[tuple[Slot, int]]:
        """The shares `seat` owes now for the deal or reveal `service` (protocol.md 10.3, 10.5):
        a deal, its share of every card dealt to another seat; a reveal, the owner every share
        not public yet, and every seat its own of a card never dealt."""
        request = service.requests[0]
        owed: set[tuple[Slot, int]] = set()
        for slot in service.slots:
            holder = owner(slot)
            public = self.public.get(slot, set())
            if isinstance(request, Deal):
                if holder != seat:
                    owed.add((slot, seat))
            elif holder == seat:  # the owner opens it: every share not public yet
                owed |= {(slot, t) for t in range(self.seats) if t not in public}
            elif holder is None and seat not in public:  # never dealt: every seat opens it
                owed.add((slot, seat))
        return owed

    def check(
        self,
        seat: int,
        message: SharesMessage,
        service: Service,
        owner: Callable[[Slot], int | None],
    ) -> None:
        """The shares a seat publishes for `service` must be exactly the ones it owes now (no
        more, no less): DeckFault naming the seat otherwise, and nothing noted."""
        owed = self.owed(seat, service, owner)
        require_shares(seat, message, owed, isinstance(service.requests[0], Reveal))

    def note_public(self, message: SharesMessage) -> int:
        """The shares of `message` are public now (the deck took them); how many proofs."""
        for item in message.shares:
            self.public.setdefault(item.slot, set()).add(item.share.seat)
        return len(message.shares)
