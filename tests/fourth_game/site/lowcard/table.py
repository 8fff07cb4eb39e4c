"""Low card's table part: the `TablePart` every game writes (p2p/table/core/part.py); the
driver's turn-based defaults do the rest (setup, the fair deck, ordering by `to_act()`)."""

from __future__ import annotations

from typing import Any, ClassVar

from fairdeal.engine.codec import to_data
from fairdeal.engine.errors import IllegalAction
from fairdeal.p2p.lobby.roster import OptionValue
from fairdeal.p2p.net.kinds import Restart, envelope_kind
from fairdeal.p2p.table.core.driver import Publish, TableDriver
from lowcard.game import LowCardOptions, check_move

JOIN = envelope_kind("lowcard.join", game="lowcard", section="10.10")  # the terms each seat signs
# body: {"type": "ShowOne", "slot": N} (the engine codec); the player's choice, never the replay's
ACT = envelope_kind("lowcard.act", game="lowcard", section="10.10", restart=Restart.CHOSEN)


class LowCardTable(TableDriver):
    game_name: ClassVar[str] = "lowcard"
    join_kind: ClassVar[str] = JOIN
    act_kind: ClassVar[str] = ACT

    @classmethod
    def lobby_options(cls, options: Any) -> dict[str, OptionValue]:
        assert isinstance(options, LowCardOptions)
        return {"cards": options.cards}

    def publish_action(self, action: Any, *, check: bool = True) -> None:
        if self.state is None or self.over or not self.my_turn():
            raise IllegalAction(self.me, "it is not your turn")
        if check:
            check_move(self.state, self.me, action)
        self.outbox.append(Publish(ACT, to_data(action)))
