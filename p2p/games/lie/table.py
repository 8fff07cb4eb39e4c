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

All of Phase 1's bookkeeping and decisions are the machine in lockstep.py; this class wires it to
the log, the fair deck and the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from fairdeal.engine.errors import IllegalAction
from fairdeal.engine.lie import (
    DECK,
    Claim,
    LieOptions,
    LieState,
    Pass,
    Phase,
    Place,
    Play,
    fronts_behind,
    side_of,
)
from fairdeal.engine.lie.cards import BACKS
from fairdeal.engine.lie.codec import to_data
from fairdeal.engine.requests import Arrange, Deal
from fairdeal.p2p.deck import CardDealt, DeckFault, Slot
from fairdeal.p2p.games.lie.events import ClaimVoid
from fairdeal.p2p.games.lie.lockstep import (
    DIAGRAMS,
    Lockstep,
    PlaceCard,
    StepOutput,
    StepPhase,
    TakeCard,
    answerable,
    stepping,
)
from fairdeal.p2p.games.lie.presenter import PRESENTER
from fairdeal.p2p.lobby.roster import OptionValue
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.net.kinds import Restart, envelope_kind
from fairdeal.p2p.table.core import sizes
from fairdeal.p2p.table.core.api import ProofStatus
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.outbox import Expect, Publish

GAME = "lie"
# body: {"game": "lie", "seats", "options"}
JOIN = envelope_kind("lie.join", game=GAME, section="10.11.1")
# body: see lockstep.STEP_KEYS and protocol.md 10.11.3
STEP = envelope_kind("lie.step", game=GAME, section="10.11.1", restart=Restart.CHOSEN)
# body: Play or Pass (fairdeal.engine.lie.codec, protocol.md 7.8)
ACT = envelope_kind("lie.act", game=GAME, section="10.11.1", restart=Restart.CHOSEN)


def lobby_options(options: LieOptions) -> dict[str, OptionValue]:
    """The options shown in the lobby and signed in the roster (the rest are the defaults)."""
    return {"rounds": options.rounds, "hand_size": options.hand_size}


