"""The attacks on The Lie's Phase 1 that protocol version 2 let through, at a lockstep table
(protocol.md 10.11): each is caught, or gains nothing, at a sans-IO table with the full fair deck.

- look-ahead sniping (a modified peer that holds another seat's claim before signing its own):
  on v2 a seat that had received another's `lie.claim` signed its own with an older `prev` and a
  smaller Lamport time and won 9 of 9 races, without any fault. Here claims are bound by
  commitments before anyone's are opened, a claim copied from an opening comes a step late and is
  void, and an envelope signed before its author had every envelope of the step before is a
  fault of its author; so is a claim signed before the layout was fixed (v2 accepted one).
- the Lamport ceiling: on v2 one envelope at Lamport time 2^62 left every honest seat unable to
  sign again (its next time was out of range), blaming nobody. v3 has no Lamport time; the
  extremes of every integer field are refused with a culprit and honest seats still sign.
- unattributed stalls (the Lie's part): a seat that withholds its step envelope, its opening,
  its shares, or never claims its last card is named, with what it owes.
- bounded growth: a seat that begins steps with nothing to say is named.

On v2 these tests cannot even be built (no `lie.step`, no `owes`, no `answers`): each would fail
there, and the v2 behaviour each replaces is the one described above (protocol.md 10.11
of v2).
"""

from __future__ import annotations

from typing import Any

import pytest

from fairdeal.engine.lie import Claim, Place, UnknownAction
from fairdeal.engine.lie.state import LieState
from fairdeal.p2p.canonical import NotCanonical
from fairdeal.p2p.errors import EnvelopeError
from fairdeal.p2p.games.lie.lockstep import Lockstep
from fairdeal.p2p.games.lie.races import commitment
from fairdeal.p2p.games.lie.table import STEP, LieTable
from fairdeal.p2p.log.envelope import MAX_SEQ, sign_envelope
from fairdeal.p2p.table.core.driver import Private, Publish
from tests.game.lie_sansio import LieSansIO, greedy_claims, quick_options

CHEATER = 1


def no_claims(_seat: int, _table: LieTable) -> None:
    return None


def quiet(seats: int, seed: int, hand_size: int = 2, **kwargs: Any) -> LieSansIO:
    """A table whose claims are open, every seat quiet (nothing in flight)."""
    net = LieSansIO(seats, quick_options(hand_size=hand_size), seed=seed, **kwargs)
    net.run(
        claims=no_claims,
        until=lambda n: all(t.state is not None and t.claiming() for t in n.tables),
    )
    net.run(claims=no_claims)
    return net


def assert_caught(net: LieSansIO, what: str, seat: int = CHEATER) -> None:
    for table in net.tables:
        if table.me == seat:
            continue
        assert table.fault is not None, f"seat {table.me} did not notice"
        assert table.fault.seat == seat, table.fault
        assert what in table.fault.what, table.fault.what
        assert table.expected() is None and table.over


# -- attack 1: look-ahead sniping --------------------------------------------------------------


class KeepsEveryWish(Lockstep):
    def drop_stale_wishes(self, state: LieState) -> None:
        pass


class Sniper(LieTable):
    """Signs its step envelope only once it holds every other seat's envelope of that step, and
    claims a slot another seat opened a claim of (the most it can learn before committing)."""

    copied: list[int]
    lockstep_class = KeepsEveryWish

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.copied = []

    def pace(self, held: list[Any]) -> None:
        lockstep = self.lockstep
        if lockstep.position == 0 or lockstep.signed_step >= lockstep.step:
            return  # it never begins a step: it waits to see the others' envelopes first
        if lockstep.position < self.me:
            return
        seen = [
            slot
            for e in (*held, *self._step_envelopes())
            if e.kind == STEP and e.seat != self.me and e.body.get("open")
            for slot in e.body["open"]["claims"]
        ]
        if (
            seen
            and not self.claim_in_flight()
            and lockstep.refusal(self.state, self.me, False) is None
        ):
            lockstep.wish(seen[0], self.state, check=False)
            self.copied.append(seen[0])
        super().pace(held)

    def _step_envelopes(self) -> list[Any]:
        return [c.envelope for c in self.lockstep.pending_commits.values()]


