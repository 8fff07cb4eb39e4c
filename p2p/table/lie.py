"""The Lie's part of the table driver: its envelope kinds, its ordering, real-time claims (T3).

Everything the games share (setup, the fair deck serving the engine's requests: the 16 lists of
one back each, the joint coins of `Arrange`, reveals; faults) is `TableDriver` (p2p.table.driver).
protocol.md 10.11 is the specification; in short:

- Phase 2 is turn-based: one `lie.act` (Play or Pass) by the seat whose go it is, then the
  player's shares of the cards it played, then the engine checks them (T5).
- Phase 1 is simultaneous (`Concurrent`): every seat may send `lie.claim`, `lie.tick` or the
  `deck.shares` it owes for a card dealt to a claimer; the log applies them by (Lamport time,
  seat) once stable. What an author "had seen" is the log up to the head its envelope names
  (`prev`). A claim's author must have room (won + undecided claims < hand size) and must not
  have seen a claim of that slot; else it is a fault. Claims of one slot whose authors had not
  seen each other form a race; the race closes once every seat but the first claimer has an
  envelope that saw the first claim (heartbeats make that come within a round trip), and its
  winner is the claimer with the smallest `race_key(seed, slot, seat)`, where the seed is the
  round's layout coin: no seat can bias it before the layout, and nobody can choose its seat's
  key. The losers' claims are void (no card, no fault). Claims take effect in log order, each
  once its race is closed, so every peer deals the same slots to the same seats in the same
  order and ends Phase 1 with the same hands.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from fairdeal.engine.errors import IllegalAction
from fairdeal.engine.lie import Claim, HandFull, LieOptions, Pass, Phase, Play, Side, SlotTaken
from fairdeal.engine.lie.codec import DecodeError, action_from_data, to_data
from fairdeal.engine.lie.events import GameOver, Played
from fairdeal.engine.requests import Arrange, Deal
from fairdeal.p2p.deck import CardDealt, DeckFault, Slot
from fairdeal.p2p.deck.messages import SharesMessage
from fairdeal.p2p.lobby.roster import OptionValue
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.table.api import CardsVerified, Notice, ProofStatus, VerifiedCard
from fairdeal.p2p.table.driver import (
    DECK,
    Concurrent,
    Expect,
    Publish,
    TableDriver,
    _Service,
)

GAME = "lie"
JOIN = "lie.join"  # body: {"game": "lie", "seats", "options"}
CLAIM = "lie.claim"  # body: {"slot": engine slot, "side": "left" | "right"} (T3)
TICK = "lie.tick"  # body: {} — a heartbeat: "I have seen the log up to my prev" (Phase 1)
ACT = "lie.act"  # body: Play or Pass (fairdeal.engine.lie.codec, protocol.md 7.8)
PHASE1_KINDS = frozenset({CLAIM, TICK, DECK})
RACE_DOMAIN = b"fairdeal/lie/race/v1\x00"


def race_key(seed: bytes, slot: int, seat: int) -> bytes:
    """A race's order: SHA-256(RACE_DOMAIN ‖ seed ‖ u64be(slot) ‖ u64be(seat)); the smallest
    key wins. `seed` is the 64-byte seed of the round's layout coin (protocol.md 10.11.4)."""
    return hashlib.sha256(
        RACE_DOMAIN + seed + slot.to_bytes(8, "big") + seat.to_bytes(8, "big")
    ).digest()


def race_winner(seed: bytes, slot: int, seats: list[int] | tuple[int, ...]) -> int:
    """The seat that wins a race for `slot` among claimers `seats` (who had not seen each other)."""
    return min(seats, key=lambda seat: race_key(seed, slot, seat))


def lobby_options(options: LieOptions) -> dict[str, OptionValue]:
    """The options shown in the lobby and signed in the roster (the rest are the defaults)."""
    return {"rounds": options.rounds, "hand_size": options.hand_size}


@dataclass(frozen=True, slots=True)
class _Claim:
    index: int  # position of its envelope in the log (0-based)
    seat: int
    slot: int
    side: Side
    envelope: Envelope = field(repr=False)


