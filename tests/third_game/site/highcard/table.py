"""High card's part of the networked table: its envelope kinds, how a Show is checked before it
is signed, and what a win says.

Everything else (setup, the fair deck serving NewDeck, Deal and Reveal, faults, ordering by
`state.to_act()`, reading each `highcard.act`) is the shared table driver
(fairdeal.p2p.table.core.driver). The log: the roster, every seat's join and key, the shuffle
(seat order), the deal's shares, then per seat in seat order its `highcard.act` (a Show)
followed by its own shares that open its card.
"""

from __future__ import annotations

from typing import Any, ClassVar

from fairdeal.engine.codec import to_data
from fairdeal.engine.errors import IllegalAction
from fairdeal.p2p.lobby.roster import OptionValue
from fairdeal.p2p.net.kinds import Restart, envelope_kind
from fairdeal.p2p.table.core.api import Notice
from fairdeal.p2p.table.core.driver import Publish, TableDriver
from highcard.actions import Won
from highcard.cards import HighCardOptions, card_names
from highcard.rules import check_turn

GAME = "highcard"
JOIN = envelope_kind(
    "highcard.join", game=GAME, section="10.10"
)  # body: the terms every seat signs
# body: the engine action, {"type": "Show"} (engine codec); the player's choice, never the replay's
ACT = envelope_kind("highcard.act", game=GAME, section="10.10", restart=Restart.CHOSEN)


class HighCardTable(TableDriver):
    """One table of high card as one seat (or an auditor) follows it."""

    game_name: ClassVar[str] = GAME
    join_kind: ClassVar[str] = JOIN
    act_kind: ClassVar[str] = ACT

    @classmethod
    def lobby_options(cls, options: Any) -> dict[str, OptionValue]:
        assert isinstance(options, HighCardOptions)
        return {"ranks": options.ranks, "suits": options.suits}

    def publish_action(self, action: Any, *, check: bool = True) -> None:
        if self.state is None or self.over or not self.my_turn():
            raise IllegalAction(self.me, "it is not your turn")
        if check:
            check_turn(self.state, self.me, action)
        self.outbox.append(Publish(ACT, to_data(action)))

    def on_step_event(self, event: Any) -> None:
        if isinstance(event, Won):
            name = card_names(self.options)[event.face]
            self.events.append(Notice(f"seat {event.seat} wins with {name}"))
