"""The silence watch as a machine (p2p/table/runtime/watchdog.py, protocol.md 10.6): each input
moves it along `TRANSITIONS` and returns exactly the statuses a screen shows; an input its state
does not take is refused and changes nothing. tests/game/test_stallers.py drives it from real
tables; these drive it with its typed inputs alone."""

from __future__ import annotations

import pytest

from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.envelope import sign_envelope
from fairdeal.p2p.table.core.api import SeatStatus
from fairdeal.p2p.table.core.withheld import WithheldReveal
from fairdeal.p2p.table.runtime.watchdog import (
    TRANSITIONS,
    Applied,
    Seen,
    Silence,
    SilenceRefused,
    SilenceWatch,
    Tick,
)

LIMIT = 30.0
T0 = 500.0
TURN = ("their turn",)


def reveal(seat: int) -> WithheldReveal:
    commitment = sign_envelope(
        Identity.generate("late"),
        table=b"t" * 32,
        seat=seat,
        seq=3,
        prev=b"p" * 32,
        kind="deck",
        body={"kind": "deck.coin.commit", "coin": "first-player"},
    )
    return WithheldReveal(seat, "first-player", 0.0, commitment, (0, 1))


def snapshot(watch: SilenceWatch) -> tuple[object, ...]:
    return (watch.state, watch.waiting_since, watch.reported, watch.withheld)


def test_a_seat_is_named_past_the_limit_with_what_it_owes_then_cleared() -> None:
    watch = SilenceWatch(LIMIT, T0)
    assert watch.state is Silence.IDLE
    assert watch.feed(Tick(T0 + 1, {}, {2})) == []
    assert watch.state is Silence.IDLE
    assert watch.feed(Tick(T0 + 2, {2: TURN}, {2})) == []  # its silence starts now
    assert watch.state is Silence.WAITING
    assert watch.feed(Tick(T0 + 2 + LIMIT - 1, {2: TURN}, {2})) == []
    assert watch.state is Silence.WAITING
    shown = watch.feed(Tick(T0 + 2 + LIMIT, {2: TURN}, set()))
    assert shown == [SeatStatus(2, False, LIMIT, None, TURN)]  # no channel to it now
    assert watch.state is Silence.NAMED and watch.reported == {2}
    assert watch.feed(Tick(T0 + 3 + LIMIT, {}, {2})) == [SeatStatus(2, True, None)]
    assert watch.state is Silence.IDLE and watch.reported == frozenset()


def test_silence_counts_from_the_later_of_the_last_envelope_and_the_wait() -> None:
    watch = SilenceWatch(LIMIT, T0)
    watch.feed(Tick(T0, {1: TURN, 2: TURN}, {1, 2}))
    assert watch.feed(Applied(T0 + 10)) == []  # names nobody at once, in any state
    assert watch.state is Silence.WAITING and watch.waiting_since == T0 + 10
    assert watch.feed(Tick(T0 + LIMIT, {1: TURN, 2: TURN}, {1, 2})) == []
    shown = watch.feed(Tick(T0 + 10 + LIMIT, {1: TURN, 2: ("shares",)}, {1, 2}))
    assert shown == [
        SeatStatus(1, True, LIMIT, None, TURN),
        SeatStatus(2, True, LIMIT, None, ("shares",)),
    ]
    # seat 2 stops owing and owes again: its silence starts over, seat 1's goes on
    assert watch.feed(Tick(T0 + 11 + LIMIT, {1: TURN}, {1, 2})) == [
        SeatStatus(2, True, None),
        SeatStatus(1, True, LIMIT + 1, None, TURN),
    ]
    assert watch.feed(Tick(T0 + 12 + LIMIT, {1: TURN, 2: TURN}, {1, 2})) == [
        SeatStatus(1, True, LIMIT + 2, None, TURN)
    ]


def test_a_withheld_coin_reveal_is_named_with_the_longest_wait() -> None:
    watch = SilenceWatch(LIMIT, T0)
    late = reveal(2)
    watch.feed(Tick(T0, {2: ("their reveal of a joint coin",)}, {2}, late))
    assert watch.state is Silence.WAITING and watch.withheld is None  # not past the limit
    (status,) = watch.feed(Tick(T0 + LIMIT + 5, {2: ("their reveal of a joint coin",)}, {2}, late))
    assert watch.state is Silence.WITHHELD
    assert watch.withheld is not None and watch.withheld.waited == LIMIT + 5
    assert watch.withheld.commitment is late.commitment
    assert status.seat == 2 and status.withholding == late.what
    watch.feed(Tick(T0 + LIMIT + 6, {2: TURN}, {2}))  # the table moved past the coin
    assert watch.state is Silence.NAMED and watch.withheld is None
    watch.feed(Tick(T0 + LIMIT + 7, {}, {2}))
    assert watch.state is Silence.IDLE and watch.withheld is None


def test_once_over_a_tick_finding_the_game_going_is_refused_and_changes_nothing() -> None:
    watch = SilenceWatch(LIMIT, T0)
    watch.feed(Tick(T0, {1: TURN}, {1}))
    watch.feed(Tick(T0 + LIMIT, {1: TURN}, {1}))
    assert watch.feed(Tick(T0 + LIMIT + 1, over=True)) == []  # shows nothing more
    assert watch.state is Silence.OVER and watch.reported == {1}
    before = snapshot(watch)
    with pytest.raises(SilenceRefused, match="over"):
        watch.feed(Tick(T0 + 2 * LIMIT, {1: TURN}, {1}))
    assert snapshot(watch) == before
    assert watch.feed(Applied(T0 + 3 * LIMIT)) == [] and watch.state is Silence.OVER
    assert watch.feed(Tick(T0 + 4 * LIMIT, over=True)) == []


def test_the_table_takes_every_tick_until_over_and_names_nobody_straight_from_idle() -> None:
    ticks = set(Seen) - {Seen.APPLIED}
    for state in Silence:
        assert TRANSITIONS[(state, Seen.APPLIED)] is state
        taken = {seen for (s, seen) in TRANSITIONS if s is state} - {Seen.APPLIED}
        if state is Silence.OVER:
            assert taken == {Seen.GAME_OVER}
        elif state is Silence.IDLE:
            assert taken == ticks - {Seen.SILENT, Seen.WITHHOLDING}
        else:
            assert taken == ticks
    # a seat first found owing has waited 0 s: with a limit above 0 it is never named at once
    watch = SilenceWatch(LIMIT, T0)
    assert watch.feed(Tick(T0 + 10 * LIMIT, {1: TURN}, {1})) == []
    assert watch.state is Silence.WAITING


@pytest.mark.parametrize("limit", [0.0, -1.0, float("nan")])
def test_a_limit_that_is_not_above_zero_is_refused(limit: float) -> None:
    with pytest.raises(ValueError, match="above 0"):
        SilenceWatch(limit, T0)


def test_it_ticks_a_few_times_per_limit_and_at_least_every_second() -> None:
    assert SilenceWatch(0.2, T0).interval == 0.05
    assert SilenceWatch(2.0, T0).interval == 0.5
    assert SilenceWatch(LIMIT, T0).interval == 1.0