@dataclass
class _Race:
    """The claims of one slot whose authors had not seen each other (the first one first)."""

    claims: list[_Claim]
    winner: int | None = None  # decided once closed

    @property
    def first(self) -> _Claim:
        return self.claims[0]


class LieTable(TableDriver):
    """One table of The Lie as one seat (or an auditor) follows it."""

    game_name: ClassVar[str] = GAME
    join_kind: ClassVar[str] = JOIN
    act_kind: ClassVar[str] = ACT
    heartbeat_kinds: ClassVar[frozenset[str]] = frozenset({TICK})
    round_name: ClassVar[str] = "round"  # T9

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._heads: dict[bytes, int] = {self.head: 0}  # log head -> entries before it
        self._seen = [0] * self.seats  # per seat: entries its newest applied envelope had seen
        self._round_seed: bytes | None = None
        self._races: dict[int, _Race] = {}  # this round's claimed slots
        self._queue: deque[_Claim] = deque()  # undecided claims, in log order
        self._owed: list[deque[frozenset[tuple[Slot, int]]]] = [deque() for _ in range(self.seats)]
        self._dealt: set[Slot] = set()
        self._open_own: set[int] = set()  # slots this seat claimed, not yet in the log
        self.races_decided = 0  # races with more than one claimer
        self.void_claims = 0

    @classmethod
    def lobby_options(cls, options: Any) -> dict[str, OptionValue]:
        return lobby_options(options)

    # -- the ordering ------------------------------------------------------------------------

    def next_action(self) -> Expect | Concurrent | None:
        state = self.state
        if state.phase is Phase.BUILD and (
            state.claims_open() or isinstance(state.pending[0], Deal)
        ):  # the last claims' shares still come at once, after every hand is full
            return Concurrent(frozenset(range(self.seats)), PHASE1_KINDS)
        turn = state.to_act()
        return Expect(turn, ACT) if turn is not None else None

    def claiming(self) -> bool:
        """Phase 1 with claims open: every seat sends at once."""
        return isinstance(self.expected(), Concurrent)

    # -- what this seat may do ------------------------------------------------------------------

    def claimable(self) -> tuple[int, ...]:
        """The table's slots, in layout order, that nobody has claimed in the log and this seat
        has not claimed either (claiming any other is a fault: T3, protocol.md 10.11.3)."""
        if self.state is None:
            return ()
        taken = self._races.keys() | self._open_own
        return tuple(slot for slot in self.state.table if slot not in taken)

    def room(self) -> int:
        """How many more cards this seat may claim now (its undecided claims count, T3)."""
        if self.state is None or self.me >= self.seats:
            return 0
        held = len(self.state.hands[self.me])
        return self.options.hand_size - held - len(self.pending_claims())

    def can_claim(self) -> bool:
        return self.claiming() and self.room() > 0 and bool(self.claimable())

    def my_turn(self) -> bool:
        if self.claiming():
            return self.can_claim()
        return super().my_turn()

    def view(self) -> Any:
        """This seat's view; in Phase 1 its table shows only what this seat may still claim."""
        state = self.state
        assert state is not None
        if not self.claiming():
            return self.game.view_for(state, self.knowledge(), self.me)
        view = self.game.view_for(replace(state, table=self.claimable()), self.knowledge(), self.me)
        return replace(view, pending_claims=self.pending_claims())

    def pending_claims(self) -> tuple[int, ...]:
        """This seat's claims not decided yet: those in the log (undecided, in log order), then
        those signed and not yet applied. They count against its hand (T3)."""
        in_log = [claim.slot for claim in self._queue if claim.seat == self.me]
        return (*in_log, *sorted(self._open_own))  # disjoint: applying a claim takes it out

    def publish_action(self, action: Claim | Play | Pass, *, check: bool = True) -> None:
        """Queue this seat's action for signing, after checking it as every peer will and
        against this seat's own view (raises IllegalAction, publishing nothing). Without `check`
        (a test's deliberate cheat) only the phase decides its kind."""
        state = self.state
        if state is None or self.over:
            raise IllegalAction(self.me, "the game is not in play")
        if isinstance(action, Claim):
            if check:
                if not self.claiming():
                    raise IllegalAction(self.me, "cards are claimed only in Phase 1 (T3)")
                if self.room() <= 0:
                    raise HandFull(self.me, f"your hand is full: {self.options.hand_size} (T3)")
                if action.slot not in self.claimable():
                    raise SlotTaken(self.me, f"slot {action.slot} is taken (T3)")
            self._open_own.add(action.slot)
            body = {"slot": action.slot, "side": str(action.side)}
            self.outbox.append(Publish(CLAIM, body, claims=action.slot))
            return
        if check:
            if not super().my_turn():
                raise IllegalAction(self.me, "it is not your go")
            # the engine's rules, then what this seat's own fronts forbid (T5)
            self.game.check_action(self.view(), action)
        self.outbox.append(Publish(ACT, to_data(action)))

    @property
    def choice_kinds(self) -> frozenset[str]:
        return frozenset({ACT, CLAIM, TICK})

    def simultaneous(self) -> bool:
        return self.claiming()

    def may_choose(self) -> bool:
        """In Phase 1, one card at a time (T3: a player takes a card, turns it over, adds it to
        an end of the hand, then takes the next): this seat may claim again once its previous
        claim is settled, its card's front known or the claim void."""
        if self.claiming():
            return self.can_claim() and not self.claim_in_flight()
        return super().my_turn()

    def claim_in_flight(self) -> bool:
        """A claim of this seat not settled yet: signed but not in the log, undecided, or taken
        with its card's front still unknown to this seat (its shares are on their way)."""
        if self._open_own or any(claim.seat == self.me for claim in self._queue):
            return True
        state = self.state
        if state is None or self.me >= self.seats:
            return False
        return any(self.deck.known_card(self._slot[slot]) is None for slot in state.hands[self.me])

    def heartbeat(self, waiting_for: frozenset[int], last_prev: bytes | None) -> Publish | None:
        """A `lie.tick` when the log holds back an envelope that matters (`needs_stability`)
        for this seat, or a race waits for this seat to see its first claim (protocol.md
        10.11.6); none otherwise, so a quiet table goes quiet."""
        if self.over or not self.claiming():
            return None
        if self.me in waiting_for or self.heartbeat_due(last_prev):
            return Publish(TICK, {})
        return None

    def needs_stability(self, envelope: Envelope) -> bool:
        """Claims and shares must apply soon, and so must a tick that acknowledges an undecided
        race (its race closes only once it applies); any other tick waits harmlessly for what
        comes after it, so answering it is never due (protocol.md 10.11.6)."""
        if envelope.kind != TICK:
            return True
        seen = self._heads.get(envelope.prev)
        if seen is None or not 0 <= envelope.seat < self.seats:
            return True  # its author had seen more than this seat: it may acknowledge a claim
        return any(
            race.winner is None
            and race.first.seat != envelope.seat
            and self._seen[envelope.seat] <= race.first.index < seen
            for race in self._races.values()
        )

    def holding_up(self) -> frozenset[int]:
        """Seats that owe shares of a claimed card, or whose acknowledgement an undecided race
        needs before it closes (protocol.md 10.11.3, 10.11.5)."""
        if not self.claiming():
            return frozenset()
        owing = {seat for seat in range(self.seats) if self._owed[seat]}
        for race in self._races.values():
            if race.winner is None:
                first = race.first
                owing |= {
                    s for s in range(self.seats) if s != first.seat and self._seen[s] <= first.index
                }
        return frozenset(owing)

    def counters(self) -> dict[str, int]:
        return {"races_decided": self.races_decided, "void_claims": self.void_claims}

    def restore_signed(self, envelope: Envelope) -> None:
        """A claim this seat signed before a restart, not in the log yet, still counts against
        its hand and keeps it from claiming that slot again (T3)."""
        body = envelope.body
        if envelope.kind == CLAIM and isinstance(body, Mapping) and type(body.get("slot")) is int:
            self._open_own.add(body["slot"])

    def heartbeat_due(self, last_prev: bytes | None) -> bool:
        """Whether a race waits for this seat to see a claim that its newest signed envelope
        (whose prev is `last_prev`) had not seen (protocol.md 10.11.6)."""
        if self.me >= self.seats or not self.claiming():
            return False
        seen = self._heads.get(last_prev, 0) if last_prev is not None else 0
        return any(
            race.winner is None and race.first.seat != self.me and race.first.index >= seen
            for race in self._races.values()
        )

    # -- the log -----------------------------------------------------------------------------

    def _on_applied(self, envelope: Envelope, head: bytes) -> None:
        self._heads[self.head] = self.applied
        seen = self._heads.get(envelope.prev, 0)
        if 0 <= envelope.seat < self.seats:
            self._seen[envelope.seat] = max(self._seen[envelope.seat], seen)

    def _on_game_envelope(self, envelope: Envelope, head: bytes) -> None:
        if envelope.kind == TICK:
            if envelope.body != {}:
                raise DeckFault(
                    envelope.seat, "a heartbeat carries nothing", {"body": envelope.body}
                )
        elif envelope.kind == CLAIM:
            self._on_claim(envelope)
        elif envelope.kind == ACT:
            self._on_act(envelope, head)
        else:
            super()._on_game_envelope(envelope, head)

    def _on_claim(self, envelope: Envelope) -> None:
        seat, body = envelope.seat, envelope.body
        if (
            not isinstance(body, Mapping)
            or set(body) != {"slot", "side"}
            or type(body["slot"]) is not int
            or body["side"] not in ("left", "right")
        ):
            raise DeckFault(seat, "unreadable claim", {"claim": body})
        slot, side = body["slot"], Side(body["side"])
        state = self.state
        if slot not in state.layout:
            raise DeckFault(seat, f"claimed slot {slot}, which is not on the table (T3)")
        seen = self._heads.get(envelope.prev, 0)
        race = self._races.get(slot)
        if race is not None:
            for earlier in race.claims:
                if earlier.seat == seat or earlier.index < seen:
                    whose = "its own" if earlier.seat == seat else f"seat {earlier.seat}'s"
                    raise DeckFault(
                        seat,
                        f"claimed slot {slot} after seeing {whose} claim of it (T3)",
                        {"earlier": f"{earlier.envelope} [{earlier.envelope.id.hex()[:16]}]"},
                    )
            if race.winner is not None:  # closed: every seat had seen it; a broken chain
                raise DeckFault(seat, f"claimed slot {slot}, already taken (T3)")
        size = self.options.hand_size
        undecided = sum(1 for claim in self._queue if claim.seat == seat)
        if len(state.hands[seat]) + undecided >= size:
            raise DeckFault(seat, f"claimed a card past {size} (T3)", {"slot": slot})
        claim = _Claim(self.applied - 1, seat, slot, side, envelope)
        if race is None:
            self._races[slot] = _Race([claim])
        else:
            race.claims.append(claim)
        self._queue.append(claim)
        if seat == self.me:
            self._open_own.discard(slot)

    def _on_act(self, envelope: Envelope, head: bytes) -> None:
        if envelope.prev != head:
            raise DeckFault(
                envelope.seat, "acted on a stale state (out of turn)", {"prev": envelope.prev}
            )
        try:
            action = action_from_data(envelope.body)
        except DecodeError as exc:
            raise DeckFault(envelope.seat, f"unreadable action: {exc}") from None
        if not isinstance(action, Play | Pass):
            raise DeckFault(envelope.seat, "lie.act carries a Play or a Pass (claims: lie.claim)")
        try:
            step = self.game.apply(self.state, envelope.seat, action)
        except IllegalAction as exc:
            raise DeckFault(envelope.seat, f"illegal action: {exc.reason}") from None
        self._take_step(step)

    # -- claims take effect --------------------------------------------------------------------

    def _serve(self) -> None:
        if self.fault is None and self._queue and self.claiming():
            self._settle()
        super()._serve()

    def _settle(self) -> None:
        """Decide the claims at the head of the queue whose races are closed, in log order."""
        while self._queue and self.fault is None:
            claim = self._queue[0]
            race = self._races[claim.slot]
            if race.winner is None:
                if not self._closed(race):
                    return
                seats = [c.seat for c in race.claims]
                assert self._round_seed is not None
                race.winner = race_winner(self._round_seed, claim.slot, seats)
                if len(seats) > 1:
                    self.races_decided += 1
            self._queue.popleft()
            if claim.seat != race.winner:
                self.void_claims += 1
                self.events.append(
                    Notice(
                        f"seat {claim.seat}'s claim of slot {claim.slot} is void: "
                        f"seat {race.winner} won the race (T3)"
                    )
                )
                continue
            self._take_effect(claim)

    def _closed(self, race: _Race) -> bool:
        """Every seat but the first claimer has an envelope in the log that saw the first claim."""
        first = race.first
        return all(self._seen[s] > first.index for s in range(self.seats) if s != first.seat)

    def _take_effect(self, claim: _Claim) -> None:
        try:
            step = self.game.apply(self.state, claim.seat, Claim(claim.slot, claim.side))
        except IllegalAction as exc:
            self._stop(claim.seat, f"illegal claim: {exc.reason}", str(claim.envelope))
            return
        self._take_step(step)
        for request in step.requests:
            if isinstance(request, Deal):
                self._start_deal(request)

    def _start_deal(self, request: Deal) -> None:
        """Deal a claimed card at once: every other seat owes its share (protocol.md 10.11.5)."""
        owners = {self._slot[slot]: request.seat for slot in request.slots}
        for seat in range(self.seats):
            if seat != request.seat:
                self._owed[seat].append(frozenset((masked, seat) for masked in owners))
        self._take_output(self.deck.deal(owners))

    # -- serving: deals of claims are concurrent ------------------------------------------------

    def _begin(self, state: Any) -> None:
        request = state.pending[0]
        if isinstance(request, Deal) and state.phase is Phase.BUILD:
            slots = tuple(self._slot[s] for s in request.slots)
            self._service = _Service([request], "dealing", slots=slots)
            self._service.done = all(s in self._dealt for s in slots)
        else:
            super()._begin(state)

    def _check_shares(self, seat: int, message: SharesMessage, expect: Expect | Concurrent) -> None:
        if not isinstance(expect, Concurrent):
            super()._check_shares(seat, message, expect)
            return
        owed = self._owed[seat]
        if not owed:
            raise DeckFault(seat, "published shares nobody asked for")
        self._require_shares(seat, message, set(owed[0]), False)
        owed.popleft()

    def _on_card_dealt(self, event: CardDealt) -> None:
        self._dealt.add(event.slot)
        if event.owner == self.me and event.card is not None:  # every other share was proved
            slot = self._engine_slot[event.slot]
            card = VerifiedCard(slot, self.me, event.card, False, ProofStatus.VERIFIED)
            self.events.append(CardsVerified("claim", self.me, (card,)))
        service = self._service
        if service is not None and service.kind == "dealing":
            service.done = all(s in self._dealt for s in service.slots)

    def _on_step_event(self, event: Any) -> None:
        """The fronts the fair deck opened for everyone, with their proofs: a combination
        played (T5), every seat's prizes at the end of the game (T10)."""
        if isinstance(event, Played):
            cards = tuple(
                VerifiedCard(slot, event.seat, face, True, ProofStatus.VERIFIED)
                for slot, face in zip(event.slots, event.cards, strict=True)
            )
            self.events.append(CardsVerified("play", event.seat, cards))
        elif isinstance(event, GameOver):
            for seat, (slots, faces) in enumerate(
                zip(self.state.prizes, event.prizes, strict=True)
            ):
                cards = tuple(
                    VerifiedCard(slot, seat, face, True, ProofStatus.VERIFIED)
                    for slot, face in zip(slots, faces, strict=True)
                )
                self.events.append(CardsVerified("prizes", seat, cards))

    def _on_arranged(self, request: Arrange, seed: bytes) -> None:
        if request.reason == "layout":  # a new round: its races are decided by this coin's seed
            self._round_seed = seed
            self._races = {}
            self._queue.clear()
            self._dealt.clear()
