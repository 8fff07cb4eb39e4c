"""Every stall names who the table waits for and what each owes (`TableDriver.owes`, protocol.md
10.6), Larry, sans-IO: the seat whose turn it is; every seat that owes shares of a doubt; a
give-away whose giver withholds its forward names the giver (before, the table showed the
receiver as the seat holding it up)."""

from __future__ import annotations

from typing import Any

import pytest

from fairdeal.engine.larry import Doubt, LarryOptions, legal_actions
from fairdeal.engine.requests import Reveal
from fairdeal.p2p.deck.messages import SHARES
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.games.larry.table import LarryTable
from fairdeal.p2p.table.core.driver import Private
from fairdeal.p2p.table.core.effects import Effect, TakeDeck
from fairdeal.p2p.table.core.serving import Serving

from .sansio import SansIOTable
from .test_gift_forwards import GIVE_TO, givers


class WithholdingGiver(LarryTable):
    """Gives away a card (L11) but never sends the receiver its forward."""

    def take_output(self, output: Output, transfer: Any = None) -> None:
        super().take_output(output, transfer)
        self.outbox = [item for item in self.outbox if not isinstance(item, Private)]


class FirstTurn(Exception):
    pass


def test_the_seat_whose_turn_it_is_owes_its_turn() -> None:
    table = SansIOTable(3, LarryOptions(short_game=True), seed=3)

    def stop(_seat: int, _table: LarryTable) -> Any:
        raise FirstTurn

    with pytest.raises(FirstTurn):
        table.run(stop)  # setup done: the first seat to play is asked
    turn = table.tables[0].state.to_act()
    assert turn is not None
    for seat, driver in enumerate(table.tables):
        assert driver.owes() == {turn: ("their turn",)}, seat


def test_a_withheld_forward_names_the_giver_not_the_receiver() -> None:
    giver = 0
    receiver = GIVE_TO[giver]
    third = next(s for s in range(3) if s not in (giver, receiver))
    table = SansIOTable(3, LarryOptions(short_game=True), seed=3, tables={giver: WithholdingGiver})
    table.run(givers())  # settles when the table waits for the gift
    pending = table.tables[receiver].pending_transfer()
    assert pending is not None and pending.from_seat == giver
    assert table.tables[receiver].owes() == {giver: ("a give-away forward",)}
    assert table.tables[third].owes() == {
        giver: ("a give-away forward",),
        receiver: ("their receipt of the give-away",),
    }
    assert table.tables[giver].owes() == {receiver: ("their receipt of the give-away",)}


class SilentServing(Serving):
    def _begin_reveal(self, request: Reveal) -> list[Effect]:
        effects = super()._begin_reveal(request)
        if request.reason == "doubt":
            return [without_shares(e) if isinstance(e, TakeDeck) else e for e in effects]
        return effects


def without_shares(effect: TakeDeck) -> TakeDeck:
    messages = [m for m in effect.output.messages if m.get("kind") != SHARES]
    return TakeDeck(Output(messages, effect.output.events), effect.transfer)


class SilentAfterDoubt(LarryTable):
    """Sends no shares for a doubt's reveal (its other envelopes go out)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.serving = SilentServing(
            self.seats, self.deck, self.serving.slots, receipt_kind=self.received_kind
        )


def test_shares_owed_for_a_doubt_name_every_seat_that_owes_them() -> None:
    tables = {s: SilentAfterDoubt for s in range(3)}
    table = SansIOTable(3, LarryOptions(short_game=True), seed=3, tables=tables)

    def doubt_when_possible(_seat: int, t: LarryTable) -> Any:
        actions = legal_actions(t.view())
        return next((a for a in actions if isinstance(a, Doubt)), actions[-1])

    table.run(doubt_when_possible)  # settles when no seat sends the doubt's shares
    driver = table.tables[0]
    service = driver.service
    assert service is not None and isinstance(service.requests[0], Reveal)
    owed = {seat: ("shares for the doubt",) for seat in service.publishers}
    assert owed
    for seat, other in enumerate(table.tables):
        assert other.owes() == owed, seat
