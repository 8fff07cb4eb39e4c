"""A staller is always named (protocol.md 10.6), in both games and every kind of stall.

A seat that withholds its next envelope and signs a valid one for a *later* place (the relay
carries it to every peer, where it waits in the buffer) is still the seat the table waits for:
only a seat's next envelope, held here, shows that it is not silent. Each test brings a
sans-IO table to one kind of stall, lets the staller sign ahead, and checks that every honest
peer's `owes()`, its `held_up_by` and its silence watch (what its screen shows) name the
staller with what it owes. Before, any buffered envelope of a seat hid it everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from fairdeal.engine.larry import Doubt, LarryOptions, legal_actions
from fairdeal.engine.lie import Claim
from fairdeal.engine.lie.state import PLAY
from fairdeal.p2p.deck.messages import SHARES
from fairdeal.p2p.games.larry.table import LarryTable
from fairdeal.p2p.games.lie.table import ACT, STEP, LieTable
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.envelope import Envelope, sign_envelope
from fairdeal.p2p.log.tablelog import TableLog
from fairdeal.p2p.table.core.api import SeatStatus, TableEvent
from fairdeal.p2p.table.core.driver import DECK, Private, Publish, TableDriver
from fairdeal.p2p.table.runtime.watchdog import SilenceWatch, held_up_by, observe

from .cheaters import WithholdingTable
from .lie_sansio import LieSansIO, quick_options
from .sansio import SansIOTable
from .test_gift_forwards import GIVE_TO, givers
from .test_lie_lockstep_attacks import drop_steps_of, no_claims, quiet
from .test_owes import SilentAfterDoubt, WithholdingGiver

LIMIT = 30.0


def sign_later(
    ids: Sequence[Identity], logs: Sequence[TableLog], staller: int, kind: str
) -> Envelope:
    """The staller signs an envelope for the place after its next one (which it withholds),
    and every peer takes it in, as the relay would carry it."""
    honest = next(log for seat, log in enumerate(logs) if seat != staller)
    seq = honest.next_seq(staller)
    assert not honest.holds(staller, seq), "the staller's next envelope is here: no stall"
    later = sign_envelope(
        ids[staller],
        table=honest.roster.table,
        seat=staller,
        seq=seq + 1,
        prev=honest.head,
        kind=kind,
        body={"later": True},
    )
    for log in logs:
        assert log.receive(later, culprit=f"seat {staller}") == []  # buffered, not applied
    return later


def screen(table: TableDriver, log: TableLog, me: int) -> tuple[SilenceWatch, list[TableEvent]]:
    """`me`'s silence watch, and what it shows, once the table has waited past the limit."""
    shown: list[TableEvent] = []
    start = 1000.0
    watch = SilenceWatch(LIMIT, start)
    everyone = range(len(log.roster.keys))
    shown += watch.feed(observe(table, log, me, start, everyone))  # the table begins to wait
    # past the limit, whatever the float rounding
    shown += watch.feed(observe(table, log, me, start + 2 * LIMIT, everyone))
    return watch, shown


def assert_named(
    tables: Sequence[TableDriver],
    logs: Sequence[TableLog],
    staller: int,
    owed: str,
) -> SeatStatus:
    """Every honest peer names the staller, owing `owed` (among what it owes), in `owes()`, in
    `held_up_by` and on its screen; returns the status the first honest peer's screen shows."""
    statuses = []
    for me, (table, log) in enumerate(zip(tables, logs, strict=True)):
        if me == staller:
            continue
        assert table.fault is None, table.fault
        assert owed in table.owes().get(staller, ()), (me, table.owes())
        assert owed in held_up_by(table, log, me).get(staller, ()), (me, "held_up_by")
        (status,) = [
            e
            for e in screen(table, log, me)[1]
            if isinstance(e, SeatStatus) and e.seat == staller and e.waiting_seconds
        ]
        assert owed in status.owes and status.waiting_seconds >= LIMIT
        statuses.append(status)
    return statuses[0]