def test_a_look_ahead_sniper_wins_nothing_it_copies() -> None:
    """The sniper (seat 2, last in the step order, so it holds every other envelope of a step
    before signing its own) claims each slot it sees opened by another seat: every such claim
    comes a step after the claim it copies and is void; the honest claimers keep their cards."""
    net = quiet(3, seed=21, hand_size=3, classes={2: Sniper})
    greedy = greedy_claims(net.rng)
    net.run(claims=lambda seat, table: None if seat == 2 else greedy(seat, table))
    sniper = net.tables[2]
    assert isinstance(sniper, Sniper) and sniper.copied
    assert all(t.fault is None for t in net.tables)
    final = net.tables[0]
    hands = [net.tables[0].state.hands[s] for s in range(3)]
    assert len(hands[0]) == len(hands[1]) == 3  # the honest seats took their cards
    assert not set(sniper.copied) & set(hands[2])  # every copied claim came a step late
    assert final.void_claims >= len(sniper.copied)


def late_step_envelope(net: LieSansIO, seat: int, prev: bytes) -> Any:
    """`seat`'s next step envelope, honest in every field but `prev`."""
    table, log = net.tables[seat], net.logs[seat]
    table.publish_action(Claim(table.claimable()[0]))
    body = table.outbox.pop().body
    seq = log.next_seq(seat)
    return sign_envelope(
        net.ids[seat], table=log.roster.table, seat=seat, seq=seq, prev=prev, kind=STEP, body=body
    )


def assert_a_step_signed_after_is_caught(net: LieSansIO, head: bytes, words: str) -> None:
    """The cheater's step envelope signed after `head` (too early), sent to every seat: each
    blames the cheater, `words` in the reason."""
    envelope = late_step_envelope(net, CHEATER, head)
    for seat in range(3):
        net.receive(seat, envelope)
    net.run(claims=no_claims)
    assert_caught(net, words)


def test_a_step_envelope_signed_before_the_step_before_ended_names_its_author() -> None:
    """A seat that opens (or commits) before it has applied every envelope of the step before
    could have seen the others' openings first: its envelope's `prev` shows it, and every peer
    blames it."""
    net = quiet(3, seed=22)
    table = net.tables[0]
    table.publish_action(Claim(table.claimable()[0]))
    net.flush(0)
    net.run(claims=no_claims)  # steps 1-3 ended (the claim, its opening, its shares)
    entries = net.logs[CHEATER].entries
    own = max(i for i, e in enumerate(entries) if e.kind == STEP and e.seat == CHEATER)
    assert entries[own + 1].kind == STEP and entries[own + 1].seat == 2  # the step's last
    heads = net.tables[CHEATER]._heads
    before_end = next(h for h, n in heads.items() if n == own + 1)  # after its own, before 2's
    assert_a_step_signed_after_is_caught(
        net, before_end, "envelope before it had applied every step"
    )


def test_a_claim_signed_before_the_layout_is_fixed_is_refused() -> None:
    net = quiet(3, seed=23)
    table = net.tables[CHEATER]
    heads = table._heads
    before_layout = next(h for h, n in heads.items() if n == table.lockstep.step_end - 1)
    assert_a_step_signed_after_is_caught(net, before_layout, "envelope before the layout was fixed")


# -- attack 3: no field blocks the table ----------------------------------------------------------


def test_extreme_sequence_numbers_and_seats_are_refused_and_honest_seats_still_sign() -> None:
    """On v2 an envelope at Lamport time 2^62 stopped every honest seat from signing. v3 has no
    Lamport time; the largest seq msgpack can carry is refused (naming who delivered it), a seat
    out of range cannot even be read, and the game plays on to its end."""
    net = quiet(3, seed=24)
    table_id = net.roster.table
    prev = net.logs[0].head
    huge = sign_envelope(
        net.ids[CHEATER], table=table_id, seat=CHEATER, seq=MAX_SEQ, prev=prev, kind=STEP, body={}
    )
    with pytest.raises(EnvelopeError, match="too far ahead") as caught:
        net.logs[0].receive(huge, culprit="seat 1")
    assert caught.value.culprit == "seat 1"
    with pytest.raises(EnvelopeError, match="seat 256 is out of range"):
        sign_envelope(net.ids[0], table=table_id, seat=256, seq=0, prev=prev, kind=STEP, body={})
    with pytest.raises(NotCanonical):  # one past: not even msgpack can carry it
        sign_envelope(
            net.ids[0], table=table_id, seat=0, seq=MAX_SEQ + 1, prev=prev, kind=STEP, body={}
        )
    net.run()  # the honest seats sign on and finish the game
    assert all(t.fault is None and t.state.over for t in net.tables)


