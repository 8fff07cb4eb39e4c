"""The Lie's Phase 1 lockstep as a small machine: the steps and every claim (T3).

protocol.md 10.11.3-10.11.6 is the specification; this file is everything that moves it, as two
transition tables (drawn into docs/state-machines/ by p2p/diagrams.py):

- `STEP_TRANSITIONS`: the table is between steps, or a step is under way (some of its N step
  envelopes applied, seat order); its last envelope ends it.
- `CLAIM_TRANSITIONS`: one claim of one slot by one seat, kept by its seat and the step that
  committed it. This seat's player wants a slot (WANTED), this seat signs its commitment
  (COMMITTED), the claimer's opening is applied (OPENED: every seat sees the claims of others
  only here), and the end of that step decides it: TAKEN, or VOID (`ClaimVoid`, no fault).

`Lockstep` owns the state and holds no pointer to the table: the table (p2p/games/lie/table.py)
feeds it inputs (an applied step envelope in two halves, `check` then `record`, with the shares
it carries applied between them; the player's wishes; the layout fixed; the cards dealt) and
carries out its outputs (`SignStep`: the envelope this seat signs; `PlaceCard`/`TakeCard`: the
engine actions a step's end applies, in order; `ClaimVoid`). When this seat signs is decided
in one place (`pace`), the tie rule in one place (`tie_rule`, with the hashes of races.py), and
whether a seat may claim is the engine's `claim_refusal` (engine/lie/state.py), asked in one
place (`Lockstep.refusal`; a test's cheat overrides it in a subclass, `LieTable.lockstep_class`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from fairdeal.engine.errors import IllegalAction
from fairdeal.engine.lie import Side
from fairdeal.engine.lie.errors import HandFull, NotBuilding, PlaceFirst, SlotTaken
from fairdeal.engine.lie.state import LieState, Phase, claim_refusal
from fairdeal.engine.requests import Deal
from fairdeal.p2p.canonical import pack_canonical
from fairdeal.p2p.deck import DeckFault, Slot
from fairdeal.p2p.deck.messages import SHARES
from fairdeal.p2p.diagrams import Machine
from fairdeal.p2p.games.lie.events import ClaimVoid
from fairdeal.p2p.games.lie.races import (
    MAX_CLAIMS,
    NONCE_LABEL,
    NONCE_SIZE,
    commitment,
    done_rank,
    step_seed,
    tie_winner,
    u64,
)
from fairdeal.p2p.log.envelope import Envelope

STEP_KEYS = frozenset({"round", "step", "answers", "commit", "open", "shares", "place"})


class StepPhase(Enum):
    BETWEEN = "between steps"
    UNDER_WAY = "a step under way"


class StepInput(Enum):
    LAYOUT = "the round's layout fixed"
    BEGIN = "a step's first envelope applied"
    ENVELOPE = "another envelope of the step applied"
    END = "the step's last envelope applied"


# A step once begun always ends (protocol.md 10.11.2): a new layout comes only between steps.
STEP_TRANSITIONS: Mapping[tuple[StepPhase, StepInput], StepPhase] = {
    (StepPhase.BETWEEN, StepInput.LAYOUT): StepPhase.BETWEEN,
    (StepPhase.BETWEEN, StepInput.BEGIN): StepPhase.UNDER_WAY,
    (StepPhase.UNDER_WAY, StepInput.ENVELOPE): StepPhase.UNDER_WAY,
    (StepPhase.UNDER_WAY, StepInput.END): StepPhase.BETWEEN,
}


class ClaimState(Enum):
    IDLE = "no claim"
    WANTED = "wanted by this seat's player"
    COMMITTED = "committed"
    OPENED = "opened"
    TAKEN = "taken"
    VOID = "void"


class ClaimInput(Enum):
    WISH = "this seat's player asks for the slot"
    DROP = "the slot went, or this seat may not claim"
    SIGN = "this seat signs its step envelope"
    RESTORE = "this seat's signed commitment found after a restart"
    OPEN = "the claimer's opening applied"
    WIN = "the step ends: the claimer wins the slot"
    LOSE = "the step ends: another seat wins it, or it went a step before"


# One claim of one slot by one seat. Another seat's commitment hides its claim, so its claim is
# seen first OPENED; a decided claim stays TAKEN or VOID until the round ends (its slot never
# comes back to the table in that round).
CLAIM_TRANSITIONS: Mapping[tuple[ClaimState, ClaimInput], ClaimState] = {
    (ClaimState.IDLE, ClaimInput.WISH): ClaimState.WANTED,
    (ClaimState.WANTED, ClaimInput.DROP): ClaimState.IDLE,
    (ClaimState.WANTED, ClaimInput.SIGN): ClaimState.COMMITTED,
    (ClaimState.IDLE, ClaimInput.RESTORE): ClaimState.COMMITTED,
    (ClaimState.IDLE, ClaimInput.OPEN): ClaimState.OPENED,
    (ClaimState.COMMITTED, ClaimInput.OPEN): ClaimState.OPENED,
    (ClaimState.OPENED, ClaimInput.WIN): ClaimState.TAKEN,
    (ClaimState.OPENED, ClaimInput.LOSE): ClaimState.VOID,
}

IN_FLIGHT = frozenset({ClaimState.WANTED, ClaimState.COMMITTED, ClaimState.OPENED})

DIAGRAMS = (
    Machine(
        "lie-lockstep",
        "The Lie's lockstep steps",
        "How The Lie's Phase 1 steps move (p2p/games/lie/lockstep.py, `STEP_TRANSITIONS`): in a "
        "step every seat signs one `lie.step` envelope, applied in seat order; the last one ends "
        "the step (its seed, placements, claims and deals: protocol.md 10.11.3-10.11.4). Each "
        "claim moves as lie-claim.md draws.",
        STEP_TRANSITIONS,
        StepPhase.BETWEEN,
    ),
    Machine(
        "lie-claim",
        "A claim in The Lie's lockstep",
        "How one seat's claim of one slot moves (p2p/games/lie/lockstep.py, "
        "`CLAIM_TRANSITIONS`): wanted and committed are seen by the claimer alone, every other "
        "seat sees it first opened; the end of the step that opened it takes it or voids it "
        "(a tie goes by the step's seed, T3; protocol.md 10.11.4).",
        CLAIM_TRANSITIONS,
        ClaimState.IDLE,
    ),
)


class Refused(Exception):
    """An input the machine's table does not take in its state (a bug of the caller: an
    envelope a peer sent is refused earlier, as a DeckFault naming its author)."""


# -- outputs --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SignStep:
    """This seat's step envelope to sign and publish; `claims`: the slot it asks for, if any."""

    body: dict[str, Any]
    claims: int | None


