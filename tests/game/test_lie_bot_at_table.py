"""A bot at a networked table of The Lie chooses only what its table accepts (T3).

At a networked table a placement is kept for the seat's next step envelope; until that envelope
is signed the engine's state still shows the card unplaced. The pump asks the bot again while the
seat may still claim, so the view the bot sees must say that the card is being placed: otherwise
it asks to place it a second time and the table refuses ("nothing to place").
"""

from __future__ import annotations

import pytest

from fairdeal.engine.lie import Claim, Place
from tests.game.lie_sansio import LieSansIO, quick_options


class BotsAsThePumpAsks(LieSansIO):
    """Each seat's bot chooses whenever its table lets the seat choose, as p2p/table/runtime/pump.py
    does (in Phase 1 too), and every choice must be accepted."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.choices: list[object] = []
        self.claims_while_placing = 0  # claims chosen with a placement kept, not yet applied

    def act(self, seat: int, claims: object) -> None:
        table, log = self.tables[seat], self.logs[seat]
        if table.over or table.outbox:
            return
        for _ in range(4):  # a placement and a claim at most before the seat must wait
            if not table.may_choose():
                return
            if not table.claiming() and log.holds(seat, log.next_seq(seat)):
                return  # its go is signed and not applied yet
            view = table.view()
            action = self.bots[seat].choose(view)
            assert not (view.placing and isinstance(action, Place))
            self.claims_while_placing += view.placing and isinstance(action, Claim)
            table.publish_action(action)  # raises IllegalAction if the view misled the bot
            self.choices.append(action)
            self.flush(seat)  # what the table signed for it, sent at once
        raise AssertionError(f"seat {seat} was asked again and again")


@pytest.mark.parametrize("seed", [1, 2])
def test_a_bot_asked_again_before_its_step_is_signed_claims_instead_of_placing_twice(
    seed: int,
) -> None:
    net = BotsAsThePumpAsks(3, quick_options(rounds=1, hand_size=4), seed=seed)
    net.run(fraction=0.3)
    assert all(t.over and t.fault is None for t in net.tables)
    assert any(isinstance(c, Place) for c in net.choices)
    assert net.claims_while_placing > 0  # the race the pump met: a claim rides with the place
