"""A table's setup on the log, the same for every game (protocol.md 5.5, 10.2).

Seat 0's record of the lobby's signed roster (when there is one), then in seat order every
seat's join (the table's terms: game, seats, options), key, and the commitments and reveals of
the joint coins the game needs before its first state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairdeal.p2p.deck import DeckFault
from fairdeal.p2p.deck.messages import COIN_COMMIT, COIN_REVEAL, KEY
from fairdeal.p2p.lobby.roster import ROSTER_KIND, RosterError, SignedRoster
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.table.core.api import SetupProgress
from fairdeal.p2p.table.core.outbox import DECK, Expect


def roster_difference(signed: SignedRoster, body: Any) -> dict[str, Any]:
    """Evidence for a roster envelope that is not the signed roster: which part differs."""
    if not isinstance(body, Mapping) or body.get("digest") != signed.roster.digest:
        return {"digest": body.get("digest") if isinstance(body, Mapping) else body}
    recorded = body.get("signatures")
    if not isinstance(recorded, list) or len(recorded) != len(signed.signatures):
        return {"signatures": recorded}
    seats = [s for s, (a, b) in enumerate(zip(recorded, signed.signatures, strict=True)) if a != b]
    return {"signatures of seats": seats}


def join_difference(body: Any, terms: Mapping[str, Any]) -> dict[str, Any]:
    """Evidence for a join that is not the table's terms: the option fields it leaves out
    (a join writes every field, protocol.md 7.1), else the whole body."""
    options, expected = (
        body.get("options") if isinstance(body, Mapping) else None,
        terms.get("options"),
    )
    if isinstance(options, Mapping) and isinstance(expected, Mapping):
        missing = sorted(str(k) for k in expected.keys() - options.keys())
        if missing:
            return {"join": f"its options leave out {', '.join(missing)} (every field is written)"}
    return {"join": body}


class Setup:
    """The setup envelopes of one table, in log order, and how many are applied."""

    def __init__(
        self, seats: int, join_kind: str, coins: int, signed_roster: SignedRoster | None
    ) -> None:
        self.signed_roster = signed_roster
        self.steps: list[Expect] = []
        if signed_roster is not None:
            self.steps.append(Expect(0, ROSTER_KIND))
        self.steps += [Expect(s, join_kind) for s in range(seats)]
        self.steps += [Expect(s, DECK, KEY) for s in range(seats)]
        for _ in range(coins):
            self.steps += [Expect(s, DECK, COIN_COMMIT) for s in range(seats)]
            self.steps += [Expect(s, DECK, COIN_REVEAL) for s in range(seats)]
        self.done = 0

    @property
    def over(self) -> bool:
        return self.done >= len(self.steps)

    def expected(self) -> Expect | None:
        """The setup envelope the log takes next (None: the setup is over)."""
        return None if self.over else self.steps[self.done]

    def on_roster(self, envelope: Envelope) -> None:
        """Seat 0 records the roster every seat signed in the lobby, exactly (protocol.md 5.5)."""
        signed = self.signed_roster
        assert signed is not None
        try:
            signed.check_body(envelope.body, f"seat {envelope.seat}")
        except RosterError as error:
            evidence = roster_difference(signed, envelope.body)
            raise DeckFault(envelope.seat, error.detail, evidence) from None
        self.done += 1

    def on_deck(self) -> None:
        """A key or a setup coin's envelope, checked and taken by the fair deck (serving.py)."""
        self.done += 1

    def on_join(self, envelope: Envelope, terms: Any) -> SetupProgress:
        """A seat's join: it must carry exactly the table's terms."""
        if envelope.body != terms:
            raise DeckFault(
                envelope.seat, "joined with other game terms", join_difference(envelope.body, terms)
            )
        self.done += 1
        return SetupProgress("keys", envelope.seat, self.done, len(self.steps), 0)
