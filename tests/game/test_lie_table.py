"""The Lie at a sans-IO table: the full fair deck, in-memory logs, controlled delivery (T3-T10).

Phase 1 runs in lockstep steps (protocol.md 10.11): property tests of the step machine with
random delivery orders, ties by the step's seed, the documented bytes, audits, crash and rejoin
mid-step. Crypto-heavy, so few and small: 2-3 seats, short hands.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import msgpack
import pytest

from fairdeal.engine.lie import Claim, Phase
from fairdeal.engine.lie.cards import BACK_OF, NUMBER_OF
from fairdeal.p2p.canonical import pack_canonical
from fairdeal.p2p.deck import DeckSession
from fairdeal.p2p.games.larry.table import LarryTable
from fairdeal.p2p.games.lie.races import commitment, done_rank, rank, step_seed, tie_winner
from fairdeal.p2p.games.lie.table import STEP, LieTable
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import TableLog
from fairdeal.p2p.log.transcript import Transcript, load_transcript
from fairdeal.p2p.table.core.api import StateChanged
from fairdeal.p2p.table.core.games import table_class, table_class_for
from fairdeal.p2p.table.tools.audit import audit_many, audit_transcript
from tests.game.lie_sansio import LieSansIO, quick_options
from tests.game.records import read_records, resigned, write_records


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
    assert net.tables[0].ties > 0  # the greedy seats did claim one card in one step
    auditor = follow_as_auditor(net)
    assert auditor.fault is None and auditor.state.scores == final.scores
    assert auditor.head == net.logs[0].head


def first_play_state(table: LieTable) -> object:
    """The state in which Phase 2 began at this table (from its StateChanged events)."""
    return next(
        e.state for e in table.events if isinstance(e, StateChanged) and e.state.phase is Phase.PLAY
    )


@pytest.mark.parametrize(("seed", "fraction"), [(5, 0.3), (6, 0.1), (8, 0.9), (13, 0.5)])
def test_every_peer_ends_phase_1_with_the_same_hands_in_the_same_order(
    seed: int, fraction: float
) -> None:
    """Property of the step machine: envelopes delivered in a different random order, with
    random delays (a part of what is in flight each time), to each peer still give one outcome
    (T3): the same hands in the same order, the same first "Done!", the same prize pile."""
    net = LieSansIO(3, quick_options(hand_size=4), seed=seed)
    net.run(
        until=lambda n: all(t.state is not None and t.state.phase is Phase.PLAY for t in n.tables),
        fraction=fraction,
    )
    assert not net.rejected and all(t.fault is None for t in net.tables)
    starts = [first_play_state(t) for t in net.tables]
    assert len({s.hands for s in starts}) == 1
    assert all(len(hand) == 4 for hand in starts[0].hands)
    assert_earliest_step_wins(net, starts[0].hands)
    assert len({s.first_done for s in starts}) == 1
    assert len({s.prize_pile for s in starts}) == 1
    # Each seat knows the fronts of its own hand and of no other.
    for table, start in zip(net.tables, starts, strict=True):
        mine = start.hands[table.me]
        assert all(table.deck.known_card(table.masked_slot(s)) is not None for s in mine)
        other = start.hands[(table.me + 1) % 3]
        unplayed = [s for s in other if s not in table.state.revealed]
        assert all(table.deck.known_card(table.masked_slot(s)) is None for s in unplayed)


def assert_earliest_step_wins(net: LieSansIO, hands: tuple[tuple[int, ...], ...]) -> None:
    """Read from the log alone: every card taken went to a claimer of the earliest step that
    claimed it, so a seat that is slow (its envelopes delayed) never wins a slot another seat
    claimed in an earlier step (T3, protocol.md 10.11.4)."""
    claims: dict[int, list[tuple[int, int]]] = {}
    for envelope in net.logs[0].entries:
        if envelope.kind == STEP and envelope.body["open"] is not None:
            for slot in envelope.body["open"]["claims"]:  # committed a step before
                claims.setdefault(slot, []).append((envelope.body["step"] - 1, envelope.seat))
    for seat, hand in enumerate(hands):
        for slot in hand:
            earliest = min(step for step, _ in claims[slot])
            assert (earliest, seat) in claims[slot], (slot, seat, claims[slot])


def test_a_delayed_seat_never_wins_a_slot_claimed_a_step_before() -> None:
    """Property: one seat's envelopes reach the others late (held back, then delivered in a
    random order with the rest); the hands still follow the earliest claiming step."""
    net = LieSansIO(3, quick_options(hand_size=4), seed=17)
    slow = 2

    def deliver_slowly(fraction: float = 0.5) -> None:
        rng = net.rng
        rng.shuffle(net.in_flight)
        now = [i for i in net.in_flight if i.envelope.seat != slow or rng.random() < 0.2]
        now = now[: max(1, int(len(now) * fraction))] if now else net.in_flight[:1]
        for item in now:
            net.in_flight.remove(item)
            net.receive(item.to, item.envelope)

    net.deliver_some = deliver_slowly  # type: ignore[method-assign]
    net.run(
        until=lambda n: all(t.state is not None and t.state.phase is Phase.PLAY for t in n.tables)
    )
    assert all(t.fault is None for t in net.tables)
    starts = [first_play_state(t) for t in net.tables]
    assert len({s.hands for s in starts}) == 1
    assert_earliest_step_wins(net, starts[0].hands)


def step_envelopes(net: LieSansIO, round_no: int, step: int) -> list[Envelope]:
    return [
        e
        for e in net.logs[0].entries
        if e.kind == STEP and e.body["round"] == round_no and e.body["step"] == step
    ]


def seed_of(net: LieSansIO, round_no: int, step: int) -> bytes:
    """The seed of a step, from the openings its envelopes carry (protocol.md 10.11.4)."""
    openings = []
    for envelope in step_envelopes(net, round_no, step):
        opened = envelope.body["open"]
        openings.append(
            b"" if opened is None else opened["nonce"] + pack_canonical(opened["claims"])
        )
    return step_seed(net.roster.table, round_no, step, openings)


def quiet_claims_open(seats: int, seed: int) -> LieSansIO:
    net = LieSansIO(seats, quick_options(hand_size=2), seed=seed)
    net.run(claims=no_claims, until=claims_open_everywhere)
    net.run(claims=no_claims)  # settle: nothing in flight, nothing to say
    return net


def test_a_quiet_table_sends_nothing_and_a_claim_starts_a_step_at_once() -> None:
    net = quiet_claims_open(3, seed=7)
    entries = len(net.logs[0].entries)
    net.run(claims=no_claims)
    assert len(net.logs[0].entries) == entries and not net.in_flight  # nothing to say
    table = net.tables[2]
    slot = table.claimable()[0]
    table.publish_action(Claim(slot))
    assert [item.kind for item in table.outbox] == [STEP]  # signed at once, not on a timer
    body = table.outbox[0].body
    assert body["step"] == 1 and body["answers"] is None and body["open"] is None
    net.run(claims=no_claims)
    # step 1 (the claim committed), step 2 (opened: taken), step 3 (its shares), then quiet
    assert {t.steps for t in net.tables} == {3}
    assert all(net.hands(s)[2] == (slot,) for s in range(3))
    answers = {e.seat: e.body["answers"] for e in step_envelopes(net, 1, 1)}
    assert answers[2] is None and answers[0] is not None and answers[1] is not None


def test_a_tie_in_one_step_goes_by_the_steps_seed_whichever_arrives_first() -> None:
    """T3: seats 0 and 1 claim one slot in the same step; whatever the delivery order, every
    peer gives it to the seat the step's seed picks; the other claim is void, without fault."""
    outcomes = []
    for order in ([0, 1], [1, 0]):
        net = quiet_claims_open(3, seed=7)
        slot = net.tables[0].claimable()[0]
        for seat in order:
            net.tables[seat].publish_action(Claim(slot))
            net.flush(seat)
        net.run(claims=no_claims)
        assert all(t.fault is None for t in net.tables) and len(net.heads()) == 1
        assert {t.void_claims for t in net.tables} == {1}
        assert {t.ties for t in net.tables} == {1}
        winner = tie_winner(seed_of(net, 1, 2), slot, [0, 1])
        assert all(net.hands(s)[winner] == (slot,) for s in range(3))
        assert all(net.hands(s)[1 - winner] == () for s in range(3))
        outcomes.append(winner)
    assert outcomes[0] == outcomes[1]