@dataclass(frozen=True, slots=True)
class PlaceCard:
    """At a step's end: apply `Place(side)` of `seat` (in the step's "Done!" order)."""

    seat: int
    side: Side


@dataclass(frozen=True, slots=True)
class TakeCard:
    """At a step's end: apply the winner's `Claim(slot)` (in the step's "Done!" order)."""

    seat: int
    slot: int


StepOutput = PlaceCard | ClaimVoid | TakeCard


@dataclass(frozen=True, slots=True)
class Commit:
    """What a seat's applied step envelope bound it to: its commitment, and what it was
    allowed to claim when it committed (checked when the claims are opened, T3)."""

    envelope: Envelope
    digest: bytes
    may_claim: str | None  # None: it could claim; else why not, in the words of a fault
    table: frozenset[int]  # the slots on the table when it committed


@dataclass(frozen=True, slots=True)
class Checked:
    """A step envelope that passed every check (protocol.md 10.11.3), not recorded yet:
    `shares`, the deck.shares it carries (the table applies them, `owed`, then records it)."""

    envelope: Envelope
    step: int
    opening: bytes
    claims: tuple[int, ...]
    place: Side | None
    shares: Mapping[str, Any] | None
    owed: frozenset[tuple[Slot, int]]


@dataclass
class _MyCommit:
    step: int
    nonce: bytes
    claims: list[int]


