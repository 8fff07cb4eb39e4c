"""The table driver, sans-IO, for every game: an engine served by the fair deck over the table log.

Every peer (and the offline auditor) runs one table (a `TableDriver` subclass: each game's lives
in p2p/games/<game>/table.py and is found by p2p/table/core/games.py through the `fairdeal.tables`
entry points) and feeds it every envelope of the table log, in log order, with `apply`. The
table says which envelope comes next (`expected`, the log's ordering: `expected_seat` is what a
`TableLog` asks of its `Rules`), checks each envelope against the rules and the fair-deck
proofs, runs the same engine on every peer, and collects what this seat must publish (`outbox`)
and what happened (`events`, p2p/table/core/api.py events). protocol.md section 10 has what every
game shares (10.1-10.7, 10.10), the give-away forwards (10.8) and each game's own parts.

What all games share, written once here:

- setup: seat 0's record of the lobby's signed roster (when there is one), then in seat order
  every seat's join (the table's terms: game, seats, options), key, and the commitments and
  reveals of the joint coins the game needs before its first state (`setup_coins`);
- the engine's requests, each served by the fair deck when it is `pending[0]`: `NewDeck`,
  `Reshuffle` (one list, shuffled by every seat in seat order), `NewGroupedDeck` and
  `GroupedReshuffle` (one list per back, shuffled within backs, every seat in seat order, list by
  list), `Deal` and `Reveal` (the shares owed, seat by seat in seat order), `Transfer` (a private
  forward, then the receiver's receipt), `Arrange` (a joint coin: commitments then reveals in
  seat order; the order is a Fisher–Yates permutation drawn from its seed);
- faults: a seat's envelope that breaks the rules or fails a proof is still the one in its place
  (it is signed, every honest peer sees the same one); it is applied to the log as evidence and
  the table stops with a `FaultDetected` naming that seat. Nothing of the public state changes.

What a game contributes (the subclass, p2p/table/core/part.py `TablePart`): its name and envelope
kinds, what to do when nothing is pending (`next_action`: the ordering rule), its own envelopes
(`on_game_envelope`; every game's act is read here, the same way), how its first state is made
(`new_game_step`) and what its steps mean for the players (`on_step_event`). It overrides those
public hooks only, and calls the driver's
public services only; the request being served is the request server's
(p2p/table/core/requests.py), a state machine whose transitions are data.

The driver only wires its parts, small machines that own their state, take typed inputs and
return effects (effects.py) the driver applies; none holds a pointer back to it: setup.py (the
setup envelopes), serving.py (the request server's side: how each request begins, what it
expects, when it is served; it owns requests.py's machine and shares.py's ledger), giveaways.py
(forwards and receipts), slots.py (engine slot <-> masked card); owing.py says what the table
waits for, in words, and terms.py checks the terms the lobby signs; outbox.py holds its small
records.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import Any, ClassVar

from fairdeal.engine.codec import DecodeError
from fairdeal.engine.errors import DRIVER, IllegalAction
from fairdeal.engine.events import Violation
from fairdeal.engine.games import AnyGame, get_game
from fairdeal.engine.requests import Ack, Arrange, Arrangement, Deal, Faces, Transfer
from fairdeal.engine.step import Step
from fairdeal.p2p.deck import (
    CardDealt,
    DeckFault,
    DeckSession,
    Slot,
)
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.lobby.roster import ROSTER_KIND, OptionValue, SignedRoster
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import EnvelopeLimits, Fault, genesis_head, next_head
from fairdeal.p2p.net.kinds import check_listed, chosen_kinds
from fairdeal.p2p.table.core import terms
from fairdeal.p2p.table.core.api import (
    FaultDetected,
    SetupProgress,
    StateChanged,
    TableEvent,
)
from fairdeal.p2p.table.core.effects import Answer, Arranged, Effect, Progress, Proved, TakeDeck
from fairdeal.p2p.table.core.forwards import SignedForward
from fairdeal.p2p.table.core.giveaways import GiftTerms, GiveAways
from fairdeal.p2p.table.core.outbox import DECK, Expect, Private, Publish
from fairdeal.p2p.table.core.owing import Kinds, owed_now
from fairdeal.p2p.table.core.requests import Service
from fairdeal.p2p.table.core.serving import Asked, Serving, arrangement
from fairdeal.p2p.table.core.setup import Setup, roster_difference
from fairdeal.p2p.table.core.shares import require_shares
from fairdeal.p2p.table.core.sizes import UNSIZED, table_limits
from fairdeal.p2p.table.core.slots import SlotMap

# Kept importable from here, where they were before the driver's parts had their own modules.
__all__ = [
    "DECK",
    "Expect",
    "Private",
    "Publish",
    "TableDriver",
    "arrangement",
    "roster_difference",
]


class TableDriver:
    """One table of one game as one seat (or an auditor, `deck.seat is None`) follows it."""

    game_name: ClassVar[str]
    join_kind: ClassVar[str]  # body: {"game", "seats", "options"}: every seat signs the terms
    act_kind: ClassVar[str]  # body: an engine action (the game's codec, protocol.md section 7)
    setup_coins: ClassVar[tuple[str, ...]] = ()  # joint coins flipped before the first state
    # its own parts' state machines (p2p/diagrams.py `Machine`, which imports this module: Any),
    # drawn into docs/state-machines/ beside the shared ones
    machines: ClassVar[tuple[Any, ...]] = ()

    def __init__(
        self,
        table_id: bytes,
        seats: int,
        options: Any,
        deck: DeckSession,
        signed_roster: SignedRoster | None = None,
        keys: Sequence[bytes] | None = None,
    ) -> None:
        """`signed_roster`: the lobby's roster every seat signed; the log then opens with seat
        0's `roster` envelope recording it (None: no roster envelope, as in sans-IO tests).
        `keys`: every seat's identity key, which signs its give-away forwards (default: the
        signed roster's)."""
        self.game: AnyGame = get_game(self.game_name)
        check_listed(self.game_name, (self.join_kind, self.act_kind))
        # fixed once the game's kinds are listed: read from the registry here, once, rather
        # than at every flush of the outbox
        self._choice_kinds = chosen_kinds(self.game_name)
        options.validate(seats)
        self.check_terms(options)
        if signed_roster is not None and (
            signed_roster.roster.table_id != table_id or len(signed_roster.roster.seats) != seats
        ):
            raise ValueError("the signed roster is of another table")
        if signed_roster is not None and signed_roster.roster.options_dict != self.lobby_options(
            options
        ):
            raise ValueError("the options are not the ones every seat signed in the roster")
        self.signed_roster = signed_roster
        if keys is None and signed_roster is not None:
            keys = signed_roster.roster.keys
        self.keys = tuple(keys or ())
        if self.keys and len(self.keys) != seats:
            raise ValueError(f"{len(self.keys)} identity keys for {seats} seats")
        self.table_id = table_id
        self.seats = seats
        self.me = seats if deck.seat is None else deck.seat  # seats: an auditor (no seat)
        self.options = options
        self.deck = deck
        self.head = genesis_head(table_id)
        self.applied = 0
        self.state: Any = None
        self.fault: FaultDetected | None = None
        self.outbox: list[Publish | Private] = []
        self.events: list[TableEvent] = []
        # The terms every seat's join must carry (an auditor takes them from seat 0's join).
        self.terms: Any = {
            "game": self.game_name,
            "seats": seats,
            "options": self.options_for_join(options),
        }
        # the setup envelopes, until the last is applied: then the part is dropped, and the
        # game's requests and moves are all that is asked for (no "is setup over?" per envelope)
        self.setup: Setup | None = Setup(
            seats, self.join_kind, len(self.setup_coins), signed_roster
        )
        self._slot = SlotMap()  # engine slot <-> masked card, and public backs
        # the engine requests served with the fair deck (p2p/table/core/requests.py's machine)
        self.serving = Serving(
            seats,
            deck,
            self._slot,
            receipt_kind=self.received_kind,
            card_backs=partial(self.game.backs, options),
        )
        # give-aways' forwards and receipts (protocol.md 10.8)
        self.gifts = GiveAways(
            GiftTerms(table_id, self.game_name, seats, self.me, self.keys, self.received_kind),
            deck,
        )
        self._proofs = 0

    # -- what a game contributes -------------------------------------------------------------

    @classmethod
    def lobby_options(cls, options: Any) -> dict[str, OptionValue]:
        """The options shown in the lobby and signed in the roster (the rest are the defaults)."""
        raise NotImplementedError

    @classmethod
    def options_from_lobby(cls, values: Mapping[str, Any]) -> Any:
        """The options a roster signed (p2p/table/core/terms.py); ValueError for a field the game's
        lobby does not show or of the wrong type."""
        return terms.options_from_lobby(cls, values)

    @classmethod
    def options_for_join(cls, options: Any) -> Any:
        """The options every seat signs in its join envelope."""
        return get_game(cls.game_name).to_data(options)

    @classmethod
    def unsigned_terms(cls, options: Any) -> dict[str, tuple[Any, Any]]:
        """The join terms the lobby does not sign that differ from the rulebook's (terms.py)."""
        return terms.unsigned_terms(cls, options)

    @classmethod
    def check_terms(cls, options: Any) -> None:
        """ValueError naming the first unsigned term that is not the rulebook's."""
        terms.check_terms(cls, options)

    def new_game_step(self) -> Step[Any, Any]:
        """The engine's first step, once setup (and its coins) is done."""
        return self.game.new_game(self.seats, self.options)

    def next_action(self) -> Expect | None:
        """What the log takes when no request is pending: the game's ordering rule."""
        turn = self.state.to_act()
        return Expect(turn, self.act_kind) if turn is not None else None

    def on_game_envelope(self, envelope: Envelope, head: bytes) -> None:
        """Apply one of the game's own envelopes (raise DeckFault naming the culprit): a game
        played in turns has its act and, with give-aways, their receipts; a game with envelopes
        of its own reads those and passes these on here."""
        if envelope.kind == self.act_kind:
            self._apply_act(envelope, head)
        elif self.received_kind and envelope.kind == self.received_kind:
            self.on_received(envelope)
        else:
            raise DeckFault(envelope.seat, f"{envelope.kind} is not an envelope of this game")

    def on_act(self, seat: int, action: Any) -> None:
        """A seat's action read from its act envelope, before the engine applies it: a game
        refuses here (DeckFault) an action its act may not carry, or keeps what the state
        shows before the move."""

    def _apply_act(self, envelope: Envelope, head: bytes) -> None:
        """Every game's act, read the same way (protocol.md section 7 for its body): signed on
        the head it acts on (another head: it acted out of turn), a body the game's codec
        decodes, an action the engine finds legal. Each check that fails is the author's fault
        (a DeckFault, as the table's other faults) and changes nothing."""
        seat = envelope.seat
        if envelope.prev != head:
            raise DeckFault(seat, "acted on a stale state (out of turn)", {"prev": envelope.prev})
        try:
            action = self.game.from_data(envelope.body, self.game.action_type)
        except DecodeError as exc:
            raise DeckFault(seat, f"unreadable action: {exc}") from None
        self.on_act(seat, action)
        try:
            step = self.game.apply(self.state, seat, action)
        except IllegalAction as exc:
            raise DeckFault(seat, f"illegal action: {exc.reason}") from None
        self.take_step(step)

    def on_step_event(self, event: Any) -> None:
        """React to one engine event (Violation already stops the table)."""

    def deals_in_steps(self, state: Any) -> bool:
        """Whether the engine's pending `Deal` is dealt inside the game's own envelopes (their
        shares ride in them, the game calls `deck.deal` itself) rather than served by the
        table's shares in seat order. The table then only waits for every card's shares."""
        return False

    def step_under_way(self) -> bool:
        """Whether a step of the game's own is under way: a deal in steps is answered only
        between steps."""
        return False

    def deck_id(self) -> str:
        """The deck id (card points' domain) of a new deck: one per hand, round or game."""
        return self.game_name

    def card_bounds(self) -> tuple[int, int] | None:
        """The most cards one list of this game holds and the cards of the game, from which
        the envelopes' caps are counted (p2p/table/core/sizes.py); None: not stated, every envelope
        may fill a frame."""
        return None

    def game_bodies(self) -> dict[str, int]:
        """The largest body, in bytes, of each of the game's own envelope kinds that may be
        larger than the floor every kind has (`sizes.SMALL`)."""
        return {}

    def envelope_limits(self) -> EnvelopeLimits:
        """What an envelope of each kind may weigh at this table, and each seat's budget of
        bytes held ahead of their place (protocol.md 4.4 step 4)."""
        bounds = self.card_bounds()
        if bounds is None:
            return UNSIZED
        largest_list, cards = bounds
        return table_limits(self.seats, largest_list, cards, self.game_bodies())

    # -- queries ---------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.fault is not None or (self.state is not None and self.state.over)

    def expected(self) -> Expect | None:
        """The envelope the log takes next (None: the game is over or stopped)."""
        if self.fault is not None:
            return None
        if self.setup is not None:
            return self.setup.expected()
        state = self.state
        assert state is not None
        if state.over:
            return None
        if self.serving.service is None:
            return self.next_action()
        expect = self.serving.expected()
        return expect if expect is not None else self.next_action()  # a deal in the game's steps

    @property
    def service(self) -> Service | None:
        """The engine request (or batch of deals) being served, if any."""
        return self.serving.service

    @property
    def dealt(self) -> set[Slot]:
        """Cards whose every share is in (a game dealing in its own steps may clear it)."""
        return self.serving.dealt

    def expected_seat(self) -> int | None:
        """The log's ordering: the seat whose envelope comes next."""
        expect = self.expected()
        return expect.seat if expect is not None else None

    def knowledge(self, seat: int | None = None) -> dict[int, int]:
        """Engine slot -> face of every live card whose face this seat knows: its hand, the cards
        it played face-down or gave away, and revealed ones, as `OracleDriver.knowledge` keeps
        them for a local table (one view everywhere: the pile shows our own cards' faces, and
        bots count what they have seen)."""
        state = self.state
        if state is None or self.me >= self.seats:
            return {}
        seat = self.me if seat is None else seat
        # another seat's knowledge cannot be told from here beyond what we know of its hand
        slots = state.all_slots() if seat == self.me else list(state.hands[seat])
        known: dict[int, int] = {}
        for slot in slots:
            masked = self._slot.get(slot)
            face = self.deck.known_card(masked) if masked is not None else None
            if face is not None:
                known[slot] = face
        return known

    def view(self) -> Any:
        assert self.state is not None
        return self.game.view_for(self.state, self.knowledge(), self.me)

    def my_turn(self) -> bool:
        expect = self.expected()
        return (
            isinstance(expect, Expect) and expect.kind == self.act_kind and expect.seat == self.me
        )

    # -- what a seat decides (a player or its bot), the same for every game -------------------

    @property
    def choice_kinds(self) -> frozenset[str]:
        """The kinds this seat signs by its own choice (its actions, The Lie's step envelopes): a
        replay after a restart never regenerates them, unlike the fair-deck messages it owes: the
        game's kinds listed as chosen (p2p/net/kinds.py)."""
        return self._choice_kinds

    def publish_action(self, action: Any, *, check: bool = True) -> None:
        """Queue this seat's action for signing. With `check` (always, but for a test's
        deliberate cheat) it is first checked as every peer will check it, against this seat's
        own view too (raises IllegalAction, publishing nothing)."""
        raise NotImplementedError

    def simultaneous(self) -> bool:
        """Whether the seats act at once now (The Lie's Phase 1), rather than in turn."""
        return False

    def follows_up(self) -> bool:
        """Where seats act at once: whether this seat's next move follows up its last one, a
        quick choice (The Lie: placing the card it took, T3); a bot reacts faster to it."""
        return False

    def may_choose(self) -> bool:
        """Whether this seat's player (or bot) may choose an action now."""
        return self.my_turn()

    def pace(self, held: Sequence[Envelope]) -> None:
        """Queue in `outbox` the envelope a phase in steps needs of this seat now, if any (The
        Lie's Phase 1, protocol.md 10.11.5): `held` are the envelopes this seat's log holds, not
        applied yet. A game without steps never needs one."""

    def owes(self) -> dict[int, tuple[str, ...]]:
        """For each seat the table waits for, what it owes, in words a player reads; empty when
        it waits for nobody (protocol.md 10.6; p2p/table/core/owing.py)."""
        kinds = Kinds(self.act_kind, self.join_kind, self.received_kind)
        return owed_now(self.expected(), self.service, self.me, kinds)

    def counters(self) -> dict[str, int]:
        """What the game counts for `simulate` and the benchmark (The Lie: races decided, void
        claims)."""
        return {}

    def restore_signed(self, envelope: Envelope) -> None:
        """An envelope this seat signed before a restart that its log has not applied yet: a
        game that counts what is in flight (The Lie's claims, T3) counts it again."""

    @property
    def proofs(self) -> int:
        """How many proofs this table has checked so far (shuffles, shares, coins)."""
        return self._proofs

    def back_of(self, slot: int) -> int:
        """The public back of engine slot `slot` (a grouped deck's)."""
        return self._slot.back(slot)

    def map_slot(self, slot: int, masked: Slot, back: int | None = None) -> None:
        """Engine slot `slot` is the fair deck's card `masked` (of public back `back`)."""
        self._slot.map(slot, masked, back)

    def masked_slot(self, slot: int) -> Slot:
        """The fair deck's card behind engine slot `slot`."""
        return self._slot.masked(slot)

    def engine_slot(self, masked: Slot) -> int:
        """The engine slot the fair deck's card `masked` stands for."""
        return self._slot.engine(masked)

    # -- commands --------------------------------------------------------------------------

    def start(self) -> None:
        """This seat's opening envelopes: (seat 0) the signed roster, then join, key, the setup
        coins' commitments (applied in seat order)."""
        if self.signed_roster is not None and self.me == 0:
            self.outbox.append(Publish(ROSTER_KIND, self.signed_roster.to_body()))
        self.outbox.append(Publish(self.join_kind, self.terms))
        self.take_output(self.deck.start())
        for coin_id in self.setup_coins:
            self.take_output(self.deck.coin(coin_id))

    def observe(self) -> None:
        """Follow the table without a seat (an auditor): join the coins, publish nothing."""
        for coin_id in self.setup_coins:
            self.deck.coin(coin_id)

    def receive_private(self, sender: int, data: Any) -> None:
        """A give-away's signed forward, sent privately by seat `sender` (GiveAways.receive:
        DeckFault naming the sender for a bad one)."""
        self._take(self.gifts.receive(sender, data, open_now=self.fault is None))

    def restore_forward(self, data: Any) -> None:
        """A forward this seat checked, used and kept on disk before a restart."""
        self.gifts.restore(data)

    @property
    def kept_forwards(self) -> list[SignedForward]:
        """Forwards checked and used, to be kept on disk before their receipt is published."""
        return self.gifts.kept

    def pending_transfer(self) -> Transfer | None:
        """The give-away being served, if one is."""
        service = self.serving.service
        return service.transfer if service is not None else None

    def on_received(self, envelope: Envelope) -> None:
        """A give-away's receipt (`received_kind`), as a game's envelope: GiveAways.on_receipt
        judges it (DeckFault naming whoever is at fault), then the Transfer is served."""
        self.gifts.on_receipt(envelope)
        self.serving.on_receipt()

    def log_fault(self, fault: Fault) -> None:
        """A fault the table log found (two envelopes signed for one place, a bad chain): the
        table stops, blaming that seat with the log's evidence."""
        ids = ", ".join(f"{e} [{e.id.hex()[:16]}]" for e in fault.evidence)
        self.stop(fault.seat, fault.kind, f"{fault.detail}: {ids}")

    # -- the log ---------------------------------------------------------------------------

    def apply(self, envelope: Envelope) -> None:
        """Apply the next envelope of the log (the one `expected()` named the seat of)."""
        expect = self.expected()
        head = self.head
        self.head = next_head(self.head, envelope)
        self.applied += 1
        self.on_applied(envelope, head)
        if expect is None:
            self.stop(envelope.seat, "out of turn", f"{envelope} arrived where none was due")
            return
        if envelope.seat != expect.seat:
            self.stop(envelope.seat, "out of turn", f"{envelope} arrived where none was due")
            return
        if envelope.kind != expect.kind:
            self.stop(envelope.seat, f"sent {envelope.kind}", f"{expect} was due ({envelope})")
            return
        try:
            setup = self.setup
            if setup is not None and envelope.kind == ROSTER_KIND:
                setup.on_roster(envelope)
            elif setup is not None and envelope.kind == self.join_kind:
                self.events.append(setup.on_join(envelope, self.terms))
            elif envelope.kind == DECK:
                effects = self.serving.on_deck_envelope(envelope, expect)
                if setup is not None:  # a key or a setup coin's envelope
                    setup.on_deck()
                    self.count_proofs(1)
                self._take(effects)
            else:
                self.on_game_envelope(envelope, head)
            if setup is not None and setup.over:
                self.setup = None
        except DeckFault as fault:
            seat = fault.seat if fault.seat is not None else envelope.seat
            self.stop(seat, fault.what, f"{envelope}: {fault.evidence or fault.what}")
            return
        self._serve()

    def on_applied(self, envelope: Envelope, head: bytes) -> None:
        """Every envelope, before it is checked: a game that tracks the log itself (The Lie's
        "had seen") does it here."""

    received_kind: ClassVar[str] = ""  # a game with Transfer requests names its receipt kind

    def apply_owed_shares(self, seat: int, body: Any, owed: set[tuple[Slot, int]]) -> None:
        """A seat's `deck.shares` carried in one of the game's own envelopes: they must be
        exactly `owed` (raises DeckFault naming the seat), then the deck takes them."""
        self._take(self.serving.take_owed_shares(seat, body, owed))

    require_shares = staticmethod(require_shares)

    def count_proofs(self, count: int) -> None:
        """`count` more proofs checked (reported with the setup's progress)."""
        self._proofs += count

    # -- serving engine requests ----------------------------------------------------------------

    def on_arranged(self, request: Arrange, seed: bytes) -> None:
        """A joint coin arranged `request.slots` (a game may keep the seed, e.g. for races)."""

    def _serve(self) -> None:
        """Start the game once set up, then serve requests until an envelope is needed."""
        if self.fault is not None or self.setup is not None:
            return
        if self.state is None:
            self.take_step(self.new_game_step())
        while self.fault is None:
            state = self.state
            assert state is not None
            if not state.pending:
                return
            if self.serving.service is None:
                self._begin(state)
            answers = self.serving.finish(self.step_under_way())
            if answers is None:
                return
            self._take(answers)

    def _begin(self, state: Any) -> None:
        """Begin serving the engine's first pending request (a give-away's with its forward)."""
        request = state.pending[0]
        in_steps = isinstance(request, Deal) and self.deals_in_steps(state)
        self._take(self.serving.begin(Asked(state.pending, self.deck_id(), in_steps)))
        transfer = self.pending_transfer()
        if transfer is not None:
            self._take(self.gifts.begin(transfer, self.masked_slot(transfer.slot)))

    def _take(self, effects: Iterable[Effect]) -> None:
        """Apply what a part asks of the table, in order."""
        for effect in effects:
            if isinstance(effect, Publish):
                self.outbox.append(effect)
            elif isinstance(effect, TakeDeck):
                self.take_output(effect.output, effect.transfer)
            elif isinstance(effect, Proved):
                self.count_proofs(effect.count)
            elif isinstance(effect, Progress):
                progress = SetupProgress(
                    effect.phase, effect.seat, effect.done, effect.total, self.proofs
                )
                self.events.append(progress)
            elif isinstance(effect, Arranged):
                self.on_arranged(effect.request, effect.seed)
            elif isinstance(effect, Answer):
                self.resolve(effect.resolution)

    # -- engine ------------------------------------------------------------------------------

    def resolve(self, resolution: Ack | Faces | Arrangement) -> None:
        """Answer the engine's pending request (a deck fault stops the table)."""
        assert self.state is not None
        try:
            step = self.game.apply(self.state, DRIVER, resolution)
        except IllegalAction as exc:  # a card opened twice across requests: a deck fault
            self.stop(DRIVER, "the deck and the engine disagree", exc.reason)
            return
        self.take_step(step)

    def take_step(self, step: Step[Any, Any]) -> None:
        self.state = step.state
        for (
            event
        ) in step.events:  # what it shows first, then its state, as p2p/table/runtime/local.py
            if not isinstance(event, Violation):
                self.on_step_event(event)
        self.events.append(StateChanged(step.state, step.events))
        for event in (e for e in step.events if isinstance(e, Violation)):
            faces = ", ".join(str(f) for f in event.faces)
            self.stop(event.seat, event.reason, f"slots {list(event.slots)} opened as {faces}")

    # -- fair deck --------------------------------------------------------------------------------

    def publish(self, kind: str, body: Any) -> None:
        """Queue an envelope of `kind` for this seat to sign and publish."""
        self.outbox.append(Publish(kind, body))

    def take_output(self, output: Output, transfer: Transfer | None = None) -> None:
        for message in output.messages:
            if "to" in message:
                assert transfer is not None, "only a give-away sends a private message"
                self.outbox.append(Private(message["to"], message, transfer.id, transfer.slot))
            else:
                self.outbox.append(Publish(DECK, message))
        for event in output.events:
            self._take(self.serving.on_deck_event(event))
            if isinstance(event, CardDealt):
                self.on_card_dealt(event)

    def on_card_dealt(self, event: CardDealt) -> None:
        """A dealt card's shares are all in (a game dealing concurrently tracks it here)."""

    def stop(self, seat: int, what: str, evidence: str) -> None:
        if self.fault is None:
            self.fault = FaultDetected(seat, what, evidence)
            self.events.append(self.fault)