def test_claims_not_yet_settled_count_against_the_hand_in_the_view() -> None:
    """T3, one card at a time: a seat's claim fills its hand in its view until it is settled,
    and it may not claim again before its card's front is known."""
    net = quiet_claims_open(2, seed=5)
    table = net.tables[0]
    first = table.claimable()[0]
    table.publish_action(Claim(first))
    view = table.view()
    assert view.pending_claims == (first,)
    assert not table.can_claim() and not table.may_choose()
    net.run(claims=no_claims)
    assert table.pending_claims() == () and len(table.state.hands[0]) == 1
    assert table.can_claim()


# -- the documented bytes and the tie rule -----------------------------------------------------


def test_commitment_seed_and_rank_are_the_documented_bytes() -> None:
    table, nonce = b"T" * 16, bytes(range(32))
    expected = hashlib.sha256(
        b"fairdeal/lie/step-commit/v3\x00"
        + bytes([16])
        + table
        + (2).to_bytes(8, "big")
        + (7).to_bytes(8, "big")
        + (3).to_bytes(8, "big")
        + nonce
        + bytes([0x91, 0x11])  # msgpack [17]
    ).digest()
    assert commitment(table, 2, 7, 3, nonce, [17]) == expected
    openings = [b"", nonce + bytes([0x90])]
    seed = hashlib.sha256(
        b"fairdeal/lie/step-seed/v3\x00"
        + bytes([16])
        + table
        + (2).to_bytes(8, "big")
        + (8).to_bytes(8, "big")
        + bytes([0])
        + bytes([33])
        + nonce
        + bytes([0x90])
    ).digest()
    assert step_seed(table, 2, 8, openings) == seed
    assert (
        rank(seed, 17, 2)
        == hashlib.sha256(
            b"fairdeal/lie/rank/v3\x00" + seed + (17).to_bytes(8, "big") + (2).to_bytes(8, "big")
        ).digest()
    )
    assert tie_winner(seed, 17, [0, 1, 2]) == tie_winner(seed, 17, [2, 1, 0])  # no seat order


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_over_many_ties_each_seat_wins_its_share(seats: int) -> None:
    """Ties decided by step seeds made as the protocol makes them (the hash of every seat's
    opening: a fresh 32-byte nonce and its claims): each seat's wins are Binomial(n, 1/seats)
    if the rule is fair, and the test allows 5 standard deviations either side. False-alarm
    rate for a fair rule: P(|Z| > 5) = 5.7e-7 per seat, under 3.5e-6 per case (6 seats); the
    seeds are fixed, so the test is deterministic. A rule favouring a seat by even 3 points
    (a low seat, the first opener) fails it at these counts."""
    ties = 6000
    rng = random.Random(seats)
    wins = [0] * seats
    for n in range(ties):
        slot = n % 96
        openings = [rng.randbytes(32) + pack_canonical([slot]) for _ in range(seats)]
        seed = step_seed(b"T" * 16, 1, n + 2, openings)
        wins[tie_winner(seed, slot, list(range(seats)))] += 1
    p = 1 / seats
    bound = 5 * math.sqrt(ties * p * (1 - p))
    assert all(abs(w - ties * p) <= bound for w in wins), wins


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
    """A position in the log among Phase 1's step envelopes: one that opens a claim."""
    claims = [
        i
        for i, e in enumerate(net.logs[0].entries)
        if e.kind == STEP and e.body["open"] is not None and e.body["open"]["claims"]
    ]
    return claims[len(claims) // 2]


def resign(net: LieSansIO, envelope: Envelope, body: dict) -> Envelope:
    """The envelope with another body, signed again by its own author (a tamper the signature
    cannot catch: only the rules can)."""
    return resigned(net.ids[envelope.seat], envelope, body)


def first_step(net: LieSansIO, test: Callable[[dict], bool]) -> int:
    return next(i for i, e in enumerate(net.logs[0].entries) if e.kind == STEP and test(e.body))


TAMPERS = {
    # an opening changed to another claim: not what was committed
    "opening": (
        lambda b: b["open"] is not None and bool(b["open"]["claims"]),
        lambda b: {**b, "open": {**b["open"], "claims": [b["open"]["claims"][0] + 1]}},
        "opened its step",
    ),
    # a placement where the author holds nothing to place (T3)
    "placement": (
        lambda b: b["place"] is None and b["step"] == 1,
        lambda b: {**b, "place": "left"},
        "placed a card it does not hold unplaced",
    ),
    # the step number moved on: out of the lockstep
    "step number": (
        lambda b: b["step"] >= 2,
        lambda b: {**b, "step": b["step"] + 1},
        "where step",
    ),
}


@pytest.mark.parametrize("what", sorted(TAMPERS))
def test_a_step_envelope_tampered_and_signed_again_is_named_by_the_audit(
    three_rounds: LieSansIO, tmp_path: Path, what: str
) -> None:
    """The audit checks the step rules themselves, not only signatures: an opening, a placement
    or a step number changed by its own author (signed again) fails the audit, naming that
    author (protocol.md 10.11.3, 10.11.6)."""
    net = three_rounds
    find, change, message = TAMPERS[what]
    at = first_step(net, find)
    target = net.logs[0].entries[at]
    honest = write_transcript(net, 0, tmp_path / "honest.transcript")

    def tamper(envelopes: list[Envelope]) -> list[Envelope]:
        envelopes[at] = resign(net, target, change(dict(target.body)))
        return envelopes

    report = audit_transcript(rewrite(honest, tmp_path / f"{what}.transcript", tamper))
    assert not report.verified
    assert report.fault.seat == target.seat, str(report.fault)
    assert message in report.fault.what, str(report.fault)


def test_a_changed_commitment_names_its_author(three_rounds: LieSansIO, tmp_path: Path) -> None:
    """A commitment changed in the file fails its author's signature; signed again by the
    author it is a different envelope, so the next envelope's `prev` no longer chains (a
    commitment cannot be swapped after the fact without rewriting the whole log after it)."""
    net = three_rounds
    at = first_step(net, lambda b: b["step"] >= 2)
    target = net.logs[0].entries[at]
    honest = write_transcript(net, 0, tmp_path / "honest.transcript")
    packed = pack_canonical(target.body["commit"])

    def tamper(envelopes: list[Envelope]) -> list[Envelope]:
        signed = target.signed.replace(packed, pack_canonical(bytes(32)))
        envelopes[at] = replace(target, signed=signed)
        return envelopes

    report = audit_transcript(rewrite(honest, tmp_path / "commit.transcript", tamper))
    assert not report.verified and report.fault.seat == target.seat, str(report.fault)


def test_a_reordered_step_is_out_of_order(three_rounds: LieSansIO, tmp_path: Path) -> None:
    """Two envelopes of one step swapped (seat 1's before seat 0's): the step's order is the
    seats' order, so the audit names the envelope out of its place."""
    entries = three_rounds.logs[0].entries
    at = first_step(three_rounds, lambda b: b["step"] == 3)
    assert entries[at].seat == 0 and entries[at + 1].seat == 1
    honest = write_transcript(three_rounds, 0, tmp_path / "honest.transcript")

    def swap(envelopes: list[Envelope]) -> list[Envelope]:
        envelopes[at], envelopes[at + 1] = envelopes[at + 1], envelopes[at]
        return envelopes

    report = audit_transcript(rewrite(honest, tmp_path / "swapped.transcript", swap))
    assert not report.verified and report.fault.seat == 1


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


CRASH_POINTS = ["before its commitment", "after its commitment", "before its opening", "trick"]


@pytest.mark.parametrize("when", CRASH_POINTS)
def test_a_seat_that_crashes_and_rejoins_finishes_the_game(when: str) -> None:
    """SIGKILL and rejoin in memory, in the middle of a step: before the seat signed its
    envelope of a step under way, after it signed one committing to a claim, after that step
    ended and before it opened it (its nonce comes back from its secret randomness), or in a
    trick. The seat's table is rebuilt from its seed, its log and what it had signed; the game
    completes and every peer agrees."""
    net = LieSansIO(3, quick_options(hand_size=3), seed=9)

    def crash_point(n: LieSansIO) -> bool:
        table = n.tables[1]
        if table.state is None or table.over:
            return False
        if when == "trick":
            return table.state.phase is Phase.PLAY and bool(table.state.trick)
        if not table.claiming() or not table.state.table:
            return False
        lockstep = table.lockstep
        if when == "before its commitment":
            return lockstep.position > 0 and lockstep.signed_step < lockstep.step
        committed = lockstep.committed_step()
        if when == "after its commitment":
            return committed is not None and committed == lockstep.signed_step
        return (
            lockstep.position == 0
            and committed == lockstep.step
            and lockstep.signed_step == lockstep.step
        )

    net.run(until=crash_point)
    assert crash_point(net) and not net.tables[1].over
    before = list(net.logs[1].entries)
    net.crash_and_rejoin(1)
    # the replay reached the same place (and what the others held may have come on top)
    assert net.logs[1].entries[: len(before)] == before
    assert not net.logs[1].faults and net.tables[1].fault is None
    net.run()
    assert all(t.fault is None and t.state.over for t in net.tables), [t.fault for t in net.tables]
    assert len(net.heads()) == 1
    assert len({t.state.scores for t in net.tables}) == 1


def test_a_version_2_lie_transcript_is_refused_naming_its_version(
    three_rounds: LieSansIO, tmp_path: Path
) -> None:
    """Envelopes of protocol version 2 (layout 1, with a Lamport time, `lie.claim`s) cannot be
    replayed by version 3 or later: the audit refuses them with a message that names the version."""
    honest = write_transcript(three_rounds, 0, tmp_path / "honest.transcript")
    records = read_records(honest)
    for record in records:
        if record.get("k") == "applied":
            fields = msgpack.unpackb(record["d"], raw=False)
            _, table, seat, seq, prev, kind, body = fields
            record["d"] = msgpack.packb(
                [1, table, seat, seq, seq + 1, prev, kind, body], use_bin_type=True
            )
    old = tmp_path / "v2.transcript"
    write_records(old, records)
    report = audit_transcript(old)
    assert not report.verified
    assert "protocol version 2" in f"{report.fault}", str(report.fault)


def test_a_done_tie_in_one_step_goes_by_the_steps_seed() -> None:
    """T3 "Done!": two seats place their last card in the same step; the one first in the
    step's placement order (`done_rank` under the step's seed) is first done, on every peer."""
    net = LieSansIO(2, quick_options(hand_size=2), seed=41)

    def apart(seat: int, table: LieTable) -> Claim | None:
        slots = table.claimable()
        return Claim(slots[seat]) if len(slots) > seat else None  # never the same card

    net.run(claims=apart, fraction=1.0)
    placed = [
        (e.body["step"], e.seat) for e in net.logs[0].entries if e.kind == STEP and e.body["place"]
    ]
    last = {seat: max(step for step, s in placed if s == seat) for seat in (0, 1)}
    assert last[0] == last[1], placed  # both hands were completed in one step
    seed = seed_of(net, 1, last[0])
    expected = min((0, 1), key=lambda seat: done_rank(seed, seat))
    starts = [first_play_state(t) for t in net.tables]
    assert {s.first_done for s in starts} == {expected}


@pytest.mark.parametrize("seed", [41, 42, 43])
def test_a_done_tie_at_hand_size_1_goes_by_the_seed_not_the_seat(seed: int) -> None:
    """T3 "Done!" at `hand_size` 1: a hand completes when the Deal of its only card is answered,
    and Deals are answered in the order their Claims were applied; those are applied in the
    step seed's `done_rank` order (protocol.md 10.11.4, version 5), so two hands completed in
    one step go by the seed, as placements do, and not always to the lower seat. (Seeds 41 and
    43 give seat 1 the smaller rank: before version 5 seat 0 was first done at every seed.)"""
    net = LieSansIO(2, quick_options(hand_size=1), seed=seed)

    def apart(seat: int, table: LieTable) -> Claim | None:
        slots = table.claimable()
        return Claim(slots[seat]) if len(slots) > seat else None  # never the same card

    net.run(
        claims=apart,
        fraction=1.0,
        until=lambda n: all(t.state is not None and t.state.phase is Phase.PLAY for t in n.tables),
    )
    opened = {
        (e.body["step"], e.seat)
        for e in net.logs[0].entries
        if e.kind == STEP and e.body["open"] and e.body["open"]["claims"]
    }
    assert opened == {(2, 0), (2, 1)}, opened  # both claims took effect at the end of step 2
    ranked = sorted((0, 1), key=lambda seat: done_rank(seed_of(net, 1, 2), seat))
    assert {first_play_state(t).first_done for t in net.tables} == {ranked[0]}
    assert ranked[0] == (1 if seed % 2 else 0)  # the seeds chosen make both seats win once


def test_the_prizes_are_shown_before_the_game_over_as_at_a_local_table(
    three_rounds: LieSansIO,
) -> None:
    """A networked table reports the fronts an engine step opened before the state that step
    made, as a local table does (p2p/table/runtime/local.py): the prizes turned over (T10) come
    before the "Game over" the narrator writes from the final state."""
    from fairdeal.engine.lie.events import GameOver
    from fairdeal.p2p.table.core.api import CardsVerified, StateChanged

    events = three_rounds.tables[0].events
    over = next(
        i
        for i, e in enumerate(events)
        if isinstance(e, StateChanged) and any(isinstance(x, GameOver) for x in e.events)
    )
    prizes = [
        i for i, e in enumerate(events) if isinstance(e, CardsVerified) and e.reason == "prizes"
    ]
    assert prizes and max(prizes) < over
