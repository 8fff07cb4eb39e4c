"""The Lie at a sans-IO table: the full fair deck, in-memory logs, controlled delivery (T3-T10).

Crypto-heavy, so few and small: 2-3 seats, short hands.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from fairdeal.engine.lie import Claim, Phase, Side
from fairdeal.engine.lie.cards import BACK_OF, NUMBER_OF
from fairdeal.p2p.deck import DeckSession
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import TableLog
from fairdeal.p2p.log.transcript import Transcript, load_transcript
from fairdeal.p2p.table.api import StateChanged
from fairdeal.p2p.table.audit import audit_many, audit_transcript
from fairdeal.p2p.table.driver import Publish
from fairdeal.p2p.table.games import table_class, table_class_for
from fairdeal.p2p.table.larry import LarryTable
from fairdeal.p2p.table.lie import CLAIM, LieTable, race_key, race_winner
from tests.game.lie_sansio import LieSansIO, quick_options


def no_claims(_seat: int, _table: LieTable) -> None:
    return None


def claims_open_everywhere(net: LieSansIO) -> bool:
    return all(t.state is not None and t.claiming() and t.state.table for t in net.tables)


def follow_as_auditor(net: LieSansIO) -> LieTable:
    """An observer (no seat, no secret) fed seat 0's log in order reaches the same state."""
    first = net.tables[0]
    auditor = LieTable(
        first.table_id, first.seats, first.options, DeckSession.observer(first.table_id, 3)
    )
    auditor.observe()
    log = TableLog(net.roster, lambda _log: auditor.expected_seat(), auditor.apply)
    for envelope in net.logs[0].entries:
        log.receive(envelope)
    assert len(log.entries) == len(net.logs[0].entries)
    return auditor


def test_the_factory_picks_each_games_driver() -> None:
    assert table_class("larry") is LarryTable
    assert table_class("lie") is LieTable
    assert table_class_for(quick_options()) is LieTable
    with pytest.raises(ValueError, match="unknown game 'poker'"):
        table_class("poker")


@pytest.fixture(scope="module")
def three_rounds() -> LieSansIO:
    net = LieSansIO(3, quick_options(rounds=3, hand_size=3), seed=2)
    net.run()
    return net


def test_a_whole_three_round_game_every_peer_agrees(three_rounds: LieSansIO) -> None:
    """T3-T10 end to end: 16 lists shuffled within backs, layouts by coin, racing claims, tricks
    opened by their owners' shares, prizes revealed at the end and counted; every peer and an
    auditor end in the same state."""
    net = three_rounds
    states = [t.state for t in net.tables]
    assert all(t.fault is None for t in net.tables)
    assert len(net.heads()) == 1 and not net.rejected
    assert all(s.phase is Phase.GAME_OVER and s.round_no == 3 for s in states)
    assert len({(s.scores, s.winners, s.prizes) for s in states}) == 1
    final = states[0]
    # T10: the prizes are revealed to everyone and their front numbers are the score.
    for seat, won in enumerate(final.prizes):
        assert all(slot in final.revealed for slot in won)
        assert final.scores[seat] == sum(NUMBER_OF[final.revealed[s]] for s in won)
        for slot in won:  # every front opened has the back the table showed (T1)
            assert BACK_OF[final.revealed[slot]] == final.backs[slot]
    assert sum(len(won) for won in final.prizes) == 3 * (3 + 2 + 1)  # T8, three rounds
    assert net.tables[0].races_decided > 0  # the greedy seats did race
    auditor = follow_as_auditor(net)
    assert auditor.fault is None and auditor.state.scores == final.scores
    assert auditor.head == net.logs[0].head


def first_play_state(table: LieTable) -> object:
    """The state in which Phase 2 began at this table (from its StateChanged events)."""
    return next(
        e.state for e in table.events if isinstance(e, StateChanged) and e.state.phase is Phase.PLAY
    )


def test_every_peer_ends_phase_1_with_the_same_hands_in_the_same_order() -> None:
    """Claims delivered in a different random order to each peer still give one outcome (T3)."""
    net = LieSansIO(3, quick_options(hand_size=4), seed=5)
    net.run(
        until=lambda n: all(t.state is not None and t.state.phase is Phase.PLAY for t in n.tables),
        fraction=0.3,
    )
    starts = [first_play_state(t) for t in net.tables]
    assert len({s.hands for s in starts}) == 1
    assert all(len(hand) == 4 for hand in starts[0].hands)
    assert len({s.first_done for s in starts}) == 1
    assert len({s.prize_pile for s in starts}) == 1
    assert net.tables[0].races_decided > 0
    # Each seat knows the fronts of its own hand and of no other.
    for table, start in zip(net.tables, starts, strict=True):
        mine = start.hands[table.me]
        assert all(table.deck.known_card(table.masked_slot(s)) is not None for s in mine)
        other = start.hands[(table.me + 1) % 3]
        unplayed = [s for s in other if s not in table.state.revealed]
        assert all(table.deck.known_card(table.masked_slot(s)) is None for s in unplayed)


