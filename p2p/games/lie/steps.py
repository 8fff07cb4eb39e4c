"""The Lie's Phase 1 step bookkeeping: the step envelopes every seat applies (T3).

`StepLedger` is the part of `LieTable` (p2p/games/lie/table.py) that follows the steps as
every peer and auditor sees them: the step being applied and how many of its envelopes are in,
each seat's commitment and its opening, the placements, the shares a seat owes in a step, and
what happens at a step's end (its seed, the "Done!" order, the claims' ties, the cards dealt).
protocol.md 10.11.3-10.11.6 is the specification. What this seat itself signs stays with the
table; the ledger asks the table about the engine's state and the seat's own envelopes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fairdeal.engine.errors import IllegalAction
from fairdeal.engine.lie import Claim, Place, Side
from fairdeal.engine.requests import Deal
from fairdeal.p2p.canonical import pack_canonical
from fairdeal.p2p.deck import DeckFault, Slot
from fairdeal.p2p.deck.messages import SHARES
from fairdeal.p2p.games.lie.events import ClaimVoid
from fairdeal.p2p.games.lie.races import (
    MAX_CLAIMS,
    NONCE_SIZE,
    commitment,
    done_rank,
    step_seed,
    tie_winner,
)
from fairdeal.p2p.log.envelope import Envelope

if TYPE_CHECKING:
    from fairdeal.p2p.games.lie.table import LieTable

STEP_KEYS = frozenset({"round", "step", "answers", "commit", "open", "shares", "place"})


@dataclass(frozen=True, slots=True)
class Commit:
    """What a seat's applied step envelope bound it to: its commitment, and what it was
    allowed to claim when it committed (checked when the claims are opened, T3)."""

    envelope: Envelope
    digest: bytes
    may_claim: str | None  # None: it could claim; else why not
    table: frozenset[int]  # the slots on the table when it committed


class StepLedger:
    """One table's Phase 1 steps as applied from its log, round by round (T3). Whether a seat
    may claim, and this seat's own envelopes, are asked of the table (`_why_not_claim`,
    `_note_own_step`), so that a table's subclass answers for both alike."""

    def __init__(self, table: LieTable) -> None:
        self.table = table
        self.round_no = 0
        self.step = 0  # the step being applied (0: none yet this round)
        self.position = 0  # envelopes of step `step` applied (seat order)
        self.step_end = 0  # entries applied when step `step` ended (or the layout was fixed)
        self.commits: dict[int, Commit] = {}  # seat -> its commitment of the latest step
        self.pending_commits: dict[int, Commit] = {}  # this step's, replacing them at its end
        self.openings: dict[int, bytes] = {}  # this step's openings (seat -> bytes)
        self.step_ids: dict[int, bytes] = {}  # this step's envelope ids
        self.answers: dict[int, bytes | None] = {}  # the envelope each one answers
        self.unproved: dict[int, Envelope] = {}  # this step's beginners with no reason yet
        self.unproved_before: dict[int, Envelope] = {}  # the step before's
        self.opened: dict[int, list[int]] = {}  # this step's opened claims
        self.places: dict[int, Side] = {}  # this step's placements
        self.owed: dict[int, frozenset[tuple[Slot, int]]] = {}  # shares owed in this step
        self.dealing: dict[Slot, int] = {}  # dealt at the end of this step: masked -> owner
        self.my_shares: dict[str, Any] | None = None  # shares this seat owes in the next step

    def new_round(self, applied: int) -> None:
        """A round's layout is fixed (`applied` entries in): its steps start after it."""
        self.round_no += 1
        self.step = 0
        self.position = 0
        self.step_end = applied
        self.commits = {}
        self.unproved, self.unproved_before = {}, {}

    def owes(self) -> dict[int, tuple[str, ...]]:
        """For each seat Phase 1 waits for, what it owes (protocol.md 10.11.6)."""
        owing: dict[int, tuple[str, ...]] = {}
        table, state = self.table, self.table.state
        if self.position > 0:
            for seat in range(self.position, table.seats):
                what = [f"their step {self.step} envelope"]
                if self.step > 1 and seat in self.commits:
                    what.append(f"the opening of step {self.step - 1}")
                if self.owed.get(seat):
                    what.append(f"shares for {len(self.owed[seat])} card(s)")
                owing[seat] = tuple(what)
            return owing
        for seat in range(table.seats):
            what = []
            if seat in self.unproved_before:  # began the step with no reason but its claim
                what.append(f"the opening of step {self.step}")
            if self.owed.get(seat):
                what.append(f"their step {self.step + 1} envelope with shares")
            dealing = table._dealing_to(seat)
            if table.unplaced(seat) is not None and not dealing:
                what.append("a placement")
            room = table.options.hand_size - len(state.hands[seat])
            if room > 0 and state.table and not dealing and not what:
                what.append(f"a claim ({room} card(s) to take)")
            if what:
                owing[seat] = tuple(what)
        return owing

    def apply(self, envelope: Envelope, seen: int | None) -> None:
        """Apply one `lie.step` envelope; `seen`: the entries its author had applied when it
        signed (None: its `prev` is no head this log had)."""
        seat, body = envelope.seat, envelope.body
        if not isinstance(body, Mapping) or set(body) != STEP_KEYS:
            raise DeckFault(seat, "unreadable step envelope", {"keys": _keys(body)})
        step = self.step + 1 if self.position == 0 else self.step
        if body["round"] != self.round_no or type(body["round"]) is not int:
            raise DeckFault(
                seat, f"step envelope of round {body['round']!r:.20}, not {self.round_no}"
            )
        if body["step"] != step or type(body["step"]) is not int:
            raise DeckFault(
                seat, f"step envelope numbered {body['step']!r:.20} where step {step} is due"
            )
        if seen is None or seen < self.step_end:
            # it signed before applying every envelope of the step before (or before the
            # layout was fixed): it may have seen others' claims before committing its own
            what = (
                "the layout was fixed"
                if step == 1
                else f"it had applied every step {step - 1} envelope"
            )
            raise DeckFault(seat, f"signed its step {step} envelope before {what}")
        digest, answers = body["commit"], body["answers"]
        if not isinstance(digest, bytes) or len(digest) != 32:
            raise DeckFault(seat, "a step commitment is 32 bytes")
        if answers is not None and (not isinstance(answers, bytes) or len(answers) != 32):
            raise DeckFault(seat, "a step envelope answers an envelope id (32 bytes) or none")
        self._check_opening(envelope, step)
        self._check_place(envelope)
        self._apply_shares(envelope)
        self.step_ids[seat] = envelope.id
        self.answers[seat] = answers
        if answers is None and not (
            body["shares"] is not None or body["place"] is not None or self.opened.get(seat)
        ):
            self.unproved[seat] = envelope  # its reason can only be its commitment's claim
        self.pending_commits[seat] = Commit(
            envelope,
            digest,
            self.table._why_not_claim(seat, body["place"] is not None),
            frozenset(self.table.state.table),
        )
        if seat == self.table.me:
            self.table._note_own_step(body)
        if self.position == 0:
            self.step = step
        self.position += 1
        if self.position == self.table.seats:
            self._end_step()

    def _check_opening(self, envelope: Envelope, step: int) -> None:
        seat, opening = envelope.seat, envelope.body["open"]
        if step == 1:
            if opening is not None:
                raise DeckFault(seat, "opened a commitment in step 1")
            self.openings[seat] = b""
            return
        committed = self.commits[seat]
        evidence = {"commitment": f"{committed.envelope} [{committed.envelope.id.hex()[:16]}]"}
        if (
            not isinstance(opening, Mapping)
            or set(opening) != {"nonce", "claims"}
            or not isinstance(opening["nonce"], bytes)
            or len(opening["nonce"]) != NONCE_SIZE
            or not isinstance(opening["claims"], list)
            or not all(type(s) is int for s in opening["claims"])
        ):
            raise DeckFault(seat, f"did not open its step {step - 1} commitment", evidence)
        nonce, claims = opening["nonce"], opening["claims"]
        digest = commitment(self.table.table_id, self.round_no, step - 1, seat, nonce, claims)
        if digest != committed.digest:
            raise DeckFault(
                seat, f"opened its step {step - 1} commitment to something else", evidence
            )
        if len(claims) > MAX_CLAIMS:
            raise DeckFault(seat, f"committed to {len(claims)} claims in one step (T3)", evidence)
        for slot in claims:
            if slot not in self.table.state.layout:
                raise DeckFault(seat, f"claimed slot {slot}, which is not on the table (T3)")
            if slot not in committed.table:
                raise DeckFault(
                    seat, f"claimed slot {slot}, taken before it committed (T3)", evidence
                )
            if committed.may_claim is not None:
                raise DeckFault(
                    seat, f"claimed slot {slot} while {committed.may_claim} (T3)", evidence
                )
        self.openings[seat] = nonce + pack_canonical(claims)
        self.opened[seat] = claims

    def _check_place(self, envelope: Envelope) -> None:
        seat, place = envelope.seat, envelope.body["place"]
        if place is None:
            return
        if place not in ("left", "right"):
            raise DeckFault(seat, f"placed a card at {place!r:.20}, not left or right")
        if self.table.unplaced(seat) is None or self.table._dealing_to(seat) or seat in self.places:
            raise DeckFault(seat, "placed a card it does not hold unplaced (T3)")
        self.places[seat] = Side(place)

    def _apply_shares(self, envelope: Envelope) -> None:
        seat, body = envelope.seat, envelope.body["shares"]
        owed = self.owed.pop(seat, frozenset())
        if body is None:
            if owed:
                raise DeckFault(seat, f"withheld its shares of {len(owed)} dealt card(s)")
            return
        if not owed:
            raise DeckFault(seat, "published shares nobody asked for")
        if not isinstance(body, Mapping) or body.get("kind") != SHARES:
            raise DeckFault(seat, "a step's shares are a deck.shares message")
        self.table.apply_owed_shares(seat, body, set(owed))

    def _check_reasons(self) -> None:
        """Bounded growth: whoever began a step had something to say (protocol.md 10.11.5).
        An envelope that answers names another envelope of its step, so the ones that name none
        began it; a beginner whose envelope carried no shares, no placement, no opening of a
        claim, and whose commitment opens (in the next step) to no claim, is at fault."""
        ids = set(self.step_ids.values())
        for seat, answered in self.answers.items():
            if answered is not None and (answered not in ids or answered == self.step_ids[seat]):
                envelope = self.pending_commits[seat].envelope
                raise DeckFault(
                    seat,
                    f"answered an envelope that is not another seat's of step {self.step}",
                    {"envelope": f"{envelope} [{envelope.id.hex()[:16]}]"},
                )
        for seat, envelope in self.unproved_before.items():
            if not self.opened.get(seat):
                raise DeckFault(
                    seat,
                    f"began step {self.step - 1} with nothing to say (no claim, placement, "
                    "shares nor opening)",
                    {"envelope": f"{envelope} [{envelope.id.hex()[:16]}]"},
                )
        self.unproved_before, self.unproved = self.unproved, {}
        self.step_ids, self.answers = {}, {}

    def _end_step(self) -> None:
        """Every envelope of the step is in: its seed, its placements, the claims it opened."""
        step = self.step
        self._check_reasons()
        openings = [self.openings.get(seat, b"") for seat in range(self.table.seats)]
        seed = step_seed(self.table.table_id, self.round_no, step, openings)
        self.table.steps += 1
        if self.table.steps_per_round:
            self.table.steps_per_round[-1] += 1
        for seat in sorted(self.places, key=lambda s: done_rank(seed, s)):  # "Done!" ties
            self._place(seat, self.places[seat])
        claims: dict[int, list[int]] = {}
        for seat in range(self.table.seats):
            for slot in self.opened.get(seat, []):
                claims.setdefault(slot, []).append(seat)
        winners: list[tuple[int, int]] = []
        for slot, seats in sorted(claims.items()):
            if len(seats) > 1:
                self.table.ties += 1
            winner = tie_winner(seed, slot, seats) if slot in self.table.state.table else None
            for seat in seats:
                if seat != winner:
                    self.table.void_claims += 1
                    why = (
                        f"seat {winner} won the tie"
                        if winner is not None
                        else "taken a step before"
                    )
                    text = f"seat {seat}'s claim of slot {slot} is void: {why} (T3)"
                    self.table.events.append(ClaimVoid(text, seat=seat, slot=slot, winner=winner))
            if winner is not None:
                winners.append((winner, slot))
                self.table.cards_taken += 1
        self.commits = self.pending_commits
        self.pending_commits = {}
        self.openings, self.opened, self.places = {}, {}, {}
        self.position = 0
        self.step_end = self.table.applied
        self.table._step_ended(step)
        self.dealing.clear()
        # The winners' claims apply in the "Done!" order of this step's seed, not by seat: their
        # Deals are answered in this order, and at hand size 1 that answer completes the hand
        # (a "Done!" tie, T3; protocol.md 10.11.4).
        for seat, slot in sorted(winners, key=lambda won: done_rank(seed, won[0])):
            self._take_effect(seat, slot)
            if self.table.fault is not None:
                return
        if self.dealing:
            self._deal_now()

    def _place(self, seat: int, side: Side) -> None:
        try:
            step = self.table.game.apply(self.table.state, seat, Place(side))
        except IllegalAction as exc:
            self.table.stop(seat, f"illegal placement: {exc.reason}", "lie.step")
            return
        self.table.take_step(step)

    def _take_effect(self, seat: int, slot: int) -> None:
        try:
            step = self.table.game.apply(self.table.state, seat, Claim(slot))
        except IllegalAction as exc:
            self.table.stop(seat, f"illegal claim: {exc.reason}", f"slot {slot}")
            return
        self.table.take_step(step)
        for request in step.requests:
            if isinstance(request, Deal):
                for s in request.slots:
                    self.dealing[self.table.masked_slot(s)] = request.seat

    def _deal_now(self) -> None:
        """Deal this step's cards: every other seat owes its shares in its next step envelope."""
        owners = dict(self.dealing)
        for seat in range(self.table.seats):
            owed = frozenset((masked, seat) for masked, owner in owners.items() if owner != seat)
            if owed:
                self.owed[seat] = owed
        output = self.table.deck.deal(owners)
        for message in output.messages:
            self.my_shares = message
        output.messages.clear()
        self.table.take_output(output)


def _keys(body: Any) -> list[str]:
    return sorted(str(k) for k in body) if isinstance(body, Mapping) else [type(body).__name__]