@pytest.mark.parametrize(
    ("field", "value", "what"),
    [
        ("step", MAX_SEQ, "numbered"),
        ("round", MAX_SEQ, "step envelope of round"),
        ("claims", [MAX_SEQ], "not on the table"),
        ("claims", [0, 1], "claims in one step"),
    ],
)
def test_extreme_integers_in_a_step_are_a_fault_of_their_author(
    field: str, value: Any, what: str
) -> None:
    """Every integer a step envelope carries (step, round, slot, how many claims) at its
    extreme: a fault naming its author, while the honest seats can still sign (their log takes
    their next envelope as ever)."""
    net = quiet(3, seed=25, classes={CHEATER: Loose})
    cheater = net.tables[CHEATER]
    if field == "claims":
        cheater.lockstep.forced_claims = value
        cheater.publish_action(Claim(cheater.claimable()[0]))
        net.run(claims=no_claims)
    else:

        def tamper(seat: int, item: Publish | Private) -> Publish | Private:
            if seat == CHEATER and isinstance(item, Publish) and item.kind == STEP:
                return Publish(STEP, {**item.body, field: value})
            return item

        cheater.publish_action(Claim(cheater.claimable()[0]))
        net.run(claims=no_claims, tamper=tamper)
    assert_caught(net, what)
    honest = net.logs[0].author(net.ids[0], 0, STEP, {})  # signing is never blocked
    assert honest.seq == net.logs[0].next_seq(0)


class ForcedLockstep(Lockstep):
    """Commits to `forced_claims` (any list) in its next step envelope."""

    forced_claims: list[int] | None = None

    def sign(self, step: int, answers: bytes | None, state: LieState) -> dict[str, Any]:
        body = super().sign(step, answers, state)
        if self.forced_claims is not None and self._my_commit is not None:
            commit = self._my_commit
            commit.claims = list(self.forced_claims)
            body["commit"] = commitment(
                self.table_id, self.round_no, step, self.me, commit.nonce, commit.claims
            )
            self.forced_claims = None
        return body


class Loose(LieTable):
    lockstep_class = ForcedLockstep


# -- attack 4 (The Lie): every stall names who it waits for and what it owes ----------------


def drop_steps_of(seat: int, after: int = 0) -> Any:
    sent: list[int] = []

    def tamper(author: int, item: Publish | Private) -> Publish | Private | None:
        if author == seat and isinstance(item, Publish) and item.kind == STEP:
            sent.append(1)
            if len(sent) > after:
                return None
        return item

    return tamper


def test_a_seat_that_withholds_its_step_envelope_is_named_with_what_it_owes() -> None:
    net = quiet(3, seed=26)
    net.tables[0].publish_action(Claim(net.tables[0].claimable()[0]))
    net.run(claims=no_claims, tamper=drop_steps_of(2))
    for table in net.tables[:2]:
        owes = table.owes()
        assert list(owes) == [2]
        assert owes[2][0] == "their step 1 envelope"


def test_a_seat_that_withholds_its_shares_is_named_with_what_it_owes() -> None:
    """Seat 2 signs step 1 but not step 2, where it owed the opening of step 1 and then its
    shares of the card seat 0 took: the table waits for it and says so."""
    net = quiet(3, seed=27)
    net.tables[0].publish_action(Claim(net.tables[0].claimable()[0]))
    net.run(claims=no_claims, tamper=drop_steps_of(2, after=2))
    owes = net.tables[0].owes()
    assert list(owes) == [2]
    assert owes[2][0].startswith("their step 3 envelope")
    assert any("shares for 1 card" in what for what in owes[2])


def test_a_withheld_opening_is_named_as_the_opening_not_as_a_claim() -> None:
    """Seat 1 begins step 1 with its claim alone, so its commitment must open to a claim in
    step 2, which it never signs: every peer shows it owing that opening (before, "a claim (2
    card(s) to take)", as if it had claimed nothing)."""
    net = quiet(3, seed=28)
    net.tables[CHEATER].publish_action(Claim(net.tables[CHEATER].claimable()[0]))
    net.run(claims=no_claims, tamper=drop_steps_of(CHEATER, after=1))
    for table in net.tables:
        assert table.owes()[CHEATER] == ("the opening of step 1",)