def race(order_of_arrival: dict[int, list[int]]) -> LieSansIO:
    """Seats 0 and 1 claim the same slot without seeing each other; `order_of_arrival` says, per
    receiving seat, whose claim reaches it first."""
    net = LieSansIO(3, quick_options(hand_size=2), seed=7)
    net.run(claims=no_claims, until=claims_open_everywhere)
    net.run(claims=no_claims)  # settle: nothing in flight
    slot = net.tables[0].claimable()[0]
    claims = {}
    for seat, side in ((0, Side.LEFT), (1, Side.RIGHT)):
        net.tables[seat].publish_action(Claim(slot, side))
        item = net.tables[seat].outbox.pop()
        claims[seat] = net.sign(seat, item.kind, item.body)
    for to, first in order_of_arrival.items():
        for seat in first:
            if seat == to:
                continue
            net.receive(to, claims[seat])
    for seat in (0, 1):
        net.receive(seat, claims[seat])
    net.run(claims=no_claims)
    return net


def test_a_race_is_decided_the_same_whichever_claim_arrives_first() -> None:
    """T3: neither claimer had seen the other's claim; both delivery orders give every peer the
    same winner, the one the race rule picks; the loser's claim is void, without fault."""
    one = race({0: [0, 1], 1: [1, 0], 2: [0, 1]})
    other = race({0: [1, 0], 1: [0, 1], 2: [1, 0]})
    outcomes = []
    for net in (one, other):
        assert all(t.fault is None for t in net.tables)
        assert len(net.heads()) == 1
        assert {t.void_claims for t in net.tables} == {1}
        assert {t.races_decided for t in net.tables} == {1}
        outcomes.append((net.hands(0), net.hands(1), net.hands(2)))
        assert len({net.hands(s) for s in range(3)}) == 1
    assert outcomes[0][0] == outcomes[1][0]
    hands = outcomes[0][0]
    (slot,) = [s for hand in hands for s in hand]
    seed = one.tables[0]._round_seed
    assert seed is not None
    winner = race_winner(seed, slot, [0, 1])
    assert hands[winner] == (slot,) and hands[1 - winner] == ()


def test_a_claim_of_a_slot_seen_claimed_is_not_a_race() -> None:
    """Seat 1 saw seat 0's claim, then claimed the same slot: a fault by seat 1, not a race."""
    net = LieSansIO(2, quick_options(hand_size=2), seed=3)
    net.run(claims=no_claims, until=claims_open_everywhere)
    net.run(claims=no_claims)
    slot = net.tables[0].claimable()[0]
    net.tables[0].publish_action(Claim(slot))
    net.flush(0)
    net.deliver_all()  # seat 1 applies seat 0's claim once stable
    net.run(claims=no_claims, until=lambda n: slot not in n.tables[1].claimable())
    net.run(claims=no_claims)
    net.tables[1].outbox.append(Publish(CLAIM, {"slot": slot, "side": "left"}))
    net.run(claims=no_claims)
    for table in net.tables:
        assert table.fault is not None and table.fault.seat == 1
        assert f"claimed slot {slot} after seeing seat 0's claim" in table.fault.what
        assert "lie.claim #" in table.fault.evidence
        assert table.expected() is None  # the hand stops


def test_claims_not_yet_settled_count_against_the_hand_in_the_view() -> None:
    """T3: a seat's undecided claims fill its hand as far as its view says: the app offers no
    claim it would refuse ("hand full") while its last claims' races are still open."""
    net = LieSansIO(2, quick_options(hand_size=2), seed=5)
    net.run(claims=no_claims, until=claims_open_everywhere)
    net.run(claims=no_claims)
    table = net.tables[0]
    first, second = table.claimable()[:2]
    table.publish_action(Claim(first))
    view = table.view()
    assert view.pending_claims == (first,) and view.can_claim
    table.publish_action(Claim(second))
    view = table.view()
    assert sorted(view.pending_claims) == sorted((first, second))
    assert not view.can_claim and not view.my_turn and len(view.hand) == 0
    net.flush(0)  # in the log, undecided until seat 1 has seen them
    assert set(table.view().pending_claims) == {first, second}
    net.run(claims=no_claims)
    view = table.view()
    assert view.pending_claims == () and len(view.hand) == 2 and not view.can_claim


# -- the race rule --------------------------------------------------------------------------------


