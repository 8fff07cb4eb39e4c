"""The order of what happens at the end of a Lie step, where protocol.md 10.11 left a second
implementation to guess: the step's `Deal` answers come after its placements and claims, Phase 1
never has anything but `Deal`s pending, and a seat with something to say still names an envelope
it holds in `answers` (protocol.md 10.11.2, 10.11.4, 10.11.5). Each is checked at every seat of a
sans-IO table with the full fair deck and, where it judges a seat, by the audit of a transcript.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from fairdeal.engine.lie import Claim, Phase
from fairdeal.engine.lie.state import LieState
from fairdeal.engine.requests import Deal
from fairdeal.p2p.games.lie.lockstep import Lockstep
from fairdeal.p2p.games.lie.races import done_rank, rank, tie_winner
from fairdeal.p2p.games.lie.table import STEP, LieTable
from fairdeal.p2p.table.core.outbox import Private, Publish
from fairdeal.p2p.table.tools.audit import audit_transcript
from tests.game.lie_sansio import LieSansIO, quick_options
from tests.game.test_lie_lockstep_attacks import late_step_envelope, quiet
from tests.game.test_lie_table import write_transcript

CHEATER = 1


class EagerLockstep(Lockstep):
    """Commits its next claim as soon as its last one is committed, without waiting to learn
    whether the last one was taken (an honest seat waits: `claim_in_flight`)."""

    def claim_in_flight(self, state: LieState) -> bool:
        return self.wanted() is not None or state.dealing_to(self.me)


class EagerClaimer(LieTable):
    lockstep_class = EagerLockstep


def test_a_steps_deals_are_answered_after_its_claims(tmp_path: Path) -> None:
    """A seat commits its first card's claim in step 1 and its second in step 2, before the first
    took effect (at the end of step 2). Both are opened and take effect at the ends of steps 2
    and 3; the first card's shares come in step 3, so its `Deal` is answered at the end of step
    3 too, and only after that step's claims (10.11.4): the second claim finds the first card
    still unplaced (T3, `PlaceFirst`) and is a fault of its author, at every seat and in the
    audit. Answered first, the `Deal` would have placed the hand's first card itself and the
    claim would have stood."""
    net = LieSansIO(2, quick_options(hand_size=3), seed=9, classes={CHEATER: EagerClaimer})

    def cheater_only(seat: int, table: LieTable) -> Claim | None:
        slots = table.claimable()
        return Claim(slots[0]) if seat == CHEATER and slots else None

    net.run(claims=cheater_only, fraction=1.0)
    opened = [
        (e.body["step"], e.body["open"]["claims"][0])
        for e in net.logs[0].entries
        if e.kind == STEP and e.seat == CHEATER and e.body["open"] and e.body["open"]["claims"]
    ]
    (step_1, first), (step_2, second) = opened[:2]
    assert (step_1, step_2) == (2, 3), opened  # committed in steps 1 and 2
    what = f"illegal claim: place your last card (slot {first})"
    for table in net.tables:
        if table.me == CHEATER:
            continue
        assert table.fault is not None and table.fault.seat == CHEATER, table.fault
        assert what in table.fault.what and table.fault.evidence == f"slot {second}", table.fault
    report = audit_transcript(write_transcript(net, 0, tmp_path / "eager.transcript"))
    assert not report.verified and report.fault is not None
    assert report.fault.seat == CHEATER and what in report.fault.what, str(report.fault)


class PendingWatch(LieTable):
    """Records the pending requests after every envelope applied while Phase 1's steps run."""

    seen: list[tuple[Any, ...]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen = []

    def apply(self, envelope: Any) -> None:
        super().apply(envelope)
        if self.stepping():
            self.seen.append(tuple(self.state.pending))


def test_phase_1_never_has_a_request_but_deals_pending() -> None:
    """10.11.2: while the steps run, every pending request is a `Deal`. The one other request
    Phase 1 issues, the prize pile's `Arrange`, comes with the placement (or, at hand size 1,
    the answered `Deal`) that completes the last hand, when nothing is being dealt, and it ends
    the steps."""
    for hand_size, seed in ((1, 3), (2, 4)):
        net = LieSansIO(3, quick_options(hand_size=hand_size), seed=seed, table_class=PendingWatch)
        net.run(
            until=lambda n: all(
                t.state is not None and t.state.phase is Phase.PLAY for t in n.tables
            )
        )
        for table in net.tables:
            assert isinstance(table, PendingWatch) and table.fault is None
            assert any(table.seen), "no Deal was ever pending during the steps"
            assert all(isinstance(r, Deal) for pending in table.seen for r in pending)


def test_a_seat_with_something_to_say_still_names_the_envelope_it_holds() -> None:
    """10.11.5: a seat that signs because it holds another seat's envelope of the next step
    names it in `answers` even when it has something to say too; `answers` is null only for a
    seat that began the step. Seats 0 and 1 each commit a claim in step 1; seat 1 ends step 1
    first and begins step 2 (its opening is its reason); seat 0 receives that envelope with the
    last one of step 1 and answers it, though its own opening is a reason as well."""
    net = LieSansIO(2, quick_options(hand_size=2), seed=11)
    net.run(
        claims=lambda _s, _t: None,
        until=lambda n: all(t.state is not None and t.claiming() for t in n.tables),
    )
    net.run(claims=lambda _s, _t: None)
    first, second = net.tables
    mine = first.claimable()[0]
    first.publish_action(Claim(mine))
    net.flush(0)
    net.deliver_all()  # seat 1 applies seat 0's step 1 envelope
    second.publish_action(Claim(second.claimable()[-1]))
    net.flush(1)  # its step 1 envelope: step 1 ends at seat 1
    net.pace(1)
    net.flush(1)  # seat 1 begins step 2 with its opening
    begun = net.signed[1][-1]
    assert begun.body["step"] == 2 and begun.body["answers"] is None
    net.deliver_all()  # seat 0: step 1 ends, seat 1's step 2 envelope is held
    net.pace(0)
    [item] = first.outbox
    assert item.kind == STEP and item.body["step"] == 2
    assert item.body["open"]["claims"] == [mine]  # something to say
    assert item.body["answers"] == begun.id  # and still an answer


def test_the_first_failing_check_is_reported_and_the_envelope_is_applied() -> None:
    """4.5, 10.4, 10.11.3: a step envelope numbered for the wrong step that also places a card
    its author does not hold fails two checks; the first in the order of 10.11.3 (the step
    number) is the fault every peer reports. The envelope the game refused is applied: it is
    in every log, and the head moved past it."""
    net = quiet(2, seed=31)

    def two_faults(seat: int, item: Publish | Private) -> Publish | Private:
        if seat == CHEATER and isinstance(item, Publish) and item.kind == STEP:
            return replace(item, body={**item.body, "step": 5, "place": "left"})
        return item

    cheater = net.tables[CHEATER]
    cheater.publish_action(Claim(cheater.claimable()[0]))
    net.run(claims=lambda _s, _t: None, tamper=two_faults)
    bad = net.signed[CHEATER][-1]
    assert bad.body["step"] == 5
    for seat, table in enumerate(net.tables):
        if seat == CHEATER:
            continue
        assert table.fault is not None and table.fault.seat == CHEATER, table.fault
        assert "numbered 5 where step 1 is due" in table.fault.what, table.fault.what
        assert net.logs[seat].entries[-1] == bad  # applied: the log holds it as evidence


def test_an_envelope_with_an_unknown_prev_is_not_applied() -> None:
    """4.5: a chain fault (`bad-prev`) is not applied: the log and its head stay as they were,
    the place is used up, and the table stops blaming the author."""
    net = quiet(2, seed=32)
    envelope = late_step_envelope(net, CHEATER, bytes(32))
    net.receive(0, envelope)  # seat 0 answers it (its own step 1 envelope comes first)
    net.run(claims=lambda _s, _t: None)
    log, table = net.logs[0], net.tables[0]
    assert [(f.seat, f.kind) for f in log.faults] == [(CHEATER, "bad-prev")]
    assert envelope not in log.entries  # not applied
    assert log.entries[-1].seat == 0 and log.entries[-1].kind == STEP
    assert log.head == table.head  # the head is the one after seat 0's own envelope
    assert table.fault is not None and table.fault.seat == CHEATER
    assert log.next_seq(CHEATER) == envelope.seq + 1  # its place is used up


def test_two_claims_of_a_slot_taken_a_step_before_count_as_a_tie_and_both_are_void() -> None:
    """10.11.4 and the audit's counters (10.11.6): seat 0 claims slot x in step 1; seats 1 and 2
    both claim x in step 2, before it was taken (at the end of step 2). At the end of step 3
    both claims are void (x is gone) and the slot still counts as one tie."""
    net = quiet(3, seed=33)
    x = net.tables[0].claimable()[0]
    net.tables[0].publish_action(Claim(x))
    net.flush(0)
    late: set[int] = set()

    def late_claims(seat: int, table: LieTable) -> Claim | None:
        if (
            seat in (1, 2)
            and seat not in late
            and table.lockstep.signed_step == 1
            and x in table.state.table
        ):
            late.add(seat)
            return Claim(x)
        return None

    net.run(claims=late_claims, fraction=1.0)
    assert late == {1, 2}
    opened = {
        (e.seat, e.body["step"]): e.body["open"]["claims"]
        for e in net.logs[0].entries
        if e.kind == STEP and e.body["open"] and e.body["open"]["claims"]
    }
    assert opened == {(0, 2): [x], (1, 3): [x], (2, 3): [x]}, opened
    for table in net.tables:
        assert table.fault is None and table.state.hands[0] == (x,)
        assert (table.ties, table.void_claims) == (1, 2)


def test_smallest_hash_means_the_smallest_256_bit_big_endian_number() -> None:
    """10.11.4: ranks are 32-byte hashes compared as bytes, first byte first, which is the
    order of the 256-bit big-endian numbers they spell."""
    for n in range(50):
        seed = bytes([n]) * 32
        seats = [0, 1, 2, 3, 4, 5]
        by_number = min(seats, key=lambda s: int.from_bytes(rank(seed, 7, s), "big"))
        assert tie_winner(seed, 7, seats) == by_number
        order = sorted(seats, key=lambda s: int.from_bytes(done_rank(seed, s), "big"))
        assert order == sorted(seats, key=lambda s: done_rank(seed, s))


def test_the_beginners_of_a_rounds_last_step_are_not_checked_for_a_reason() -> None:
    """10.11.5: "began step k with nothing to say" is found at the end of step k+1, so a seat
    that begins the round's last step with nothing to say is not named: no step follows. Seat 1
    takes its card first; seat 0 claims a step later, so the last step carries only seat 1's
    shares of seat 0's card, and seat 0 signs its envelope of it with `answers` null."""
    net = quiet(2, seed=34, hand_size=1)

    def one_each(seat: int, table: LieTable) -> Claim | None:
        slots = table.claimable()
        if not slots or (seat == 0 and table.lockstep.signed_step != 1):
            return None
        return Claim(slots[seat])

    def no_answer(seat: int, item: Publish | Private) -> Publish | Private:
        mine = seat == 0 and isinstance(item, Publish) and item.kind == STEP
        if mine and item.body["step"] == 4:
            return replace(item, body={**item.body, "answers": None})
        return item

    net.run(claims=one_each, tamper=no_answer, fraction=1.0)
    steps = [e for e in net.logs[0].entries if e.kind == STEP]
    last = [e for e in steps if e.body["step"] == max(s.body["step"] for s in steps)]
    assert [e.body["step"] for e in last] == [4, 4]
    begun = last[0]
    assert begun.seat == 0 and begun.body["answers"] is None
    assert begun.body["shares"] is None and begun.body["place"] is None
    assert begun.body["open"] == {"nonce": begun.body["open"]["nonce"], "claims": []}
    for table in net.tables:
        assert table.fault is None, table.fault
        assert table.state.phase is not Phase.BUILD  # Phase 1 ended with step 4