def _why_not(refusal: IllegalAction | None, state: LieState, seat: int) -> str | None:
    """The engine's refusal (engine/lie/state.py `claim_refusal`) in the words of a fault, as
    protocol.md 10.11.3 step 4 names the reasons: "claimed slot x while … (T3)"."""
    if refusal is None:
        return None
    if isinstance(refusal, NotBuilding) or not state.claims_open():
        return "claims are not open"
    if state.dealing_to(seat):  # PlaceFirst or WaitingForDriver: its front is being dealt
        return "its last card's front was not known yet"
    if isinstance(refusal, PlaceFirst):
        return "it had not placed its last card"
    if isinstance(refusal, HandFull):
        return "its hand was full"
    return refusal.reason


class Lockstep:
    """One table's Phase 1 steps as applied from its log, round by round, and this seat's own
    step envelopes (T3). `me` >= `seats`: an auditor, which signs nothing."""

    def __init__(
        self, table_id: bytes, seats: int, me: int, hand_size: int, nonce_key: bytes | None
    ) -> None:
        self.table_id, self.seats, self.me, self.hand_size = table_id, seats, me, hand_size
        self._nonce_key = nonce_key
        self.phase = StepPhase.BETWEEN
        self.round_no = 0
        self.step = 0  # the step under way, else the last one ended (0: none yet this round)
        self.position = 0  # envelopes of step `step` applied (seat order)
        self.step_end = 0  # entries applied when step `step` ended (or the layout was fixed)
        # every claim this round, by its seat and the step it was committed in (None: wanted,
        # not signed yet): its slot and its state (a seat commits at most one claim a step)
        self.claims: dict[tuple[int, int | None], tuple[int, ClaimState]] = {}
        self._commits: dict[int, Commit] = {}  # seat -> its commitment of the latest step
        self.pending_commits: dict[int, Commit] = {}  # this step's, replacing them at its end
        self._openings: dict[int, bytes] = {}  # this step's openings (seat -> bytes)
        self._step_ids: dict[int, bytes] = {}  # this step's envelope ids
        self._answers: dict[int, bytes | None] = {}  # the envelope each one answers
        self._unproved: dict[int, Envelope] = {}  # this step's beginners with no reason yet
        self._unproved_before: dict[int, Envelope] = {}  # the step before's
        self._opened: dict[int, list[int]] = {}  # this step's opened claims
        self._places: dict[int, Side] = {}  # this step's placements
        self._owed: dict[int, frozenset[tuple[Slot, int]]] = {}  # shares owed in this step
        self._my_shares: Mapping[str, Any] | None = None  # shares this seat owes next step
        # this seat's own envelopes
        self._my_commit: _MyCommit | None = None
        self.signed_step = 0  # the newest step this seat signed an envelope of, this round
        self._want_place: Side | None = None
        self._placed_in: int | None = None  # the step whose envelope places this seat's card
        # what every peer counts alike (protocol.md 10.11.6)
        self.steps = 0
        self.steps_per_round: list[int] = []
        self.void_claims = 0
        self.ties = 0  # slots claimed by more than one seat in one step
        self.cards_taken = 0

    # -- the tables ----------------------------------------------------------------------------

    def _step_move(self, event: StepInput) -> None:
        target = STEP_TRANSITIONS.get((self.phase, event))
        if target is None:
            raise Refused(f"{event.value} while {self.phase.value}")
        self.phase = target

    def claim_state(self, seat: int, step: int | None) -> ClaimState:
        """The state of `seat`'s claim committed in `step` (None: the one wanted)."""
        return self.claims[(seat, step)][1] if (seat, step) in self.claims else ClaimState.IDLE

    def _claim_move(
        self, seat: int, step: int | None, event: ClaimInput, slot: int | None = None
    ) -> None:
        """Move `seat`'s claim of `step` by CLAIM_TRANSITIONS (`slot`: a new claim's)."""
        known, state = self.claims.get((seat, step), (slot, ClaimState.IDLE))
        target = CLAIM_TRANSITIONS.get((state, event))
        if target is None or known is None:
            raise Refused(f"seat {seat}'s claim of step {step}: {event.value} while {state.value}")
        self.claims.pop((seat, step), None)
        if target is not ClaimState.IDLE:
            self.claims[(seat, step)] = (known, target)

    def _sign_wish(self, step: int) -> None:
        """WANTED -> COMMITTED: the wish becomes this seat's claim committed in `step`."""
        self._claim_move(self.me, None, ClaimInput.SIGN)
        self.claims[(self.me, step)] = self.claims.pop((self.me, None))

    def _mine(self, *states: ClaimState) -> list[int | None]:
        """The steps of this seat's claims in `states`."""
        return [
            step for (seat, step), (_, s) in self.claims.items() if seat == self.me and s in states
        ]

    # -- the claim rule, once ------------------------------------------------------------------

    def refusal(self, state: LieState, seat: int, placing: bool) -> IllegalAction | None:
        """Why `seat` may not commit to a claim now (None: it may): T3's one rule, the engine's
        `claim_refusal`. `placing`: its envelope places its unplaced card (one card at a time)."""
        return claim_refusal(state, seat, placing=placing)

    # -- what this seat may do -----------------------------------------------------------------

    def wanted(self) -> int | None:
        """The slot this seat's player asked for, not signed yet."""
        wanted = self.claims.get((self.me, None))
        return wanted[0] if wanted is not None else None

    def claim_in_flight(self, state: LieState) -> bool:
        """A claim of this seat asked for, committed or opened and not decided yet, or a card
        taken whose front this seat does not know yet."""
        return bool(self._mine(*IN_FLIGHT)) or state.dealing_to(self.me)

    def committed_step(self) -> int | None:
        """The step this seat's newest claim not decided yet was committed in (None: none)."""
        steps = [s for s in self._mine(ClaimState.COMMITTED, ClaimState.OPENED) if s is not None]
        return max(steps) if steps else None

    def placing(self) -> bool:
        """This seat's unplaced card is being placed: the placement is kept for its next step
        envelope, or signed in a step not ended yet (the engine's state shows the card unplaced
        until then, T3). A claim may be made meanwhile; another placement may not."""
        return self._want_place is not None or self._placed_in is not None

    def pending_claims(self) -> tuple[int, ...]:
        """This seat's claims that count against its hand until they are decided: the one
        wanted, else the one committed in its newest envelope, else the one opened."""
        wanted = self.wanted()
        if wanted is not None:
            return (wanted,)
        committed = self.committed_step()
        if committed is not None and self._my_commit is not None:
            if self._my_commit.step == committed:
                return tuple(self._my_commit.claims)
            return tuple(self._opened.get(self.me, ()))  # opened, its step not ended yet
        return ()

    def has_reason(self) -> bool:
        """Whether this seat has something to say in a new step: a claim, a placement, shares
        or the opening of a commitment to claims (protocol.md 10.11.5)."""
        return (
            self.wanted() is not None
            or self._want_place is not None
            or self._my_shares is not None
            or (self._my_commit is not None and bool(self._my_commit.claims))
        )

    def wish(self, slot: int, state: LieState, *, check: bool = True) -> None:
        """This seat's player asks for `slot`, kept for its next step envelope. Checked as every
        peer will check it (raises the typed IllegalAction, nothing kept); without `check` (a
        test's deliberate cheat) it is kept as it is."""
        if check:
            if self.claim_in_flight(state):
                raise IllegalAction(self.me, "one card at a time: wait for your last (T3)")
            refusal = self.refusal(state, self.me, self.placing())
            if refusal is not None:
                raise refusal
            if slot not in state.table:
                raise SlotTaken(self.me, f"slot {slot} is taken (T3)")
        if self.wanted() is not None:  # a new wish replaces the one not signed yet
            self._claim_move(self.me, None, ClaimInput.DROP)
        self._claim_move(self.me, None, ClaimInput.WISH, slot)

    def wish_place(self, side: Side) -> None:
        """This seat's player places its unplaced card at `side` (absolute), in its next step
        envelope."""
        self._want_place = side

    def drop_stale_wishes(self, state: LieState) -> None:
        """A claim of a slot taken meanwhile, or a placement with nothing to place, is dropped
        before it could start a step: an honest seat never starts one without a reason."""
        if self._want_place is not None and (
            state.unplaced[self.me] is None or state.dealing_to(self.me)
        ):
            self._want_place = None
        want = self.wanted()
        if want is not None and (
            want not in state.table or self.refusal(state, self.me, self.placing()) is not None
        ):
            self._claim_move(self.me, None, ClaimInput.DROP)

    # -- pacing: when this seat signs, in one place ---------------------------------------------

    def pace(self, state: LieState, held: bytes | None) -> SignStep | None:
        """This seat's step envelope if one is due now (protocol.md 10.11.5): while a step is
        under way, its envelope of it answering the step's first; between steps, the next one
        if it holds another seat's next envelope (`held`, its id: answered at once) or has
        something to say. None: nothing to sign (a quiet table sends nothing)."""
        if self.me >= self.seats:
            return None
        self.drop_stale_wishes(state)
        if self.phase is StepPhase.UNDER_WAY:
            step = self.step
            if self.signed_step >= step:
                return None
            answers: bytes | None = self._step_ids[min(self._step_ids)]
        else:
            step = self.step + 1
            if self.signed_step >= step:
                return None
            # Another seat's next envelope, whatever it holds, is that seat's envelope of this
            # step (a bad one is a fault of its author when it applies, before the step could
            # end), so it is answered at once and nobody waits on a quiet table for it.
            answers = held
            if answers is None and not self.has_reason():
                return None
        claims = self.wanted()
        return SignStep(self.sign(step, answers, state), claims)

    def sign(self, step: int, answers: bytes | None, state: LieState) -> dict[str, Any]:
        """The body of this seat's step-`step` envelope (protocol.md 10.11.3): its wish, the
        opening of its last commitment, the shares it owes and its placement go in it."""
        self.drop_stale_wishes(state)
        place = self._want_place
        want = self.wanted()
        claims = [want] if want is not None else []
        if want is not None:
            self._sign_wish(step)
        nonce = self._nonce(step)
        opening: dict[str, Any] | None = None
        previous = self._my_commit
        if step > 1:
            assert previous is not None and previous.step == step - 1
            opening = {"nonce": previous.nonce, "claims": previous.claims}
        self._my_commit = _MyCommit(step, nonce, claims)
        digest = commitment(self.table_id, self.round_no, step, self.me, nonce, claims)
        if place is not None:
            self._placed_in = step
        self._want_place = None
        shares, self._my_shares = self._my_shares, None
        self.signed_step = step
        return {
            "round": self.round_no,
            "step": step,
            "answers": answers,
            "commit": digest,
            "open": opening,
            "shares": shares,
            "place": None if place is None else str(place),
        }

    def restore(self, body: Mapping[str, Any], state: LieState) -> None:
        """A step envelope this seat signed (before a restart, or applied from its log): its
        commitment is rebuilt from the nonce key, so that it opens it in the next step."""
        step = body["step"]
        if step <= self.signed_step:
            return
        self.signed_step = step
        nonce = self._nonce(step)
        if self.wanted() is not None:
            self._claim_move(self.me, None, ClaimInput.DROP)
        for claims in ([], *([s] for s in state.layout)):
            digest = commitment(self.table_id, self.round_no, step, self.me, nonce, claims)
            if digest == body.get("commit"):
                self._my_commit = _MyCommit(step, nonce, claims)
                for slot in claims:
                    self._claim_move(self.me, step, ClaimInput.RESTORE, slot)
                break
        if body.get("shares") is not None:
            self._my_shares = None
        if body.get("place") is not None:
            self._placed_in = step
        self._want_place = None

    def _nonce(self, step: int) -> bytes:
        # HMAC(nonce key, round, step): unpredictable to others, the same after a restart.
        assert self._nonce_key is not None
        label = NONCE_LABEL + u64(self.round_no) + u64(step)
        return hmac.new(self._nonce_key, label, hashlib.sha256).digest()

    # -- the log: a round begins, a step envelope is applied --------------------------------------

    def layout_fixed(self, applied: int) -> None:
        """A round's layout is fixed (`applied` entries in): its steps start after it."""
        self._step_move(StepInput.LAYOUT)
        self.round_no += 1
        self.step = 0
        self.position = 0
        self.step_end = applied
        self._commits = {}
        self._unproved, self._unproved_before = {}, {}
        # a wish is kept for the next step envelope, whatever the round; the rest is the last's
        self.claims = {k: v for k, v in self.claims.items() if k == (self.me, None)}
        self.signed_step = 0
        self._my_commit = None
        self._placed_in = None
        self.steps_per_round.append(0)

    def check(self, envelope: Envelope, seen: int | None, state: LieState) -> Checked:
        """Check one `lie.step` envelope as protocol.md 10.11.3 orders it, changing nothing (a
        DeckFault names its author); `seen`: the entries its author had applied when it
        signed (None: its `prev` is no head this log had)."""
        seat, body = envelope.seat, envelope.body
        if not isinstance(body, Mapping) or set(body) != STEP_KEYS:
            raise DeckFault(seat, "unreadable step envelope", {"keys": _keys(body)})
        step = self.step + 1 if self.phase is StepPhase.BETWEEN else self.step
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
        opening, claims = self._check_opening(envelope, step, state)
        place = self._check_place(envelope, state)
        shares, owed = body["shares"], self._owed.get(seat, frozenset())
        if shares is None:
            if owed:
                raise DeckFault(seat, f"withheld its shares of {len(owed)} dealt card(s)")
        elif not owed:
            raise DeckFault(seat, "published shares nobody asked for")
        elif not isinstance(shares, Mapping) or shares.get("kind") != SHARES:
            raise DeckFault(seat, "a step's shares are a deck.shares message")
        if self.position == self.seats - 1:  # the step's last envelope: its reasons
            self._check_reasons(envelope, claims)
        return Checked(envelope, step, opening, claims, place, shares, owed)

    def _check_opening(
        self, envelope: Envelope, step: int, state: LieState
    ) -> tuple[bytes, tuple[int, ...]]:
        seat, opening = envelope.seat, envelope.body["open"]
        if step == 1:
            if opening is not None:
                raise DeckFault(seat, "opened a commitment in step 1")
            return b"", ()
        committed = self._commits[seat]
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
        digest = commitment(self.table_id, self.round_no, step - 1, seat, nonce, claims)
        if digest != committed.digest:
            raise DeckFault(
                seat, f"opened its step {step - 1} commitment to something else", evidence
            )
        if len(claims) > MAX_CLAIMS:
            raise DeckFault(seat, f"committed to {len(claims)} claims in one step (T3)", evidence)
        for slot in claims:
            if slot not in state.layout:
                raise DeckFault(seat, f"claimed slot {slot}, which is not on the table (T3)")
            if slot not in committed.table:
                raise DeckFault(
                    seat, f"claimed slot {slot}, taken before it committed (T3)", evidence
                )
            if committed.may_claim is not None:
                raise DeckFault(
                    seat, f"claimed slot {slot} while {committed.may_claim} (T3)", evidence
                )
        return nonce + pack_canonical(claims), tuple(claims)

    def _check_place(self, envelope: Envelope, state: LieState) -> Side | None:
        seat, place = envelope.seat, envelope.body["place"]
        if place is None:
            return None
        if place not in ("left", "right"):
            raise DeckFault(seat, f"placed a card at {place!r:.20}, not left or right")
        if state.unplaced[seat] is None or state.dealing_to(seat) or seat in self._places:
            raise DeckFault(seat, "placed a card it does not hold unplaced (T3)")
        return Side(place)

    def record(self, checked: Checked, state: LieState, applied: int) -> list[StepOutput]:
        """Record a checked envelope whose shares the table applied (`state`: the engine's
        now, `applied`: the log's entries). The step's last envelope ends it (`settle`): the
        outputs are what the table then applies, in order; else none."""
        envelope, seat = checked.envelope, checked.envelope.seat
        body = envelope.body
        if checked.shares is not None:
            self._owed.pop(seat, None)
        self._openings[seat] = checked.opening
        if checked.step > 1:
            self._opened[seat] = list(checked.claims)
            for slot in checked.claims:
                self._claim_move(seat, checked.step - 1, ClaimInput.OPEN, slot)
        if checked.place is not None:
            self._places[seat] = checked.place
        self._step_ids[seat] = envelope.id
        self._answers[seat] = body["answers"]
        if body["answers"] is None and not (
            checked.shares is not None or checked.place is not None or checked.claims
        ):
            self._unproved[seat] = envelope  # its reason can only be its commitment's claim
        refusal = self.refusal(state, seat, checked.place is not None)
        self.pending_commits[seat] = Commit(
            envelope, body["commit"], _why_not(refusal, state, seat), frozenset(state.table)
        )
        if seat == self.me:
            self.restore(body, state)
        if self.phase is StepPhase.BETWEEN:
            self._step_move(StepInput.BEGIN)
            self.step = checked.step
        self.position += 1
        if self.position < self.seats:
            if self.position > 1:
                self._step_move(StepInput.ENVELOPE)
            return []
        return self.settle(state, applied)

    # -- the end of a step: reasons, seed, placements, the tie rule ------------------------------

    def _check_reasons(self, last: Envelope, claims: tuple[int, ...]) -> None:
        """Bounded growth: whoever began a step had something to say (protocol.md 10.11.5),
        checked when its `last` envelope (opening `claims`) comes in. An envelope that answers
        names another envelope of its step, so the ones that name none began it; a beginner
        whose envelope carried no shares, no placement, no opening of a claim, and whose
        commitment opens (in the next step) to no claim, is at fault."""
        step_ids = {**self._step_ids, last.seat: last.id}
        answers = {**self._answers, last.seat: last.body["answers"]}
        opened = {**self._opened, last.seat: list(claims)}
        ids = set(step_ids.values())
        for seat, answered in answers.items():
            if answered is not None and (answered not in ids or answered == step_ids[seat]):
                envelope = last if seat == last.seat else self.pending_commits[seat].envelope
                raise DeckFault(
                    seat,
                    f"answered an envelope that is not another seat's of step {self.step}",
                    {"envelope": f"{envelope} [{envelope.id.hex()[:16]}]"},
                )
        for seat, envelope in self._unproved_before.items():
            if not opened.get(seat):
                raise DeckFault(
                    seat,
                    f"began step {self.step - 1} with nothing to say (no claim, placement, "
                    "shares nor opening)",
                    {"envelope": f"{envelope} [{envelope.id.hex()[:16]}]"},
                )

    def settle(self, state: LieState, applied: int) -> list[StepOutput]:
        """Every envelope of the step is in (protocol.md 10.11.4): its reasons, its seed, its
        placements in the seed's "Done!" order, then the claims it opened, by the tie rule: a
        slot goes to the earliest step that claims it (a slot gone at the end of the step before
        voids every claim of it), claims of one slot in one step to the smallest rank under
        the seed (`tie_rule`); the others are void, without fault. The winners' claims apply in
        the "Done!" order too: their Deals are answered in this order, and at hand size 1 that
        answer completes the hand (a "Done!" tie, T3)."""
        step = self.step
        self._step_move(StepInput.END)
        self._unproved_before, self._unproved = self._unproved, {}
        self._step_ids, self._answers = {}, {}
        openings = [self._openings.get(seat, b"") for seat in range(self.seats)]
        seed = step_seed(self.table_id, self.round_no, step, openings)
        self.steps += 1
        if self.steps_per_round:
            self.steps_per_round[-1] += 1
        by_done = sorted(self._places, key=lambda s: done_rank(seed, s))
        outputs: list[StepOutput] = [PlaceCard(seat, self._places[seat]) for seat in by_done]
        winners: list[TakeCard] = []
        for slot, seats, winner in tie_rule(seed, self._opened, state.table):
            if len(seats) > 1:
                self.ties += 1
            for seat in seats:
                if seat == winner:
                    self._claim_move(seat, step - 1, ClaimInput.WIN)
                    continue
                self._claim_move(seat, step - 1, ClaimInput.LOSE)
                self.void_claims += 1
                why = f"seat {winner} won the tie" if winner is not None else "taken a step before"
                text = f"seat {seat}'s claim of slot {slot} is void: {why} (T3)"
                outputs.append(ClaimVoid(text, seat=seat, slot=slot, winner=winner))
            if winner is not None:
                winners.append(TakeCard(winner, slot))
                self.cards_taken += 1
        self._commits = self.pending_commits
        self.pending_commits = {}
        self._openings, self._opened, self._places = {}, {}, {}
        self.position = 0
        self.step_end = applied
        if self._placed_in is not None and self._placed_in <= step:
            self._placed_in = None  # placed now
        outputs += sorted(winners, key=lambda won: done_rank(seed, won.seat))
        return outputs

    def dealt(self, owners: Mapping[Slot, int]) -> None:
        """The cards a step's claims took are dealt at once: every other seat owes its shares
        of them in its next step envelope."""
        for seat in range(self.seats):
            owed = frozenset((masked, seat) for masked, owner in owners.items() if owner != seat)
            if owed:
                self._owed[seat] = owed

    def keep_shares(self, message: Mapping[str, Any]) -> None:
        """This seat's shares of the cards just dealt, for its next step envelope."""
        self._my_shares = message

    # -- stalls ----------------------------------------------------------------------------------

    def owes(self, state: LieState) -> dict[int, tuple[str, ...]]:
        """For each seat Phase 1 waits for, what it owes (protocol.md 10.11.5, Stalls)."""
        owing: dict[int, tuple[str, ...]] = {}
        if self.phase is StepPhase.UNDER_WAY:
            for seat in range(self.position, self.seats):
                what = [f"their step {self.step} envelope"]
                if self.step > 1 and seat in self._commits:
                    what.append(f"the opening of step {self.step - 1}")
                if self._owed.get(seat):
                    what.append(f"shares for {len(self._owed[seat])} card(s)")
                owing[seat] = tuple(what)
            return owing
        for seat in range(self.seats):
            what = []
            if seat in self._unproved_before:  # began the step with no reason but its claim
                what.append(f"the opening of step {self.step}")
            if self._owed.get(seat):
                what.append(f"their step {self.step + 1} envelope with shares")
            dealing = state.dealing_to(seat)
            if state.unplaced[seat] is not None and not dealing:
                what.append("a placement")
            room = state.room(seat)
            if room > 0 and state.table and not dealing and not what:
                what.append(f"a claim ({room} card(s) to take)")
            if what:
                owing[seat] = tuple(what)
        return owing