def test_race_key_is_the_documented_bytes() -> None:
    seed = bytes(range(64))
    expected = hashlib.sha256(
        b"fairdeal/lie/race/v1\x00" + seed + (17).to_bytes(8, "big") + (2).to_bytes(8, "big")
    ).digest()
    assert race_key(seed, 17, 2) == expected
    assert race_winner(seed, 17, [0, 1, 2]) == race_winner(seed, 17, [2, 1, 0])  # no seat order


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_no_seat_wins_ties_more_than_its_share(seats: int) -> None:
    """Over many races (fixed seeds: deterministic), every seat wins ties about 1/seats of the
    time: each count is within 5 standard deviations of the binomial mean (a seed-independent
    rule would fail this by far if it favoured a seat: low seats, say, or the first claimer)."""
    races = 6000
    wins = [0] * seats
    for n in range(races):
        seed = hashlib.sha512(n.to_bytes(8, "big")).digest()
        wins[race_winner(seed, n % 96, list(range(seats)))] += 1
    p = 1 / seats
    bound = 5 * math.sqrt(races * p * (1 - p))
    assert all(abs(w - races * p) <= bound for w in wins), wins
    # And between any two claimers, the winner is a coin toss over seeds, not a seat's privilege.
    rng = random.Random(seats)
    pair = rng.sample(range(seats), 2)
    firsts = sum(
        race_winner(hashlib.sha512(bytes([n % 256, n // 256])).digest(), 5, pair) == pair[0]
        for n in range(2000)
    )
    assert abs(firsts - 1000) <= 5 * math.sqrt(2000 * 0.25)


# -- audit ----------------------------------------------------------------------------------------


def write_transcript(net: LieSansIO, seat: int, path: Path) -> Path:
    transcript = Transcript.create(path, net.roster, seat)
    for envelope in net.logs[seat].entries:
        transcript.append_applied(envelope)
    transcript.close()
    return path


def rewrite(path: Path, out: Path, change: Callable[[list[Envelope]], list[Envelope]]) -> Path:
    contents = load_transcript(path)
    transcript = Transcript.create(out, contents.roster, contents.seat)
    for envelope in change(list(contents.applied)):
        transcript.append_applied(envelope)
    transcript.close()
    return out


def test_every_lie_transcript_audits(three_rounds: LieSansIO, tmp_path: Path) -> None:
    reports, disagreement = audit_many(
        [write_transcript(three_rounds, s, tmp_path / f"s{s}.transcript") for s in range(3)]
    )
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
    assert {tuple(r.scores) for r in reports} == {three_rounds.tables[0].state.scores}
    assert reports[0].entries == len(three_rounds.logs[0].entries)


def phase_1_index(net: LieSansIO) -> int:
    """A position in the log among Phase 1's claims (the first claim of round 2)."""
    claims = [i for i, e in enumerate(net.logs[0].entries) if e.kind == CLAIM]
    return claims[len(claims) // 2]


@pytest.mark.parametrize("where", ["phase 1", "phase 2"])
def test_an_altered_dropped_or_moved_lie_envelope_names_its_seat(
    three_rounds: LieSansIO, tmp_path: Path, where: str
) -> None:
    entries = three_rounds.logs[0].entries
    if where == "phase 1":
        at = phase_1_index(three_rounds)
    else:
        at = next(i for i, e in enumerate(entries) if e.kind == "lie.act")
    honest = write_transcript(three_rounds, 0, tmp_path / "honest.transcript")

    def alter(envelopes: list[Envelope]) -> list[Envelope]:
        target = envelopes[at]
        envelopes[at] = replace(target, signed=target.signed[:-1] + bytes([target.signed[-1] ^ 1]))
        return envelopes

    report = audit_transcript(rewrite(honest, tmp_path / "altered.transcript", alter))
    assert not report.verified and report.fault.seat == entries[at].seat

    report = audit_transcript(
        rewrite(honest, tmp_path / "dropped.transcript", lambda es: es[:at] + es[at + 1 :])
    )
    assert not report.verified and report.fault.seat == entries[at].seat
    assert "missing" in report.fault.what

    swap = next(j for j in range(at, len(entries) - 1) if entries[j].seat != entries[j + 1].seat)

    def move(envelopes: list[Envelope]) -> list[Envelope]:
        envelopes[swap], envelopes[swap + 1] = envelopes[swap + 1], envelopes[swap]
        return envelopes

    report = audit_transcript(rewrite(honest, tmp_path / "moved.transcript", move))
    assert not report.verified, where
    assert report.fault.seat == entries[swap + 1].seat  # the envelope now out of its place


# -- crash and rejoin ------------------------------------------------------------------------------


@pytest.mark.parametrize("when", ["phase 1", "trick"])
def test_a_seat_that_crashes_and_rejoins_finishes_the_game(when: str) -> None:
    """SIGKILL and rejoin in memory: the seat's table is rebuilt from its seed, its log and
    what it had signed; the game completes and every peer agrees."""
    net = LieSansIO(3, quick_options(hand_size=3), seed=9)

    def crash_point(n: LieSansIO) -> bool:
        table = n.tables[1]
        if table.state is None:
            return False
        if when == "phase 1":
            return table.claiming() and sum(map(len, table.state.hands)) >= 3
        return table.state.phase is Phase.PLAY and bool(table.state.trick)

    net.run(until=crash_point)
    assert crash_point(net) and not net.tables[1].over
    before = net.logs[1].head
    net.crash_and_rejoin(1)
    assert net.logs[1].head == before  # the replay reached the same place
    net.run()
    assert all(t.fault is None and t.state.over for t in net.tables), [t.fault for t in net.tables]
    assert len(net.heads()) == 1
    assert len({t.state.scores for t in net.tables}) == 1
