"""Every game's act envelope is read the same way by the table driver (p2p/table/core/driver.py,
`on_game_envelope`): signed on the head it acts on, a body the game's codec decodes, an action the
engine finds legal. Each check that fails is its author's fault, names that seat, and changes
nothing of the state; a game refuses in `on_act` an action its act may not carry (The Lie's
claims ride in its steps, not in `lie.act`)."""

from __future__ import annotations

from typing import Any

import pytest

from fairdeal.engine.larry import Doubt, LarryOptions
from fairdeal.engine.larry.codec import to_data
from fairdeal.engine.lie import Claim
from fairdeal.p2p.deck import DeckFault
from fairdeal.p2p.games.larry.table import ACT, LarryTable
from fairdeal.p2p.log.envelope import sign_envelope
from fairdeal.p2p.table.core.driver import Private, Publish

from .lie_sansio import LieSansIO, quick_options
from .sansio import SansIOTable


class Stop(Exception):
    """The first act was about to be signed: the test takes over from there."""


def first_act() -> tuple[SansIOTable, int]:
    """A Larry table at its first move, and the seat to act."""
    table = SansIOTable(3, LarryOptions(short_game=True), seed=3)

    def stop_at_the_act(seat: int, item: Publish | Private) -> Publish | Private:
        if isinstance(item, Publish) and item.kind == ACT:
            raise Stop
        return item

    with pytest.raises(Stop):
        table.run(lambda seat, t: t.game.legal_actions(t.view())[0], stop_at_the_act)
    seat = table.tables[0].expected_seat()
    assert seat is not None
    return table, seat


def applied_by_another(table: SansIOTable, author: int, body: Any, prev: bytes | None) -> Any:
    """Seat `author`'s act with `body`, signed on `prev` (None: the head it should act on),
    applied by another seat's table; that table's fault."""
    other: LarryTable = table.tables[(author + 1) % 3]
    envelope = sign_envelope(
        table.ids[author],
        table=table.table_id,
        seat=author,
        seq=table.logs[author].next_seq(author),
        prev=other.head if prev is None else prev,
        kind=ACT,
        body=body,
    )
    other.apply(envelope)
    return other.fault


@pytest.mark.parametrize(
    ("body", "prev", "what"),
    [
        (to_data(Doubt()), b"\x07" * 32, "acted on a stale state (out of turn)"),
        ({"type": "NoSuchMove"}, None, "unreadable action"),
        (to_data(Doubt()), None, "illegal action"),  # nothing to doubt at the first move (L7)
    ],
    ids=["another head", "a body that does not decode", "an illegal action"],
)
def test_a_bad_act_is_its_authors_fault_and_changes_nothing(
    body: Any, prev: bytes | None, what: str
) -> None:
    table, author = first_act()
    before = table.tables[(author + 1) % 3].state
    fault = applied_by_another(table, author, body, prev)
    assert fault is not None and fault.seat == author
    assert fault.what.startswith(what), fault
    assert table.tables[(author + 1) % 3].state is before


def test_a_good_act_is_applied() -> None:
    table, author = first_act()
    other = table.tables[(author + 1) % 3]
    before = other.state
    view = table.tables[author].view()
    action = other.game.legal_actions(view)[0]
    assert applied_by_another(table, author, to_data(action), None) is None
    assert other.state is not before


def test_the_lie_refuses_a_claim_in_its_act() -> None:
    table = LieSansIO(3, quick_options(), seed=1).tables[1]
    with pytest.raises(DeckFault, match=r"lie\.act carries a Play or a Pass") as caught:
        table.on_act(2, Claim(0))
    assert caught.value.seat == 2
