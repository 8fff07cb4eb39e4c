"""The Lie's part of the table driver: its envelope kinds and Phase 1 in lockstep steps (T3).

Everything the games share (setup, the fair deck serving the engine's requests: the 16 lists of
one back each, the joint coins of `Arrange`, reveals; faults) is `TableDriver`
(p2p.table.core.driver). protocol.md 10.11 is the specification; in short:

- Phase 2 is turn-based: one `lie.act` (Play or Pass) by the seat whose go it is, then the
  player's shares of the cards it played, then the engine checks them (T5).
- Phase 1 runs in numbered steps once the round's layout is fixed. In step k every seat signs
  exactly one `lie.step` envelope, in seat order (the log's plain turn order): a commitment to
  its step-k claims (a hash over a fresh nonce and the claims), the opening of its step k-1
  commitment, the decryption shares it owes for the cards dealt at the end of step k-1, and its
  placement (T3). A seat signs its step-(k+1) envelope only once it has applied every step-k
  envelope (its `prev` proves it), so nobody sees another seat's step-k claims before its own
  are bound: the look-ahead cheat is gone (Baughman & Levine's lockstep protocol).
- At the end of step k (its last envelope applied) the step's seed is the hash of every opening
  step k carried. The placements of step k apply in the seed's order (a "Done!" tie, T3), then
  the claims opened in step k (committed in step k-1) take effect: a slot goes to the earliest
  step that claims it, claims of one slot in one step to the claimer with the smallest key under
  the seed; the others are void, without fault. The winners' claims apply in the seed's "Done!"
  order too. Each card taken is dealt at once: the shares ride in the step-(k+1) envelopes, and
  its Deal is answered at the end of step k+1, after that step's placements and claims.
- A quiet table sends nothing: a seat starts a step only with something to say (a claim, a
  placement, shares or an opening it owes) and a seat that holds another seat's envelope of a
  new step answers at once with its own.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from fairdeal.engine.errors import IllegalAction
from fairdeal.engine.lie import (
    DECK,
    Claim,
    HandFull,
    LieOptions,
    Pass,
    Phase,
    Place,
    Play,
    Side,
    SlotTaken,
    fronts_behind,
    side_of,
)
from fairdeal.engine.lie.cards import BACKS
from fairdeal.engine.lie.codec import action_from_data, to_data
from fairdeal.engine.requests import Arrange, Deal
from fairdeal.p2p.deck import CardDealt, DeckFault
from fairdeal.p2p.games.lie.presenter import PRESENTER
from fairdeal.p2p.games.lie.races import (
    NONCE_LABEL,
    commitment,
    u64,
)
from fairdeal.p2p.games.lie.steps import StepLedger
from fairdeal.p2p.lobby.roster import OptionValue
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.net.kinds import Restart, envelope_kind
from fairdeal.p2p.table.core import sizes
from fairdeal.p2p.table.core.acts import action_of, step_of
from fairdeal.p2p.table.core.api import ProofStatus
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.outbox import Expect, Publish

GAME = "lie"
# body: {"game": "lie", "seats", "options"}
JOIN = envelope_kind("lie.join", game=GAME, section="10.11.1")
# body: see steps.STEP_KEYS and protocol.md 10.11.3
STEP = envelope_kind("lie.step", game=GAME, section="10.11.1", restart=Restart.CHOSEN)
# body: Play or Pass (fairdeal.engine.lie.codec, protocol.md 7.8)
ACT = envelope_kind("lie.act", game=GAME, section="10.11.1", restart=Restart.CHOSEN)


def lobby_options(options: LieOptions) -> dict[str, OptionValue]:
    """The options shown in the lobby and signed in the roster (the rest are the defaults)."""
    return {"rounds": options.rounds, "hand_size": options.hand_size}


@dataclass
class _MyCommit:
    step: int
    nonce: bytes
    claims: list[int]


class LieTable(TableDriver):
    """One table of The Lie as one seat (or an auditor) follows it."""

    game_name: ClassVar[str] = GAME
    join_kind: ClassVar[str] = JOIN
    act_kind: ClassVar[str] = ACT

    def __init__(self, *args: Any, nonce_key: bytes | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # This seat's nonces are HMAC(nonce_key, round, step): unpredictable to others, and the
        # same again after a restart (the key comes from the seat's secret randomness), so a
        # seat that crashed between committing and opening can still open.
        if nonce_key is None and self.deck.seat is not None:
            draw = getattr(self.deck, "_random_bytes", None)
            nonce_key = draw(32) if draw is not None else secrets.token_bytes(32)
        self._nonce_key = nonce_key
        self._heads: dict[bytes, int] = {self.head: 0}  # log head -> entries before it
        self._next_seq: dict[int, int] = {}  # per seat: the seq of its next envelope
        self.ledger = StepLedger(self)  # the steps as applied from the log (steps.py)
        self._my_commit: _MyCommit | None = None
        self._signed_step = 0  # the newest step this seat signed an envelope of, this round
        self._want_claim: int | None = None  # the claim this seat's player asked for
        self._claim_step: int | None = None  # the step this seat's undecided claim is in
        self._want_place: Side | None = None
        self._placed_in: int | None = None  # the step whose envelope places this seat's card
        self.steps = 0  # steps ended, every round
        self.steps_per_round: list[int] = []
        self.void_claims = 0
        self.ties = 0  # slots claimed by more than one seat in one step
        self.cards_taken = 0

    @classmethod
    def lobby_options(cls, options: Any) -> dict[str, OptionValue]:
        return lobby_options(options)

    def card_bounds(self) -> tuple[int, int]:
        """The 96 cards in 16 lists, one per lying back (T1, T9): 6 cards a list."""
        return max(len(fronts_behind(back)) for back in range(BACKS)), len(DECK)

    def game_bodies(self) -> dict[str, int]:
        """A step envelope (10.11.3): its scalar fields, one claim opened, and the shares of
        the cards dealt at the end of the step before, at most one a seat."""
        return {STEP: 512 + sizes.shares_body(self.seats)}

    # -- the ordering ------------------------------------------------------------------------

    def stepping(self) -> bool:
        """Phase 1 with steps running: claims open or cards of claims still being dealt, or a
        step begun that must end."""
        state = self.state
        if state is None or self.fault is not None or state.over:
            return False
        if self.ledger.position > 0:
            return True
        return state.phase is Phase.BUILD and (
            state.claims_open() or (bool(state.pending) and isinstance(state.pending[0], Deal))
        )

    def next_action(self) -> Expect | None:
        if self.stepping():
            return Expect(self.ledger.position, STEP)  # (step, seat) order: plain turn order
        turn = self.state.to_act()
        return Expect(turn, ACT) if turn is not None else None

    def claiming(self) -> bool:
        """Phase 1: claims are made in steps."""
        return self.stepping()

    # -- what this seat may do ------------------------------------------------------------------

    def unplaced(self, seat: int) -> int | None:
        """The slot `seat` took and has not placed yet (T3)."""
        state = self.state
        engine = getattr(state, "unplaced", None) if state is not None else None
        if engine is None:
            return None  # an engine that places the card with its claim
        slot: int | None = engine(seat) if callable(engine) else engine[seat]
        return slot

    def _dealing_to(self, seat: int) -> bool:
        state = self.state
        return any(isinstance(r, Deal) and r.seat == seat for r in state.pending)

    def _why_not_claim(self, seat: int, placing: bool) -> str | None:
        """Why `seat` may not commit to a claim now (None: it may). `placing`: its envelope
        places its unplaced card (T3: one card at a time)."""
        state = self.state
        if state is None or state.phase is not Phase.BUILD or not state.claims_open():
            return "claims are not open"
        if self._dealing_to(seat):
            return "its last card's front was not known yet"
        unplaced = self.unplaced(seat)
        if unplaced is not None and not placing:
            return "it had not placed its last card"
        held = len(state.hands[seat]) + (1 if unplaced is not None else 0)
        if held >= self.options.hand_size:
            return "its hand was full"
        return None

    def claimable(self) -> tuple[int, ...]:
        """The table's slots, in layout order, this seat may claim now (T3)."""
        if self.state is None or not self.stepping():
            return ()
        pending = self.pending_claims()
        return tuple(slot for slot in self.state.table if slot not in pending)

    def claim_in_flight(self) -> bool:
        """A claim of this seat asked for, committed or opened and not settled yet, or a card
        taken whose front this seat does not know yet."""
        if self.me >= self.seats or self.state is None:
            return False
        if self._want_claim is not None:
            return True
        if self._claim_step is not None:  # committed, not decided yet
            return True
        return self._dealing_to(self.me)

    def room(self) -> int:
        if self.state is None or self.me >= self.seats:
            return 0
        unplaced = 1 if self.unplaced(self.me) is not None else 0
        held = len(self.state.hands[self.me]) + unplaced + len(self.pending_claims())
        size: int = self.options.hand_size
        return size - held

    def can_claim(self) -> bool:
        if not self.stepping() or self.me >= self.seats or self.claim_in_flight():
            return False
        return self._why_not_claim(self.me, self.placing()) is None and bool(self.state.table)

    def can_place(self) -> bool:
        """This seat holds a card whose front it knows and has not placed (T3)."""
        return (
            self.me < self.seats
            and self.stepping()
            and not self.placing()
            and self.unplaced(self.me) is not None
            and not self._dealing_to(self.me)
        )

    def follows_up(self) -> bool:
        return self.can_place()

    def my_turn(self) -> bool:
        if self.stepping():
            return self.can_claim() or self.can_place()
        return super().my_turn()

    def may_choose(self) -> bool:
        return self.my_turn()

    def simultaneous(self) -> bool:
        return self.stepping()

    def view(self) -> Any:
        state = self.state
        assert state is not None
        view = self.game.view_for(state, self.knowledge(), self.me)
        if self.stepping() and hasattr(view, "pending_claims"):
            view = replace(view, pending_claims=self.pending_claims(), placing=self.placing())
        return view

    def placing(self) -> bool:
        """This seat's unplaced card is being placed: the placement is kept for its next step
        envelope, or signed in a step not ended yet (the engine's state shows the card unplaced
        until then, T3). A claim may be made meanwhile; another placement may not."""
        return self._want_place is not None or self._placed_in is not None

    def pending_claims(self) -> tuple[int, ...]:
        if self._want_claim is not None:
            return (self._want_claim,)
        if self._claim_step is not None and self._my_commit is not None:
            if self._my_commit.step == self._claim_step:
                return tuple(self._my_commit.claims)
            return tuple(self.ledger.opened.get(self.me, ()))  # opened, its step not ended yet
        return ()

    def publish_action(self, action: Any, *, check: bool = True) -> None:
        """A claim or placement is kept for this seat's next step envelope, which is signed at
        once if a step may start now; a Play or Pass is queued for signing. Checked first as
        every peer will check it (IllegalAction, nothing kept). Without `check` (a test's
        deliberate cheat) only the phase decides its kind."""
        state = self.state
        if state is None or self.over:
            raise IllegalAction(self.me, "the game is not in play")
        if isinstance(action, Claim):
            if check:
                if not self.stepping():
                    raise IllegalAction(self.me, "cards are claimed only in Phase 1 (T3)")
                if self.claim_in_flight():
                    raise IllegalAction(self.me, "one card at a time: wait for your last (T3)")
                why = self._why_not_claim(self.me, self.placing())
                if why == "its hand was full":
                    raise HandFull(self.me, f"your hand is full: {self.options.hand_size} (T3)")
                if why is not None:
                    raise IllegalAction(self.me, f"you may not claim now: {why} (T3)")
                if action.slot not in state.table:
                    raise SlotTaken(self.me, f"slot {action.slot} is taken (T3)")
            self._want_claim = action.slot
            self._sign_step_if_due([])
            return
        if isinstance(action, Place):
            if check and not self.can_place():
                raise IllegalAction(self.me, "nothing to place (T3)")
            self._want_place = side_of(self.me, action.side)
            self._sign_step_if_due([])
            return
        if check:
            if not super().my_turn():
                raise IllegalAction(self.me, "it is not your go")
            self.game.check_action(self.view(), action)
        self.outbox.append(Publish(ACT, to_data(action)))

    # -- pacing: when this seat signs its step envelope -----------------------------------------

    def _reason(self) -> bool:
        """Whether this seat has something to say in a new step: a claim, a placement, shares
        or the opening of a commitment to claims."""
        return (
            self._want_claim is not None
            or self._want_place is not None
            or self.ledger.my_shares is not None
            or (self._my_commit is not None and bool(self._my_commit.claims))
        )

    def pace(self, held: Sequence[Envelope]) -> None:
        """Queue this seat's step envelope if one is due now: `held`, the envelopes this seat's
        log holds, not applied yet (another seat's envelope of a new step is answered at once)."""
        self._sign_step_if_due(held)

    def _sign_step_if_due(self, held: Sequence[Envelope]) -> None:
        if self.me >= self.seats or self.over or not self.stepping():
            return
        self._drop_stale_wishes()
        if self.ledger.position > 0:  # a step is under way: sign ours of it if not yet
            step = self.ledger.step
            if self._signed_step >= step:
                return
            answers: bytes | None = self.ledger.step_ids[min(self.ledger.step_ids)]
        else:  # between steps: start the next one with a reason, or answer one started
            step = self.ledger.step + 1
            if self._signed_step >= step:
                return
            # Another seat's next envelope, whatever it holds: it is that seat's envelope of
            # this step (a bad one is a fault of its author when it applies, before the step
            # could end), so it is answered at once and nobody waits on a quiet table for it.
            answers = next(
                (
                    e.id
                    for e in held
                    if e.seat != self.me and e.seq == self._next_seq.get(e.seat, 0)
                ),
                None,
            )
            if answers is None and not self._reason():
                return  # a quiet table sends nothing
        claims = self._want_claim
        self.outbox.append(Publish(STEP, self._step_body(step, answers), claims=claims))

    def _drop_stale_wishes(self) -> None:
        """A claim of a slot taken meanwhile, or a placement with nothing to place, is dropped
        before it could start a step: an honest seat never starts one without a reason."""
        if self._want_place is not None and (
            self.unplaced(self.me) is None or self._dealing_to(self.me)
        ):
            self._want_place = None
        want, placing = self._want_claim, self.placing()
        if want is not None and (
            want not in self.state.table or self._why_not_claim(self.me, placing) is not None
        ):
            self._want_claim = None

    def _step_body(self, step: int, answers: bytes | None) -> dict[str, Any]:
        self._drop_stale_wishes()
        place = self._want_place
        want, self._want_claim = self._want_claim, None
        claims = [want] if want is not None else []
        if claims:
            self._claim_step = step
        nonce = self._nonce(step)
        opening: dict[str, Any] | None = None
        previous = self._my_commit
        if step > 1:
            assert previous is not None and previous.step == step - 1
            opening = {"nonce": previous.nonce, "claims": previous.claims}
        self._my_commit = _MyCommit(step, nonce, claims)
        digest = commitment(self.table_id, self.ledger.round_no, step, self.me, nonce, claims)
        if place is not None:
            self._placed_in = step
        self._want_place = None
        shares, self.ledger.my_shares = self.ledger.my_shares, None
        self._signed_step = step
        return {
            "round": self.ledger.round_no,
            "step": step,
            "answers": answers,
            "commit": digest,
            "open": opening,
            "shares": shares,
            "place": None if place is None else str(place),
        }

    def _step_ended(self, step: int) -> None:
        """Step `step` ended: this seat's claim committed before it is decided (taken, or void)
        and its placement signed in it applied."""
        if self._claim_step is not None and self._claim_step < step:
            self._claim_step = None
        if self._placed_in is not None and self._placed_in <= step:
            self._placed_in = None  # placed now

    def _nonce(self, step: int) -> bytes:
        assert self._nonce_key is not None
        label = NONCE_LABEL + u64(self.ledger.round_no) + u64(step)
        return hmac.new(self._nonce_key, label, hashlib.sha256).digest()

    def restore_signed(self, envelope: Envelope) -> None:
        """A step envelope this seat signed before a restart, not applied yet: it is this
        seat's envelope of that step (its commitment is rebuilt from the nonce key)."""
        body = envelope.body
        if envelope.kind == STEP and isinstance(body, Mapping) and type(body.get("step")) is int:
            self._note_own_step(body)

    def _note_own_step(self, body: Mapping[str, Any]) -> None:
        step = body["step"]
        if step <= self._signed_step:
            return
        self._signed_step = step
        nonce = self._nonce(step)
        for claims in ([], *([s] for s in self.state.layout)):
            digest = commitment(self.table_id, self.ledger.round_no, step, self.me, nonce, claims)
            if digest == body.get("commit"):
                self._my_commit = _MyCommit(step, nonce, claims)
                if claims:
                    self._claim_step = step
                break
        if body.get("shares") is not None:
            self.ledger.my_shares = None
        if body.get("place") is not None:
            self._placed_in = step
        self._want_claim = None
        self._want_place = None

    # -- stalls --------------------------------------------------------------------------------

    def owes(self) -> dict[int, tuple[str, ...]]:
        """For each seat Phase 1 waits for, what it owes (protocol.md 10.11.6)."""
        return self.ledger.owes() if self.stepping() else super().owes()

    def counters(self) -> dict[str, int]:
        counts = {
            "steps": self.steps,
            "void_claims": self.void_claims,
            "ties": self.ties,
            "cards_taken": self.cards_taken,
        }
        for number, steps in enumerate(self.steps_per_round, 1):
            counts[f"steps_round_{number}"] = steps
        return counts

    # -- the log -----------------------------------------------------------------------------

    def on_applied(self, envelope: Envelope, head: bytes) -> None:
        self._heads[self.head] = self.applied
        self._next_seq[envelope.seat] = envelope.seq + 1

    def on_game_envelope(self, envelope: Envelope, head: bytes) -> None:
        if envelope.kind == STEP:
            self.ledger.apply(envelope, self._heads.get(envelope.prev))
        elif envelope.kind == ACT:
            self._on_act(envelope, head)
        else:
            super().on_game_envelope(envelope, head)

    def _on_act(self, envelope: Envelope, head: bytes) -> None:
        action = action_of(envelope, head, action_from_data)
        if not isinstance(action, Play | Pass):
            raise DeckFault(envelope.seat, "lie.act carries a Play or a Pass (claims: lie.step)")
        step = step_of(self.game.apply, self.state, envelope.seat, action)
        self.take_step(step)

    # -- serving: deals of claims are concurrent ------------------------------------------------

    def deals_in_steps(self, state: Any) -> bool:
        """Phase 1's claims are dealt inside the steps (their shares ride in step envelopes)."""
        return bool(state.phase is Phase.BUILD)

    def step_under_way(self) -> bool:
        # A card dealt in a step is acknowledged at the step's end, so that nothing after
        # Phase 1 starts while a step is under way (its envelopes are signed already).
        return self.ledger.position != 0

    def on_card_dealt(self, event: CardDealt) -> None:
        if event.owner == self.me and event.card is not None:  # every other share was proved
            slot = self.engine_slot(event.slot)
            card = PRESENTER.claimed_card(slot, self.me, event.card, ProofStatus.VERIFIED)
            self.events.append(card)

    def on_step_event(self, event: Any) -> None:
        """The fronts the fair deck opened for everyone, with their proofs: a combination
        played (T5), every seat's prizes at the end of the game (T10)."""
        self.events.extend(PRESENTER.shown_cards(event, self.state.prizes, ProofStatus.VERIFIED))

    def on_arranged(self, request: Arrange, seed: bytes) -> None:
        if request.reason == "layout":  # a new round: its steps start after this head
            self.ledger.new_round(self.applied)
            self._signed_step = 0
            self._my_commit = None
            self._claim_step = None
            self._placed_in = None
            self.dealt.clear()
            self.steps_per_round.append(0)