def test_a_step_without_the_opening_it_owes_is_a_fault_with_the_commitment_as_evidence() -> None:
    def tamper(seat: int, item: Publish | Private) -> Publish | Private:
        is_step = seat == CHEATER and isinstance(item, Publish) and item.kind == STEP
        if is_step and item.body["step"] == 2:
            return Publish(STEP, {**item.body, "open": None})
        return item

    net = quiet(3, seed=28)
    net.tables[CHEATER].publish_action(Claim(net.tables[CHEATER].claimable()[0]))
    net.run(claims=no_claims, tamper=tamper)
    assert_caught(net, "did not open its step 1 commitment")
    assert "commitment" in net.tables[0].fault.evidence


def test_a_commitment_opened_to_something_else_is_a_fault() -> None:
    def tamper(seat: int, item: Publish | Private) -> Publish | Private:
        if seat == CHEATER and isinstance(item, Publish) and item.kind == STEP:
            opened = item.body["open"]
            if opened is not None and opened["claims"]:
                other = net.tables[CHEATER].claimable()[-1]
                return Publish(STEP, {**item.body, "open": {**opened, "claims": [other]}})
        return item

    net = quiet(3, seed=29)
    net.tables[CHEATER].publish_action(Claim(net.tables[CHEATER].claimable()[0]))
    net.run(claims=no_claims, tamper=tamper)
    assert_caught(net, "opened its step 1 commitment to something else")


def test_a_seat_that_never_claims_its_last_card_is_named() -> None:
    """Seat 2 stops claiming with room in its hand: the table goes quiet and every peer shows
    seat 2 owing a claim (and nobody else owing anything)."""

    def claims(seat: int, table: LieTable) -> Claim | None:
        if seat == 2 and len(table.state.hands[2]) >= 1:
            return None
        slots = table.claimable()
        return Claim(slots[0]) if slots else None

    net = LieSansIO(3, quick_options(hand_size=2), seed=30)
    net.run(claims=claims)
    assert not net.in_flight
    for table in net.tables:
        assert table.fault is None and table.claiming()
        assert table.owes() == {2: ("a claim (1 card(s) to take)",)}


def test_a_seat_that_never_places_its_card_is_named() -> None:
    net = quiet(3, seed=31, hand_size=3)

    def claims(seat: int, table: LieTable) -> Claim | None:
        slots = table.claimable()
        return Claim(slots[0]) if slots else None

    class NeverPlaces(LieTable):
        def can_place(self) -> bool:
            return False

    net = LieSansIO(3, quick_options(hand_size=3), seed=31, classes={2: NeverPlaces})
    net.run(claims=claims)
    assert any("a placement" in what for what in net.tables[0].owes().get(2, ()))


def test_a_place_with_a_side_that_is_no_name_is_refused_naming_the_seat() -> None:
    """`Place(["left"])` from Python is refused with the seat named, and nothing is queued
    (before, a TypeError from the engine, or a ValueError from the table)."""
    net = LieSansIO(3, quick_options(hand_size=3), seed=31)
    net.run(claims=greedy_claims(net.rng, 1), until=lambda n: n.tables[0].can_place())
    table = net.tables[0]
    for side in (["left"], {"left": 1}, "up"):
        with pytest.raises(UnknownAction, match="left or right") as info:
            table.publish_action(Place(side))  # type: ignore[arg-type]
        assert info.value.seat == 0
    assert not table.outbox and table.can_place()


# -- bounded growth -------------------------------------------------------------------------------


class ChattyLockstep(Lockstep):
    """Always has something to say: begins a step whenever none is under way."""

    def has_reason(self) -> bool:
        return True


class Chatty(LieTable):
    lockstep_class = ChattyLockstep


def test_a_seat_that_begins_steps_with_nothing_to_say_is_named() -> None:
    net = quiet(3, seed=32, classes={CHEATER: Chatty})
    net.run(claims=no_claims)
    assert_caught(net, "began step 1 with nothing to say")
    assert net.tables[0].steps == 1  # one empty step, then the fault: growth is bounded


def test_answers_name_an_envelope_of_the_step() -> None:
    """An answer names another seat's envelope of its step: a made-up one is a fault, so that a
    seat cannot pass off the step it began as an answer."""

    def tamper(seat: int, item: Publish | Private) -> Publish | Private:
        if seat == CHEATER and isinstance(item, Publish) and item.kind == STEP:
            return Publish(STEP, {**item.body, "answers": bytes(32)})
        return item

    net = quiet(3, seed=33)
    net.tables[0].publish_action(Claim(net.tables[0].claimable()[0]))
    net.run(claims=no_claims, tamper=tamper)
    assert_caught(net, "answered an envelope that is not another seat's of step 1")
