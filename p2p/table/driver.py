"""The table driver, sans-IO, for every game: an engine served by the fair deck over the table log.

Every peer (and the offline auditor) runs one table (`TableDriver` subclass: `LarryTable` in
p2p.table.larry, `LieTable` in p2p.table.lie; p2p.table.games picks one by the game's name) and
feeds it every envelope of the table log, in log order, with `apply`. The table says which
envelope comes next (`expected`, the log's ordering: `expected_seat` is what a `TableLog` asks),
checks each envelope against the rules and the fair-deck proofs, runs the same engine on every
peer, and collects what this seat must publish (`outbox`) and what happened (`events`, table_api
events). protocol.md section 10 has what every game shares (10.1-10.7, 10.10), Larry's
give-away forwards (10.8) and orders (10.9), and The Lie (10.11).

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

What a game contributes (the subclass): its name and envelope kinds, what to do when nothing is
pending (`next_action`: the ordering rule), its own envelopes (`_on_game_envelope`), how its
first state is made (`_new_game`) and what its steps mean for the players (`_on_step_event`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from fairdeal.engine.errors import DRIVER, IllegalAction
from fairdeal.engine.events import Violation
from fairdeal.engine.game import Game
from fairdeal.engine.games import get_game
from fairdeal.engine.requests import (
    Arrange,
    Deal,
    GroupedReshuffle,
    NewDeck,
    NewGroupedDeck,
    Request,
    Reshuffle,
    Reveal,
    Transfer,
)
from fairdeal.engine.resolutions import Ack, Arrangement, Faces
from fairdeal.engine.step import Step
from fairdeal.p2p.deck import (
    CardDealt,
    CardReceived,
    CardRevealed,
    CoinFlipped,
    DeckFault,
    DeckSession,
    KeysReady,
    ListReady,
    ShuffleVerified,
    Slot,
)
from fairdeal.p2p.deck.coin import SeedStream
from fairdeal.p2p.deck.errors import DeckUsageError
from fairdeal.p2p.deck.events import DeckEvent
from fairdeal.p2p.deck.messages import (
    COIN_COMMIT,
    COIN_REVEAL,
    KEY,
    SHARES,
    SHUFFLE,
    SharesMessage,
)
from fairdeal.p2p.deck.session import Output
from fairdeal.p2p.lobby.roster import ROSTER_KIND, OptionValue, RosterError, SignedRoster
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import Fault, genesis_head, next_head
from fairdeal.p2p.table.api import (
    FaultDetected,
    SetupProgress,
    StateChanged,
    TableEvent,
)
from fairdeal.p2p.table.forwards import ForwardError, SignedForward

DECK = "deck"  # body: a fair-deck message (protocol.md section 6), in every game
ARRANGE_LABEL = "arrange"  # the SeedStream label an Arrange permutation is drawn with


@dataclass(frozen=True, slots=True)
class Expect:
    """The next envelope of the log: its seat, its kind, and (for DECK) the message kind."""

    seat: int
    kind: str
    deck_kind: str | None = None

    def __str__(self) -> str:
        what = self.deck_kind or self.kind
        return f"{what} from seat {self.seat}"


@dataclass(frozen=True, slots=True)
class Publish:
    """An envelope this seat must sign and publish. `claims`: the engine slot it asks to be
    dealt to this seat (The Lie's claim, T3), so that a peer can time how long the card's front
    takes to reach it (`CardsVerified("claim")`)."""

    kind: str
    body: Any
    claims: int | None = None


@dataclass(frozen=True, slots=True)
class Private:
    """A give-away's `deck.forward` for seat `to` only, over the encrypted channel: the peer
    signs it (p2p.table.forwards) for the engine's Transfer `transfer` of engine slot `slot`."""

    to: int
    body: Any
    transfer: int
    slot: int


@dataclass
class _Service:
    """The request(s) being served: which requests, and which envelopes they still need."""

    requests: list[Request]
    kind: str  # "shuffle", "shares", "receipt", "coin", "dealing"
    publishers: list[int] = field(default_factory=list)  # seats that owe shares, in seat order
    published: int = 0
    slots: tuple[Slot, ...] = ()
    list_ids: tuple[str, ...] = ()
    done: bool = False
    faces: dict[Slot, int] = field(default_factory=dict)
    coin_id: str = ""

    @property
    def list_id(self) -> str:
        return self.list_ids[0] if self.list_ids else ""


def roster_difference(signed: SignedRoster, body: Any) -> dict[str, Any]:
    """Evidence for a roster envelope that is not the signed roster: which part differs."""
    if not isinstance(body, Mapping) or body.get("digest") != signed.roster.digest:
        return {"digest": body.get("digest") if isinstance(body, Mapping) else body}
    recorded = body.get("signatures")
    if not isinstance(recorded, list) or len(recorded) != len(signed.signatures):
        return {"signatures": recorded}
    seats = [s for s, (a, b) in enumerate(zip(recorded, signed.signatures, strict=True)) if a != b]
    return {"signatures of seats": seats}


def arrangement(seed: bytes, slots: Sequence[int]) -> tuple[int, ...]:
    """The public order an Arrange's coin gives its slots: position i holds slots[perm[i]], perm
    the SeedStream(seed, "arrange") Fisher–Yates permutation (protocol.md 10.10)."""
    perm = SeedStream(seed, ARRANGE_LABEL).permutation(len(slots))
    return tuple(slots[k] for k in perm)


class TableDriver:
    """One table of one game as one seat (or an auditor, `deck.seat is None`) follows it."""

    game_name: ClassVar[str]
    join_kind: ClassVar[str]  # body: {"game", "seats", "options"}: every seat signs the terms
    act_kind: ClassVar[str]  # body: an engine action (the game's codec, protocol.md section 7)
    setup_coins: ClassVar[tuple[str, ...]] = ()  # joint coins flipped before the first state
    round_name: ClassVar[str] = "hand"  # what a game's `hand_no` or `round_no` counts

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
        self.game: Game = get_game(self.game_name)
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
        self._setup = [(0, ROSTER_KIND, None)] if signed_roster is not None else []
        self._setup += [(s, self.join_kind, None) for s in range(seats)]
        self._setup += [(s, DECK, KEY) for s in range(seats)]
        for _ in self.setup_coins:
            self._setup += [(s, DECK, COIN_COMMIT) for s in range(seats)]
            self._setup += [(s, DECK, COIN_REVEAL) for s in range(seats)]
        self._setup_done = 0
        self._slot: dict[int, Slot] = {}  # engine slot -> masked card
        self._engine_slot: dict[Slot, int] = {}
        self._back: dict[int, int] = {}  # engine slot -> its public back (grouped decks)
        self._public: dict[Slot, set[int]] = {}  # whose shares of a slot are public
        self._service: _Service | None = None
        # Signed forwards received before their Transfer is served: at most one per sender, so
        # no seat can flood this seat's memory; and the ones kept on disk before a restart.
        self._forwards: dict[int, SignedForward] = {}
        self._restored: dict[int, SignedForward] = {}
        self._receipted: set[int] = set()  # Transfer ids whose receipt this seat published
        self._transfers_done: set[int] = set()  # Transfer ids served (their receipt applied)
        # Forwards checked and used, to be kept on disk before the receipt is published.
        self.kept_forwards: list[SignedForward] = []
        self._proofs = 0

    # -- what a game contributes -------------------------------------------------------------

    @classmethod
    def lobby_options(cls, options: Any) -> dict[str, OptionValue]:
        """The options shown in the lobby and signed in the roster (the rest are the defaults)."""
        raise NotImplementedError

    @classmethod
    def options_from_lobby(cls, values: Mapping[str, Any]) -> Any:
        """The options a roster signed (`lobby_options`' fields, the rest at the rulebook's
        defaults); ValueError for a field the game's lobby does not show or of the wrong type."""
        default = get_game(cls.game_name).default_options()
        shown = cls.lobby_options(default)
        for name, value in values.items():
            if name not in shown or type(value) is not type(shown[name]):
                raise ValueError(f"{name}={value!r} is not an option of {cls.game_name}'s lobby")
        return replace(default, **values)

    @classmethod
    def options_for_join(cls, options: Any) -> Any:
        """The options every seat signs in its join envelope."""
        return get_game(cls.game_name).to_data(options)

    @classmethod
    def unsigned_terms(cls, options: Any) -> dict[str, tuple[Any, Any]]:
        """The join terms that the lobby does not sign and that differ from the rulebook's, as
        {name: (this value, the rulebook's)}. Every term that changes the game is either signed
        in the lobby or fixed at the rulebook's value (protocol.md 10.2), so this must be empty."""
        fixed = cls.options_for_join(cls.options_from_lobby(cls.lobby_options(options)))
        carried = cls.options_for_join(options)
        return {
            name: (carried.get(name), fixed.get(name))
            for name in sorted(fixed.keys() | carried.keys())
            if carried.get(name) != fixed.get(name)
        }

    @classmethod
    def check_terms(cls, options: Any) -> None:
        """ValueError naming the first unsigned term that is not the rulebook's."""
        for name, (value, rulebook) in cls.unsigned_terms(options).items():
            signed = ", ".join(sorted(cls.lobby_options(options))) or "nothing"
            raise ValueError(
                f"{cls.game_name}'s {name} is {value!r}, not the rulebook's {rulebook!r}: "
                f"the lobby signs only {signed}; every other term is the rulebook's"
            )

    def _new_game(self) -> Step:
        """The engine's first step, once setup (and its coins) is done."""
        return self.game.new_game(self.seats, self.options)

    def next_action(self) -> Expect | None:
        """What the log takes when no request is pending: the game's ordering rule."""
        turn = self.state.to_act()
        return Expect(turn, self.act_kind) if turn is not None else None

    def _on_game_envelope(self, envelope: Envelope, head: bytes) -> None:
        """Apply one of the game's own envelopes (raise DeckFault naming the culprit)."""
        raise DeckFault(envelope.seat, f"{envelope.kind} is not an envelope of this game")

    def _on_step_event(self, event: Any) -> None:
        """React to one engine event (Violation already stops the table)."""

    def _deck_id(self) -> str:
        """The deck id (card points' domain) of a new deck: one per hand, round or game."""
        return self.game_name

    # -- queries ---------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.fault is not None or (self.state is not None and self.state.over)

    def expected(self) -> Expect | None:
        """The envelope the log takes next (None: the game is over or stopped)."""
        if self.fault is not None:
            return None
        if self._setup_done < len(self._setup):
            seat, kind, deck_kind = self._setup[self._setup_done]
            return Expect(seat, kind, deck_kind)
        state = self.state
        assert state is not None
        if state.over:
            return None
        service = self._service
        if service is None:
            return self.next_action()
        return self._service_expects(service)

    def _service_expects(self, service: _Service) -> Expect | None:
        if service.kind == "shuffle":
            lists = len(service.list_ids)
            return Expect(service.published // lists, DECK, SHUFFLE)  # seat order, list order
        if service.kind == "shares":
            return Expect(service.publishers[service.published], DECK, SHARES)
        if service.kind == "coin":
            step = COIN_COMMIT if service.published < self.seats else COIN_REVEAL
            return Expect(service.published % self.seats, DECK, step)
        if service.kind == "dealing":
            return self.next_action()
        request = service.requests[0]
        assert isinstance(request, Transfer)
        return Expect(request.to_seat, self.received_kind)

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
        replay after a restart never regenerates them, unlike the fair-deck messages it owes."""
        return frozenset({self.act_kind})

    def publish_action(self, action: Any, *, check: bool = True) -> None:
        """Queue this seat's action for signing. With `check` (always, but for a test's
        deliberate cheat) it is first checked as every peer will check it, against this seat's
        own view too (raises IllegalAction, publishing nothing)."""
        raise NotImplementedError

    def simultaneous(self) -> bool:
        """Whether the seats act at once now (The Lie's Phase 1), rather than in turn."""
        return False

    def may_choose(self) -> bool:
        """Whether this seat's player (or bot) may choose an action now."""
        return self.my_turn()

    def pace(self, held: frozenset[int]) -> None:
        """Queue in `outbox` the envelope a phase in steps needs of this seat now, if any (The
        Lie's Phase 1, protocol.md 10.11.5): `held` are the seats whose envelopes this seat's log
        holds, not applied yet. A game without steps never needs one."""

    def owes(self) -> dict[int, tuple[str, ...]]:
        """For each seat the table waits for, what it owes, in words a player reads ("its
        turn", "shares for the doubt", "a give-away forward"); empty when the table waits for
        nobody (over, stopped, or a quiet table between steps). The silence watch and the
        players' screens show these (protocol.md 10.6).

        Shares are owed by every publisher not yet applied (in seat order, they apply one by
        one). A give-away waits for the giver's private forward, which only the receiver sees:
        the receiver's own table names the giver alone, the others name the giver and the
        receiver's receipt; the giver's own table names the receiver only."""
        expect = self.expected()
        if expect is None:
            return {}
        service = self._service
        if service is not None and service.kind == "shares" and expect.deck_kind == SHARES:
            what = f"shares for {self._shares_purpose(service)}"
            return {seat: (what,) for seat in service.publishers[service.published :]}
        transfer = self._pending_transfer()
        if transfer is not None and expect.kind == self.received_kind:
            giver, receiver = transfer.from_seat, transfer.to_seat
            owed: dict[int, tuple[str, ...]] = {}
            if self.me != giver:
                owed[giver] = ("a give-away forward",)
            if self.me != receiver:
                owed[receiver] = ("its receipt of the give-away",)
            return owed
        return {expect.seat: (self._expect_words(expect),)}

    def _shares_purpose(self, service: _Service) -> str:
        request = service.requests[0]
        if isinstance(request, Reveal):
            return {
                "doubt": "the doubt",
                "face_up": "the face-up card",
                "score": "the scoring",
                "play": "the play",
            }.get(request.reason, f"the {request.reason.replace('_', ' ')}")
        return "the deal"

    def _expect_words(self, expect: Expect) -> str:
        if expect.kind == self.act_kind:
            return "its turn"
        if expect.kind == ROSTER_KIND:
            return "the signed roster"
        if expect.kind == self.join_kind:
            return "its join"
        return {
            KEY: "its key",
            SHUFFLE: "its shuffle",
            SHARES: "its shares",
            COIN_COMMIT: "its commitment to a joint coin",
            COIN_REVEAL: "its reveal of a joint coin",
        }.get(expect.deck_kind or "", f"its {expect.deck_kind or expect.kind} envelope")

    def counters(self) -> dict[str, int]:
        """What the game counts for `simulate` and the benchmark (The Lie: races decided, void
        claims)."""
        return {}

    def restore_signed(self, envelope: Envelope) -> None:
        """An envelope this seat signed before a restart that its log has not applied yet: a
        game that counts what is in flight (The Lie's claims, T3) counts it again."""

    def masked_slot(self, slot: int) -> Slot:
        """The fair deck's card behind engine slot `slot`."""
        return self._slot[slot]

    # -- commands --------------------------------------------------------------------------

    def start(self) -> None:
        """This seat's opening envelopes: (seat 0) the signed roster, then join, key, the setup
        coins' commitments (applied in seat order)."""
        if self.signed_roster is not None and self.me == 0:
            self.outbox.append(Publish(ROSTER_KIND, self.signed_roster.to_body()))
        self.outbox.append(Publish(self.join_kind, self.terms))
        self._take_output(self.deck.start())
        for coin_id in self.setup_coins:
            self._take_output(self.deck.coin(coin_id))

    def observe(self) -> None:
        """Follow the table without a seat (an auditor): join the coins, publish nothing."""
        for coin_id in self.setup_coins:
            self.deck.coin(coin_id)

    def receive_private(self, sender: int, data: Any) -> None:
        """A give-away's signed forward, sent privately by seat `sender` (as the channel
        authenticated it). It may arrive before its Transfer is served, or again after a
        reconnect (a copy of one already used is ignored). Raises `DeckFault(sender, …)`, and
        keeps nothing, for a forward that is unreadable, not signed by `sender`, addressed to
        another seat, or for a gift `sender` is not giving (protocol.md 10.8)."""
        try:
            forward = SignedForward.from_data(data, self.seats)
        except ForwardError as error:
            raise DeckFault(sender, f"unreadable forward: {error}") from None
        if forward.giver != sender:
            raise DeckFault(sender, f"sent a forward in seat {forward.giver}'s name")
        if forward.to != self.me:
            raise DeckFault(sender, f"sent a forward for seat {forward.to}")
        if not forward.verify(self.table_id, self._key_of(sender), self.game_name):
            raise DeckFault(sender, "sent a forward it did not sign")
        if forward.transfer in self._receipted or forward.transfer in self._transfers_done:
            return
        request = self._pending_transfer()
        if (
            request is not None
            and request.id == forward.transfer
            and (request.from_seat != sender or request.to_seat != self.me)
        ):
            raise DeckFault(sender, "forwarded a card it is not giving")
        self._forwards[sender] = forward  # one per sender: a later one replaces it
        self._try_forward()

    def restore_forward(self, data: Any) -> None:
        """A forward this seat checked, used and kept on disk before a restart."""
        try:
            forward = SignedForward.from_data(data, self.seats)
        except ForwardError:
            return  # not one of ours (an older secrets file): the giver sends it again
        self._restored[forward.transfer] = forward

    def _key_of(self, seat: int) -> bytes:
        if not self.keys:
            raise DeckUsageError("this table was given no identity keys to check forwards with")
        return self.keys[seat]

    def _pending_transfer(self) -> Transfer | None:
        service = self._service
        if service is None or service.kind != "receipt":
            return None
        request = service.requests[0]
        assert isinstance(request, Transfer)
        return request

    def log_fault(self, fault: Fault) -> None:
        """A fault the table log found (two envelopes signed for one place, a bad chain): the
        table stops, blaming that seat with the log's evidence."""
        ids = ", ".join(f"{e} [{e.id.hex()[:16]}]" for e in fault.evidence)
        self._stop(fault.seat, fault.kind, f"{fault.detail}: {ids}")

    # -- the log ---------------------------------------------------------------------------

    def apply(self, envelope: Envelope) -> None:
        """Apply the next envelope of the log (the one `expected()` named the seat of)."""
        expect = self.expected()
        head = self.head
        self.head = next_head(self.head, envelope)
        self.applied += 1
        self._on_applied(envelope, head)
        if expect is None:
            self._stop(envelope.seat, "out of turn", f"{envelope} arrived where none was due")
            return
        if envelope.seat != expect.seat:
            self._stop(envelope.seat, "out of turn", f"{envelope} arrived where none was due")
            return
        if envelope.kind != expect.kind:
            self._stop(envelope.seat, f"sent {envelope.kind}", f"{expect} was due ({envelope})")
            return
        try:
            if envelope.kind == ROSTER_KIND:
                self._on_roster(envelope)
            elif envelope.kind == self.join_kind:
                self._on_join(envelope)
            elif envelope.kind == DECK:
                self._on_deck(envelope, expect)
            else:
                self._on_game_envelope(envelope, head)
        except DeckFault as fault:
            seat = fault.seat if fault.seat is not None else envelope.seat
            self._stop(seat, fault.what, f"{envelope}: {fault.evidence or fault.what}")
            return
        self._serve()

    def _on_applied(self, envelope: Envelope, head: bytes) -> None:
        """Every envelope, before it is checked: a game that tracks the log itself (The Lie's
        "had seen") does it here."""

    def _on_roster(self, envelope: Envelope) -> None:
        """Seat 0 records the roster every seat signed in the lobby, exactly (protocol.md 5.5)."""
        signed = self.signed_roster
        assert signed is not None
        try:
            signed.check_body(envelope.body, f"seat {envelope.seat}")
        except RosterError as error:
            evidence = roster_difference(signed, envelope.body)
            raise DeckFault(envelope.seat, error.detail, evidence) from None
        self._setup_done += 1

    def _on_join(self, envelope: Envelope) -> None:
        if envelope.body != self.terms:
            raise DeckFault(envelope.seat, "joined with other game terms", {"join": envelope.body})
        self._setup_done += 1
        self.events.append(
            SetupProgress("keys", envelope.seat, self._setup_done, len(self._setup), 0)
        )

    def _on_deck(self, envelope: Envelope, expect: Expect) -> None:
        body = envelope.body
        kind = body.get("kind") if isinstance(body, Mapping) else None
        if kind != expect.deck_kind:
            raise DeckFault(envelope.seat, f"sent {kind!r} where {expect} was due")
        service = self._service
        if kind == SHUFFLE and service is not None and service.kind == "shuffle":
            wanted = service.list_ids[service.published % len(service.list_ids)]
            if body.get("list") != wanted:
                raise DeckFault(envelope.seat, f"shuffled {body.get('list')!r}, not {wanted!r}")
        message = None
        if kind == SHARES:  # parsed once, here: the deck session reuses it
            message = self.deck.parse(envelope.seat, body)
            assert isinstance(message, SharesMessage)
            self._check_shares(envelope.seat, message, expect)
        output = self.deck.handle(envelope.seat, body, message)
        if isinstance(message, SharesMessage):
            for item in message.shares:
                self._public.setdefault(item.slot, set()).add(item.share.seat)
            self._proofs += len(message.shares)
        if self._setup_done < len(self._setup):
            self._setup_done += 1
            self._proofs += 1
        elif service is not None and service.kind == "coin":
            service.published += 1
        self._take_output(output)
        if service is not None and service.kind == "shares" and kind == SHARES:
            service.published += 1

    def _check_shares(self, seat: int, message: SharesMessage, expect: Expect) -> None:
        """The shares a seat publishes must be exactly the ones it owes now (no more, no less)."""
        service = self._service
        assert service is not None
        request = service.requests[0]
        owed: set[tuple[Slot, int]] = set()
        for slot in service.slots:
            owner = self.deck.owner(slot)
            public = self._public.get(slot, set())
            if isinstance(request, Deal):
                if owner != seat:
                    owed.add((slot, seat))
            elif owner == seat:  # the owner opens it: every share not public yet
                owed |= {(slot, t) for t in range(self.seats) if t not in public}
            elif owner is None and seat not in public:  # never dealt: every seat opens it
                owed.add((slot, seat))
        self._require_shares(seat, message, owed, isinstance(request, Reveal))

    @staticmethod
    def _require_shares(
        seat: int, message: SharesMessage, owed: set[tuple[Slot, int]], revealing: bool
    ) -> None:
        given = [(item.slot, item.share.seat) for item in message.shares]
        if len(set(given)) != len(given) or set(given) != owed:
            missing = sorted(str(s) + f"/{t}" for s, t in owed - set(given))
            extra = sorted(str(s) + f"/{t}" for s, t in set(given) - owed)
            what = "revealed" if revealing else "dealt"
            raise DeckFault(
                seat,
                f"published the wrong shares for the cards being {what}",
                {"missing": missing, "unexpected": extra},
            )

    def _on_received(self, envelope: Envelope) -> None:
        """The receiver of a give-away confirms it (or reports a bad one, with the giver's
        signed forward as evidence): `received_kind`."""
        service = self._service
        if service is None or service.kind != "receipt":
            raise DeckFault(envelope.seat, "a receipt where no card was given")
        request = service.requests[0]
        assert isinstance(request, Transfer)
        body = envelope.body
        if not isinstance(body, Mapping) or body.get("slot") != request.slot:
            raise DeckFault(envelope.seat, "receipt for another card", {"receipt": body})
        if set(body) - {"slot", "fault", "forward"}:
            raise DeckFault(envelope.seat, "receipt with unknown fields", {"receipt": body})
        if "fault" in body:
            raise self._judge_accusation(request, body)
        if "forward" in body:
            raise DeckFault(envelope.seat, "receipt with a forward but no fault")
        service.done = True
        self._transfers_done.add(request.id)

    def _judge_accusation(self, request: Transfer, receipt: Mapping[str, Any]) -> DeckFault:
        """The receiver says its give-away was bad: every peer checks the signed forward it
        shows and blames the giver if the forward is bad, the accuser if it is good, missing or
        not the giver's (protocol.md 10.8)."""
        giver, accuser = request.from_seat, request.to_seat
        evidence = {"transfer": request.id, "slot": request.slot, "claim": receipt.get("fault")}
        if "forward" not in receipt:
            what = f"accused seat {giver} of a bad give-away without its signed forward"
            return DeckFault(accuser, what, evidence)
        try:
            forward = SignedForward.from_data(receipt["forward"], self.seats)
        except ForwardError as error:
            what = f"accused seat {giver} with an unreadable forward ({error})"
            return DeckFault(accuser, what, evidence)
        if (
            forward.giver != giver
            or forward.to != accuser
            or forward.transfer != request.id
            or not forward.verify(self.table_id, self._key_of(giver), self.game_name)
        ):
            what = f"accused seat {giver} with a forward it did not sign for this gift"
            return DeckFault(accuser, what, evidence)
        if forward.slot != request.slot:
            return DeckFault(giver, f"signed a forward of slot {forward.slot}", evidence)
        try:
            self.deck.check_forward(giver, self._slot[request.slot], forward.body)
        except DeckFault as fault:
            return DeckFault(giver, f"gave a bad card: {fault.what}", evidence)
        what = f"falsely accused seat {giver} of a bad give-away (its signed forward verifies)"
        return DeckFault(accuser, what, evidence)

    received_kind: ClassVar[str] = ""  # a game with Transfer requests names its receipt kind

    # -- serving engine requests ----------------------------------------------------------------

    def _serve(self) -> None:
        """Start the game once set up, then serve requests until an envelope is needed."""
        if self.fault is not None or self._setup_done < len(self._setup):
            return
        if self.state is None:
            self._take_step(self._new_game())
        while self.fault is None:
            state = self.state
            assert state is not None
            if not state.pending:
                return
            if self._service is None:
                self._begin(state)
            service = self._service
            assert service is not None
            if not self._complete(service):
                return
            self._service = None
            self._finish(service)

    def _finish(self, service: _Service) -> None:
        """Answer the engine for a served request (or batch)."""
        for request in service.requests:
            if isinstance(request, Reveal):
                faces = tuple(service.faces[self._slot[s]] for s in request.slots)
                self._resolve(Faces(request.id, faces))
            elif isinstance(request, Arrange):
                seed = self.deck.coin_seed(service.coin_id)
                assert seed is not None
                self._on_arranged(request, seed)
                self._resolve(Arrangement(request.id, arrangement(seed, request.slots)))
            else:
                self._resolve(Ack(request.id))

    def _on_arranged(self, request: Arrange, seed: bytes) -> None:
        """A joint coin arranged `request.slots` (a game may keep the seed, e.g. for races)."""

    def _begin(self, state: Any) -> None:
        request = state.pending[0]
        if isinstance(request, NewDeck | Reshuffle):
            self._begin_shuffle(request)
        elif isinstance(request, NewGroupedDeck | GroupedReshuffle):
            self._begin_grouped_shuffle(request)
        elif isinstance(request, Deal):
            self._begin_deal(state)
        elif isinstance(request, Transfer):
            self._service = _Service([request], "receipt")
            self._take_output(self.deck.give(self._slot[request.slot], request.to_seat), request)
            self._try_forward()
        elif isinstance(request, Arrange):
            coin_id = f"{ARRANGE_LABEL}{request.id}"
            self._service = _Service([request], "coin", coin_id=coin_id)
            self.events.append(SetupProgress("arrange", 0, 0, self.seats, self._proofs))
            self._take_output(self.deck.coin(coin_id))  # an observer only follows it
        else:
            self._begin_reveal(request)

    def _begin_shuffle(self, request: NewDeck | Reshuffle) -> None:
        list_id = f"r{request.id}"
        if isinstance(request, NewDeck):
            output = self.deck.new_deck(list_id, self._deck_id(), range(len(request.slots)))
            new = request.slots
        else:
            output = self.deck.reshuffle(list_id, [self._slot[s] for s in request.old])
            new = request.new
        for index, slot in enumerate(new):
            self._map(slot, Slot(list_id, index))
        self._service = _Service([request], "shuffle", list_ids=(list_id,))
        self.events.append(SetupProgress("shuffle", 0, 0, self.seats, self._proofs))
        self._take_output(output)

    def _begin_grouped_shuffle(self, request: NewGroupedDeck | GroupedReshuffle) -> None:
        """One masked list per back, `r{id}.b{back}` in increasing back: a new deck holds the
        card ids of that back (in increasing id), a reshuffle the old slots of that back (in the
        request's order); slot k of the back's new slots is index k of its list (T1, T9)."""
        if isinstance(request, NewGroupedDeck):
            backs = dict(zip(request.slots, request.backs, strict=True))
            new_slots = request.slots
        else:
            backs = {
                new: self._back[old] for old, new in zip(request.old, request.new, strict=True)
            }
            new_slots = request.new
        by_back: dict[int, list[int]] = {}
        for slot in new_slots:
            by_back.setdefault(backs[slot], []).append(slot)
        card_backs = self.game.backs(self.options)
        output = Output()
        list_ids = []
        deck_id = self._deck_id()
        for back in sorted(by_back):
            list_id = f"r{request.id}.b{back}"
            list_ids.append(list_id)
            if isinstance(request, NewGroupedDeck):
                cards = [c for c, b in enumerate(card_backs) if b == back]
                if len(cards) != len(by_back[back]):
                    raise ValueError(f"back {back}: {len(by_back[back])} slots, {len(cards)} cards")
                output.extend(self.deck.new_deck(list_id, deck_id, cards))
            else:
                sources = [self._slot[o] for o in request.old if self._back[o] == back]
                output.extend(self.deck.reshuffle(list_id, sources))
            for index, slot in enumerate(by_back[back]):
                self._map(slot, Slot(list_id, index))
                self._back[slot] = back
        self._service = _Service([request], "shuffle", list_ids=tuple(list_ids))
        self.events.append(SetupProgress("shuffle", 0, 0, self.seats, self._proofs))
        self._take_output(output)

    def _begin_deal(self, state: Any) -> None:
        batch: list[Request] = []
        owners: dict[Slot, int] = {}
        for pending in state.pending:
            if not isinstance(pending, Deal):
                break
            batch.append(pending)
            owners.update({self._slot[s]: pending.seat for s in pending.slots})
        publishers = [s for s in range(self.seats) if any(o != s for o in owners.values())]
        self._service = _Service(batch, "shares", publishers, slots=tuple(owners))
        self.events.append(SetupProgress("deal", None, 0, len(publishers), self._proofs))
        if owners:
            self._take_output(self.deck.deal(owners))

    def _begin_reveal(self, request: Reveal) -> None:
        slots = tuple(self._slot[s] for s in request.slots)
        owners_of = {self.deck.owner(s) for s in slots}
        if None in owners_of:
            publishers = list(range(self.seats))
        else:
            publishers = sorted(o for o in owners_of if o is not None)
        self._service = _Service([request], "shares", publishers, slots=slots)
        self.events.append(SetupProgress("reveal", None, 0, len(publishers), self._proofs))
        self._take_output(self.deck.reveal(slots))

    def _complete(self, service: _Service) -> bool:
        if service.kind == "shuffle":
            return all(self.deck.list_ready(list_id) for list_id in service.list_ids)
        if service.kind in ("receipt", "dealing"):
            return service.done
        if service.kind == "coin":
            return self.deck.coin_seed(service.coin_id) is not None
        request = service.requests[0]
        if service.published < len(service.publishers) and service.slots:
            return False
        if isinstance(request, Reveal):
            return all(s in service.faces for s in service.slots)
        return True

    def _try_forward(self) -> None:
        """The receiver of a give-away opens the giver's forward once the Transfer is served,
        and publishes its receipt (with the signed forward as evidence if the forward fails)."""
        request = self._pending_transfer() if self.fault is None else None
        # One receipt per Transfer, not per card: a card can come to the same seat twice
        # (0→1, 1→0, 0→1), and the second time needs its own receipt (issue 13 item 4).
        if request is None or request.to_seat != self.me or request.id in self._receipted:
            return
        masked = self._slot[request.slot]
        if not self.deck.awaiting_forward(masked):
            # the card came back to a seat that holds every share it needs: nothing is forwarded
            self._receipted.add(request.id)
            self.outbox.append(Publish(self.received_kind, self._receipt(request, None, None)))
            return
        forward = restored = self._restored.pop(request.id, None)
        live = self._forwards.get(request.from_seat)
        if forward is None and live is not None and live.transfer == request.id:
            forward = self._forwards.pop(request.from_seat)
        if forward is None:
            return
        self._receipted.add(request.id)
        fault: str | None = None
        try:
            if forward.slot != request.slot:
                raise DeckFault(request.from_seat, f"forward of slot {forward.slot}")
            output = self.deck.handle(request.from_seat, forward.body)
        except DeckFault as error:
            fault = error.what
        else:
            if restored is None:  # a restored one is on disk already
                self.kept_forwards.append(forward)
            self._take_output(output)
        self.outbox.append(Publish(self.received_kind, self._receipt(request, forward, fault)))

    def _receipt(
        self, request: Transfer, forward: SignedForward | None, fault: str | None
    ) -> dict[str, Any]:
        """The receipt of a give-away: `{"slot"}`, or with the fault and the signed forward."""
        if fault is None or forward is None:
            return {"slot": request.slot}
        return {"slot": request.slot, "fault": fault, "forward": forward.to_data()}

    # -- engine ------------------------------------------------------------------------------

    def _resolve(self, resolution: Ack | Faces | Arrangement) -> None:
        assert self.state is not None
        try:
            step = self.game.apply(self.state, DRIVER, resolution)
        except IllegalAction as exc:  # a card opened twice across requests: a deck fault
            self._stop(DRIVER, "the deck and the engine disagree", exc.reason)
            return
        self._take_step(step)

    def _take_step(self, step: Step) -> None:
        self.state = step.state
        self.events.append(StateChanged(step.state, step.events))
        for event in step.events:
            if isinstance(event, Violation):
                faces = ", ".join(str(f) for f in event.faces)
                self._stop(event.seat, event.reason, f"slots {list(event.slots)} opened as {faces}")
            else:
                self._on_step_event(event)

    # -- fair deck --------------------------------------------------------------------------------

    def _map(self, slot: int, masked: Slot) -> None:
        self._slot[slot] = masked
        self._engine_slot[masked] = slot

    def _take_output(self, output: Output, transfer: Transfer | None = None) -> None:
        for message in output.messages:
            if "to" in message:
                assert transfer is not None, "only a give-away sends a private message"
                self.outbox.append(Private(message["to"], message, transfer.id, transfer.slot))
            else:
                self.outbox.append(Publish(DECK, message))
        for event in output.events:
            self._on_deck_event(event)

    def _on_deck_event(self, event: DeckEvent) -> None:
        service = self._service
        if isinstance(event, ShuffleVerified):
            self._proofs += 1
            if service is not None and service.kind == "shuffle":
                service.published += 1
            lists = len(service.list_ids) if service is not None and service.list_ids else 1
            done = service.published // lists if service is not None else event.seat + 1
            self.events.append(SetupProgress("shuffle", event.seat, done, self.seats, self._proofs))
        elif isinstance(event, CardRevealed):
            if service is not None:
                service.faces[event.slot] = event.card
        elif isinstance(event, CardDealt):
            self._on_card_dealt(event)
        elif isinstance(event, KeysReady | ListReady | CoinFlipped | CardReceived):
            # a received card shows in the next state: the app logs who gave it and its face
            pass

    def _on_card_dealt(self, event: CardDealt) -> None:
        """A dealt card's shares are all in (a game dealing concurrently tracks it here)."""

    def _stop(self, seat: int, what: str, evidence: str) -> None:
        if self.fault is None:
            self.fault = FaultDetected(seat, what, evidence)
            self.events.append(self.fault)


# Larry's names, where the table layer had them before it served more than one game
# (fairdeal.p2p.games.larry.table holds them now).
_LARRY_NAMES = frozenset(
    {
        "ACT",
        "FIRST_PLAYER_COIN",
        "GAME",
        "JOIN",
        "RECEIVED",
        "LarryTable",
        "lobby_options",
        "options_for_join",
    }
)


def __getattr__(name: str) -> Any:
    if name in _LARRY_NAMES:
        from fairdeal.p2p.table import larry

        return getattr(larry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