# -- The Lie, Phase 1 ---------------------------------------------------------------------------


def test_a_withheld_step_envelope_names_its_seat_after_a_later_one() -> None:
    net = quiet(3, seed=26)
    net.tables[0].publish_action(Claim(net.tables[0].claimable()[0]))
    net.run(claims=no_claims, tamper=drop_steps_of(2))
    sign_later(net.ids, net.logs, 2, STEP)
    assert_named(net.tables, net.logs, 2, "their step 1 envelope")


def test_a_withheld_opening_names_its_seat_after_a_later_envelope() -> None:
    """Seat 1 begins step 1 with a claim and nothing else, so it must open it in step 2; it
    signs step 2 no more. Nobody else has anything to say: the table waits for its opening."""
    staller = 1
    net = quiet(3, seed=28)
    net.tables[staller].publish_action(Claim(net.tables[staller].claimable()[0]))
    net.run(claims=no_claims, tamper=drop_steps_of(staller, after=1))
    assert all(t.lockstep.position == 0 and t.lockstep.step == 1 for t in net.tables)
    sign_later(net.ids, net.logs, staller, STEP)
    assert_named(net.tables, net.logs, staller, "the opening of step 1")


def test_withheld_shares_name_their_seat_after_a_later_envelope() -> None:
    net = quiet(3, seed=27)
    net.tables[0].publish_action(Claim(net.tables[0].claimable()[0]))
    net.run(claims=no_claims, tamper=drop_steps_of(2, after=2))
    sign_later(net.ids, net.logs, 2, STEP)
    assert_named(net.tables, net.logs, 2, "shares for 1 card(s)")


class NeverPlaces(LieTable):
    def can_place(self) -> bool:
        return False


def first_slot(_seat: int, table: LieTable) -> Claim | None:
    slots = table.claimable()
    return Claim(slots[0]) if slots else None


def test_a_withheld_placement_names_its_seat_after_a_later_envelope() -> None:
    net = LieSansIO(3, quick_options(hand_size=3), seed=31, classes={2: NeverPlaces})
    net.run(claims=first_slot)
    sign_later(net.ids, net.logs, 2, STEP)
    assert_named(net.tables, net.logs, 2, "a placement")


def test_a_withheld_last_claim_names_its_seat_after_a_later_envelope() -> None:
    def claims(seat: int, table: LieTable) -> Claim | None:
        if seat == 2 and len(table.state.hands[2]) >= 1:
            return None
        return first_slot(seat, table)

    net = LieSansIO(3, quick_options(hand_size=2), seed=30)
    net.run(claims=claims)
    sign_later(net.ids, net.logs, 2, STEP)
    assert_named(net.tables, net.logs, 2, "a claim (1 card(s) to take)")


# -- The Lie, Phase 2 ---------------------------------------------------------------------------


def phase_2_stall(
    staller: int, dropped: Callable[[Publish | Private], bool], seed: int
) -> LieSansIO:
    """A game of The Lie run until it stalls in Phase 2 because the staller sends nothing
    `dropped` picks there."""
    net = LieSansIO(3, quick_options(hand_size=2), seed=seed)

    def tamper(seat: int, item: Publish | Private) -> Publish | Private | None:
        table = net.tables[seat]
        playing = table.state is not None and table.state.phase is PLAY
        return None if seat == staller and playing and dropped(item) else item

    net.run(claims=first_slot, tamper=tamper)
    assert all(t.state is not None and t.state.phase is PLAY for t in net.tables)
    return net


def test_a_withheld_phase_2_turn_names_its_seat_after_a_later_envelope() -> None:
    net = phase_2_stall(1, lambda item: isinstance(item, Publish) and item.kind == ACT, seed=40)
    sign_later(net.ids, net.logs, 1, ACT)
    assert_named(net.tables, net.logs, 1, "their turn")


def is_shares(item: Publish | Private) -> bool:
    return isinstance(item, Publish) and item.kind == DECK and item.body.get("kind") == SHARES