def tie_rule(
    seed: bytes, opened: Mapping[int, Sequence[int]], table: Collection[int]
) -> list[tuple[int, tuple[int, ...], int | None]]:
    """Who takes each slot the claims opened in a step (`opened`: seat -> its claims) name,
    slot by slot in increasing slot: (slot, its claimers in seat order, the winner or None).
    "When two players reach for the same card, the earlier claim wins" (T3), as protocol.md
    10.11.4 step 4 defines earlier: a slot no longer on the `table` (taken at the end of the
    step before) goes to nobody, so every claim of it is void; else to the claimer with the
    smallest rank under the step's `seed` (races.py `tie_winner`), the others void."""
    claimers: dict[int, list[int]] = {}
    for seat in sorted(opened):
        for slot in opened[seat]:
            claimers.setdefault(slot, []).append(seat)
    return [
        (slot, tuple(seats), tie_winner(seed, slot, seats) if slot in table else None)
        for slot, seats in sorted(claimers.items())
    ]


def stepping(state: LieState | None, machine: Lockstep) -> bool:
    """Phase 1 with steps running: claims open or cards of claims still being dealt, or a step
    begun that must end (protocol.md 10.11.2)."""
    if state is None or state.over:
        return False
    if machine.phase is StepPhase.UNDER_WAY:
        return True
    return state.phase is Phase.BUILD and (
        state.claims_open() or (bool(state.pending) and isinstance(state.pending[0], Deal))
    )


def answerable(held: Sequence[Envelope], me: int, next_seq: Mapping[int, int]) -> bytes | None:
    """The id of another seat's next envelope among `held` (not applied yet), if any."""
    return next(
        (e.id for e in held if e.seat != me and e.seq == next_seq.get(e.seat, 0)),
        None,
    )


def _keys(body: Any) -> list[str]:
    return sorted(str(k) for k in body) if isinstance(body, Mapping) else [type(body).__name__]
