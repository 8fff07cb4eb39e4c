"""A networked seat sees what a seat at a local table sees: the faces of the cards it
played face-down and of the cards it gave away, and a doubt's view with the totals said."""

from __future__ import annotations

import random

from fairdeal.engine.bots import make_bot
from fairdeal.engine.larry import LarryOptions
from fairdeal.engine.larry.events import CardGiven
from fairdeal.engine.oracle import OracleDriver
from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.p2p.games.larry.table import LarryTable
from fairdeal.p2p.table.core.api import StateChanged

from .sansio import SansIOTable


def test_a_seat_sees_the_faces_of_its_own_pile_cards_as_at_a_local_table() -> None:
    table = SansIOTable(3, LarryOptions(short_game=True), seed=2)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(3)]
    own_pile_cards_seen = 0

    def policy(seat: int, t: LarryTable) -> object:
        nonlocal own_pile_cards_seen
        view = t.view()
        for (slot, face), played_by in zip(view.pile, view.pile_seats, strict=True):
            if played_by == seat:
                assert face is not None, f"seat {seat} does not see its own pile card {slot}"
                own_pile_cards_seen += 1
        return bots[seat].choose(view)

    table.run(policy)  # type: ignore[arg-type]
    assert all(t.fault is None for t in table.tables)
    assert own_pile_cards_seen > 0


def test_the_giver_of_a_card_still_knows_its_face_as_the_oracle_does() -> None:
    for seed in range(6):
        table = SansIOTable(2, LarryOptions(short_game=True), seed=seed)
        bots = [make_bot("heuristic", random.Random(seed * 7 + s)) for s in range(2)]
        table.run(lambda seat, t: bots[seat].choose(t.view()))  # noqa: B023
        given = [
            event
            for change in table.tables[0].events
            if isinstance(change, StateChanged)
            for event in change.events
            if isinstance(event, CardGiven)
        ]
        state = table.tables[0].state
        assert state is not None
        live = set(state.all_slots())
        for gift in given:
            if gift.slot in live:
                assert gift.slot in table.tables[gift.seat].knowledge(), gift
                return
    raise AssertionError("no game gave a card that stayed in play")


def test_a_doubt_verification_carries_the_totals_said_with_each_card() -> None:
    table = SansIOTable(3, LarryOptions(short_game=True), seed=2)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(3)]
    table.run(lambda seat, t: bots[seat].choose(t.view()))
    checks = [e for e in table.tables[0].events if isinstance(e, DoubtVerification)]
    assert checks
    for check in checks:
        assert len(check.said) == len(check.cards)
        assert check.said[-1] == check.announced


def test_the_oracle_knows_the_same_kind_of_cards() -> None:
    """The reference: a local table's seat knows its own pile cards (OracleDriver.knowledge)."""
    driver = OracleDriver(3, LarryOptions(short_game=True), seed=2)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(3)]
    from fairdeal.engine.larry.view import view_for

    seen = 0
    while not driver.state.over and seen < 5:
        seat = driver.state.to_act()
        assert seat is not None
        view = view_for(driver.state, driver.knowledge[seat], seat)
        for (_slot, face), played_by in zip(view.pile, view.pile_seats, strict=True):
            if played_by == seat:
                assert face is not None
                seen += 1
        driver.act(seat, bots[seat].choose(view))
    assert seen