def test_withheld_reveal_shares_name_their_seat_after_a_later_envelope() -> None:
    """The player of a Phase 2 play owes the shares that open its faces (10.11.6)."""
    net = phase_2_stall(2, is_shares, seed=41)
    sign_later(net.ids, net.logs, 2, DECK)
    assert_named(net.tables, net.logs, 2, "shares for the play")


# -- Larry --------------------------------------------------------------------------------------


class Stop(Exception):
    pass


def test_a_withheld_larry_turn_names_its_seat_after_a_later_envelope() -> None:
    staller = 1
    table = SansIOTable(3, LarryOptions(short_game=True), seed=3)

    def policy(seat: int, driver: LarryTable) -> Any:
        if seat == staller:
            raise Stop
        return legal_actions(driver.view())[0]

    with pytest.raises(Stop):
        table.run(policy)
    sign_later(table.ids, table.logs, staller, "larry.act")
    assert_named(table.tables, table.logs, staller, "their turn")


def test_withheld_doubt_shares_name_their_seat_after_a_later_envelope() -> None:
    staller = 1
    table = SansIOTable(
        3, LarryOptions(short_game=True), seed=3, tables={staller: SilentAfterDoubt}
    )

    def doubt_when_possible(_seat: int, t: LarryTable) -> Any:
        actions = legal_actions(t.view())
        return next((a for a in actions if isinstance(a, Doubt)), actions[-1])

    table.run(doubt_when_possible)  # settles when the staller owes the doubt's shares
    service = table.tables[0].service
    assert service is not None and staller in service.publishers
    sign_later(table.ids, table.logs, staller, DECK)
    assert_named(table.tables, table.logs, staller, "shares for the doubt")


def test_a_withheld_coin_reveal_can_still_be_ended_after_a_later_envelope() -> None:
    """The last revealer of the first-player coin withholds its reveal and signs ahead: every
    other peer still names it as withholding the coin, with its commitment as the evidence
    (`withheld`), so the table can be ended over it (10.6)."""
    last = 2
    table = SansIOTable(3, LarryOptions(short_game=True), seed=3, tables={last: WithholdingTable})
    table.run(lambda _seat, t: legal_actions(t.view())[0])
    sign_later(table.ids, table.logs, last, DECK)
    status = assert_named(table.tables, table.logs, last, "their reveal of a joint coin")
    assert status.withholding is not None and "first-player" in status.withholding
    for me in range(last):
        watch, _shown = screen(table.tables[me], table.logs[me], me)
        assert watch.withheld is not None and watch.withheld.seat == last
        assert watch.withheld.commitment.seat == last
        assert watch.withheld.commitment.body["kind"] == "deck.coin.commit"


def test_a_giver_withholding_its_forward_stays_named_whatever_it_signs() -> None:
    """A give-away's forward is private, not an envelope (10.8): a giver that withholds it and
    signs its next envelope anyway is still what the receiver's table waits for."""
    giver = 0
    receiver = GIVE_TO[giver]
    table = SansIOTable(3, LarryOptions(short_game=True), seed=3, tables={giver: WithholdingGiver})
    table.run(givers())  # settles when the table waits for the gift
    at_receiver = table.tables[receiver]
    assert at_receiver.pending_transfer() is not None
    log = table.logs[receiver]
    next_one = sign_envelope(
        table.ids[giver],
        table=log.roster.table,
        seat=giver,
        seq=log.next_seq(giver),
        prev=log.head,
        kind="larry.act",
        body={"ahead": True},
    )
    for each in table.logs:
        assert each.receive(next_one, culprit=f"seat {giver}") == []
    named = held_up_by(at_receiver, log, receiver)
    assert named == {giver: ("a give-away forward",)}
    (status,) = [e for e in screen(at_receiver, log, receiver)[1] if isinstance(e, SeatStatus)]
    assert status.seat == giver and status.owes == ("a give-away forward",)