class LieTable(TableDriver):
    """One table of The Lie as one seat (or an auditor) follows it. Phase 1's lockstep is the
    machine `lockstep` (p2p/games/lie/lockstep.py): this table feeds it the log and the
    player's wishes and carries out what it returns."""

    game_name: ClassVar[str] = GAME
    join_kind: ClassVar[str] = JOIN
    act_kind: ClassVar[str] = ACT
    lockstep_class: ClassVar[type[Lockstep]] = Lockstep  # a test's cheat swaps in its own
    machines: ClassVar[tuple[Any, ...]] = DIAGRAMS

    def __init__(self, *args: Any, nonce_key: bytes | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # This seat's nonces are HMAC(nonce_key, round, step): unpredictable to others, and the
        # same again after a restart (the key comes from the seat's secret randomness), so a
        # seat that crashed between committing and opening can still open.
        if nonce_key is None and self.deck.seat is not None:
            nonce_key = self.deck.random_bytes(32)
        self._heads: dict[bytes, int] = {self.head: 0}  # log head -> entries before it
        self._next_seq: dict[int, int] = {}  # per seat: the seq of its next envelope
        self.lockstep = self.lockstep_class(
            self.table_id, self.seats, self.me, self.options.hand_size, nonce_key
        )

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

    # -- what every peer counts alike (protocol.md 10.11.6) -------------------------------------

    @property
    def steps(self) -> int:
        return self.lockstep.steps

    @property
    def void_claims(self) -> int:
        return self.lockstep.void_claims

    @property
    def ties(self) -> int:
        return self.lockstep.ties

    @property
    def cards_taken(self) -> int:
        return self.lockstep.cards_taken

    # -- the ordering ------------------------------------------------------------------------

    def stepping(self) -> bool:
        """Phase 1 with steps running: claims open or cards of claims still being dealt, or a
        step begun that must end."""
        return self.fault is None and stepping(self.state, self.lockstep)

    def next_action(self) -> Expect | None:
        if self.stepping():
            return Expect(self.lockstep.position, STEP)  # (step, seat) order: plain turn order
        turn = self.state.to_act()
        return Expect(turn, ACT) if turn is not None else None

    def claiming(self) -> bool:
        """Phase 1: claims are made in steps."""
        return self.stepping()

    # -- what this seat may do ------------------------------------------------------------------

    def unplaced(self, seat: int) -> int | None:
        """The slot `seat` took and has not placed yet (T3)."""
        state: LieState | None = self.state
        return state.unplaced[seat] if state is not None else None

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
        return self.lockstep.claim_in_flight(self.state)

    def room(self) -> int:
        if self.state is None or self.me >= self.seats:
            return 0
        room: int = self.state.room(self.me, len(self.pending_claims()))  # T3, claims settling
        return room

    def can_claim(self) -> bool:
        if not self.stepping() or self.me >= self.seats or self.claim_in_flight():
            return False
        refusal = self.lockstep.refusal(self.state, self.me, self.placing())
        return refusal is None and bool(self.state.table)

    def can_place(self) -> bool:
        """This seat holds a card whose front it knows and has not placed (T3)."""
        return (
            self.me < self.seats
            and self.stepping()
            and not self.placing()
            and self.unplaced(self.me) is not None
            and not self.state.dealing_to(self.me)
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
        if self.stepping():
            view = replace(view, pending_claims=self.pending_claims(), placing=self.placing())
        return view

    def placing(self) -> bool:
        """This seat's unplaced card is being placed (lockstep.py `Lockstep.placing`)."""
        return self.lockstep.placing()

    def pending_claims(self) -> tuple[int, ...]:
        return self.lockstep.pending_claims()

    def publish_action(self, action: Any, *, check: bool = True) -> None:
        """A claim or placement is kept for this seat's next step envelope, which is signed at
        once if a step may start now; a Play or Pass is queued for signing. Checked first as
        every peer will check it (IllegalAction, nothing kept). Without `check` (a test's
        deliberate cheat) only the phase decides its kind."""
        state = self.state
        if state is None or self.over:
            raise IllegalAction(self.me, "the game is not in play")
        if isinstance(action, Claim):
            if check and not self.stepping():
                raise IllegalAction(self.me, "cards are claimed only in Phase 1 (T3)")
            self.lockstep.wish(action.slot, state, check=check)
            self.pace([])
            return
        if isinstance(action, Place):
            if check and not self.can_place():
                raise IllegalAction(self.me, "nothing to place (T3)")
            self.lockstep.wish_place(side_of(self.me, action.side))
            self.pace([])
            return
        if check:
            if not super().my_turn():
                raise IllegalAction(self.me, "it is not your go")
            self.game.check_action(self.view(), action)
        self.outbox.append(Publish(ACT, to_data(action)))

    # -- pacing: the lockstep decides when this seat signs ---------------------------------------

    def pace(self, held: Sequence[Envelope]) -> None:
        """Queue this seat's step envelope if one is due now: `held`, the envelopes this seat's
        log holds, not applied yet (another seat's envelope of a new step is answered at once)."""
        if self.me >= self.seats or self.over or not self.stepping():
            return
        sign = self.lockstep.pace(self.state, answerable(held, self.me, self._next_seq))
        if sign is not None:
            self.outbox.append(Publish(STEP, sign.body, claims=sign.claims))

    def restore_signed(self, envelope: Envelope) -> None:
        """A step envelope this seat signed before a restart, not applied yet: it is this
        seat's envelope of that step (its commitment is rebuilt from the nonce key)."""
        body = envelope.body
        if envelope.kind == STEP and isinstance(body, Mapping) and type(body.get("step")) is int:
            self.lockstep.restore(body, self.state)

    # -- stalls --------------------------------------------------------------------------------

    def owes(self) -> dict[int, tuple[str, ...]]:
        """For each seat Phase 1 waits for, what it owes (protocol.md 10.11.5)."""
        return self.lockstep.owes(self.state) if self.stepping() else super().owes()

    def counters(self) -> dict[str, int]:
        counts = {
            "steps": self.steps,
            "void_claims": self.void_claims,
            "ties": self.ties,
            "cards_taken": self.cards_taken,
        }
        for number, steps in enumerate(self.lockstep.steps_per_round, 1):
            counts[f"steps_round_{number}"] = steps
        return counts

    # -- the log -----------------------------------------------------------------------------

    def on_applied(self, envelope: Envelope, head: bytes) -> None:
        self._heads[self.head] = self.applied
        self._next_seq[envelope.seat] = envelope.seq + 1

    def on_game_envelope(self, envelope: Envelope, head: bytes) -> None:
        if envelope.kind == STEP:
            self._on_step(envelope)
        else:  # Phase 2's lie.act, read as every game's act is (the driver's)
            super().on_game_envelope(envelope, head)

    def on_act(self, seat: int, action: Any) -> None:
        if not isinstance(action, Play | Pass):
            raise DeckFault(seat, "lie.act carries a Play or a Pass (claims: lie.step)")

    def _on_step(self, envelope: Envelope) -> None:
        """A step envelope: checked, its shares applied at once, recorded; at a step's end the
        lockstep's outputs are carried out in its order (protocol.md 10.11.3-10.11.4)."""
        checked = self.lockstep.check(envelope, self._heads.get(envelope.prev), self.state)
        if checked.shares is not None:
            self.apply_owed_shares(envelope.seat, checked.shares, set(checked.owed))
        self._carry_out(self.lockstep.record(checked, self.state, self.applied))

    def _carry_out(self, outputs: list[StepOutput]) -> None:
        dealing: dict[Slot, int] = {}  # dealt at the end of this step: masked -> owner
        for output in outputs:
            if isinstance(output, ClaimVoid):
                self.events.append(output)
            elif isinstance(output, PlaceCard):
                self._act(output.seat, Place(output.side), "placement", "lie.step")
            elif isinstance(output, TakeCard):
                step = self._act(output.seat, Claim(output.slot), "claim", f"slot {output.slot}")
                for request in step.requests if step is not None else ():
                    if isinstance(request, Deal):
                        for s in request.slots:
                            dealing[self.masked_slot(s)] = request.seat
                if self.fault is not None:
                    return
        if dealing:
            self._deal(dealing)

    def _act(self, seat: int, action: Place | Claim, what: str, evidence: str) -> Any:
        """Apply a step's placement or claim; an engine refusal is a fault of its seat."""
        try:
            step = self.game.apply(self.state, seat, action)
        except IllegalAction as exc:
            self.stop(seat, f"illegal {what}: {exc.reason}", evidence)
            return None
        self.take_step(step)
        return step

    def _deal(self, owners: dict[Slot, int]) -> None:
        """Deal this step's cards: every other seat owes its shares in its next step envelope."""
        self.lockstep.dealt(owners)
        output = self.deck.deal(owners)
        for message in output.messages:
            self.lockstep.keep_shares(message)
        output.messages.clear()
        self.take_output(output)

    # -- serving: deals of claims are concurrent ------------------------------------------------

    def deals_in_steps(self, state: Any) -> bool:
        """Phase 1's claims are dealt inside the steps (their shares ride in step envelopes)."""
        return bool(state.phase is Phase.BUILD)

    def step_under_way(self) -> bool:
        # A card dealt in a step is acknowledged at the step's end, so that nothing after
        # Phase 1 starts while a step is under way (its envelopes are signed already).
        return self.lockstep.phase is StepPhase.UNDER_WAY

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
            self.lockstep.layout_fixed(self.applied)
            self.dealt.clear()
