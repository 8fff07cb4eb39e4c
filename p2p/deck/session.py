"""A sans-IO fair-deck session for one seat: commands and messages in, messages and events out.

The driver calls the same *commands* on every seat at the same point of the public state (they
come from the engine's Deal/Reveal/Transfer/Reshuffle requests), and feeds every fair-deck message
of the table log to `handle` in log order, the seat's own messages included (the log is the
truth; a seat's own messages are not re-verified). `deck.forward` messages are private: the
driver sends them to `to` only, over the encrypted channel. Every call returns an `Output`: the
messages this seat must now publish and the events for the driver.

A message that breaks the protocol raises `DeckFault` (`ParseError`, `ProofError`) naming the
culprit seat, and changes no state: every check runs before any mutation.

Driver contract, step by step (protocol.md §6 has the messages):

- `start()` once per seat → `deck.key`; after every key: `KeysReady`.
- `new_deck(list_id, deck_id, cards)` / `reshuffle(list_id, sources)` on every seat → seat 0
  sends `deck.shuffle`; each seat's session answers the previous seat's verified shuffle with
  its own (`ShuffleVerified` each time); after seat N−1's: `ListReady`. Deal or reveal slots of
  a list only after `ListReady`. With a `parallel` executor the next seat proves its shuffle of
  the received deck while a worker thread verifies that deck's proof (libsodium releases the
  GIL), and publishes it only once the proof holds: a seat's turn costs max(prove, verify)
  instead of their sum, the log and every message stay the same, and a failed proof raises the
  fault and discards the seat's own shuffle unseen.
- `deal({slot: owner})` → one `deck.shares` per seat (not from the owner); when a slot's shares
  are in: `CardDealt` on every seat, with the face in the owner's session only.
- `give(slot, to)` → the owner sends `deck.forward` (private, `to` set) with the shares `to`
  lacks; the receiver gets `CardReceived` when it arrives (`awaiting_forward(slot)` until then),
  or at once, with no message sent, when it lacks none (the card came back to a seat that held
  it).
- `reveal(slots)` → `deck.shares` from the owner (or every seat, for an undealt slot); then
  `CardRevealed` on every seat.
- `coin(coin_id)` → `deck.coin.commit`; after every commitment each session sends its
  `deck.coin.reveal`; then `CoinFlipped(seed)` (use `SeedStream(seed)` for draws).

An *observer* (`DeckSession.observer(table_id, seats)`, seat None: an auditor) takes the same
commands and the public messages, verifies every key, shuffle, share and coin, and opens the cards
revealed publicly. It holds no secret, so it never publishes anything and never learns a card
that was dealt but not revealed.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from .cards import MAX_CARD_ID, CardTable, card_point
from .coin_rounds import CoinRounds
from .errors import DeckFault, DeckUsageError, ProofError
from .events import (
    CardDealt,
    CardReceived,
    CardRevealed,
    DeckEvent,
    KeysReady,
    ListReady,
    ShuffleVerified,
)
from .group import IDENTITY, Point, RandomBytes, mul, sub
from .keys import PublicKeyShare, SecretKey, joint_key
from .masking import MaskedCard, initial_deck, open_mask
from .messages import (
    CoinCommitMessage,
    CoinRevealMessage,
    DeckMessage,
    ForwardMessage,
    KeyMessage,
    SharesMessage,
    ShuffleMessage,
    Slot,
    SlotShare,
    parse_message,
)
from .shares import DecryptionShare, make_share
from .shuffle import MAX_CARDS, ShuffleStatement, shuffle_and_prove, verify

MAX_SEATS = 16


@dataclass
class Output:
    """Messages to publish (plain dicts; `to` present = private) and events for the driver."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    events: list[DeckEvent] = field(default_factory=list)

    def extend(self, other: Output) -> None:
        self.messages += other.messages
        self.events += other.events

    def __repr__(self) -> str:
        # Message bodies stay out of logs: a forwarded share is as private as a card.
        kinds = [m.get("kind") for m in self.messages]
        return f"Output(messages={kinds}, events={self.events})"


@dataclass
class _List:
    deck_id: str
    table: CardTable
    deck: tuple[MaskedCard, ...]
    next_shuffler: int = 0
    retired: set[int] = field(default_factory=set)


@dataclass
class _SlotState:
    owner: int | None = None
    public: dict[int, DecryptionShare] = field(default_factory=dict)
    held: dict[int, DecryptionShare] = field(default_factory=dict, repr=False)
    deal_pending: bool = False
    reveal_pending: bool = False
    forward_from: int | None = None
    # Public: the seats whose shares each seat was forwarded (a give-away never sends them again).
    forwarded_to: dict[int, set[int]] = field(default_factory=dict)
    forward_wanted: frozenset[int] = frozenset()  # the shares this seat's pending forward carries
    # Public: the last give of the slot (giver, receiver, the shares its forward must carry), so
    # that any seat can judge a forward the receiver shows it (`check_forward`).
    last_give: tuple[int, int, frozenset[int]] | None = None
    known: int | None = field(default=None, repr=False)
    revealed: int | None = None


class DeckSession:
    """One seat's view of the fair deck of one table (see the module docstring)."""

    def __init__(
        self,
        table_id: bytes,
        seat: int | None,
        seats: int,
        *,
        random_bytes: RandomBytes = secrets.token_bytes,
        parallel: Executor | None = None,
    ):
        if not 2 <= seats <= MAX_SEATS or (seat is not None and not 0 <= seat < seats):
            raise DeckUsageError(f"seat {seat} of {seats} seats")
        if not isinstance(table_id, bytes) or not 0 < len(table_id) <= 64:
            raise DeckUsageError("table id must be 1 to 64 bytes")
        self.table_id = table_id
        self.seat = seat
        self.seats = seats
        self._random_bytes = random_bytes
        self._parallel = parallel  # where the previous seat's shuffle is verified meanwhile
        self._key = None if seat is None else SecretKey.generate(seat, random_bytes)
        self._keys: dict[int, PublicKeyShare] = {}
        self._joint: Point | None = None
        self._lists: dict[str, _List] = {}
        self._slots: dict[Slot, _SlotState] = {}
        self._seen: dict[str, dict[int, Slot]] = {}
        self._coins = CoinRounds(table_id, seat, seats, random_bytes)
        self._own_shuffles: dict[str, ShuffleMessage] = {}
        self._own_shares: dict[Slot, DecryptionShare] = {}
        # Public messages this seat sent and has not yet seen come back through the log: when
        # one does, the parsed object is reused (no re-parsing, no re-validation of own points).
        self._sent: list[tuple[dict[str, Any], DeckMessage]] = []

    @classmethod
    def observer(cls, table_id: bytes, seats: int) -> DeckSession:
        """A session that holds no seat: it verifies everything public and opens only the
        cards revealed to all (see the module docstring)."""
        return cls(table_id, None, seats)

    @property
    def observing(self) -> bool:
        return self.seat is None

    def __repr__(self) -> str:
        return f"DeckSession(seat={self.seat}, seats={self.seats})"

    def __deepcopy__(self, memo: dict[int, Any]) -> DeckSession:
        """A copy of the state (tests probe one); the executor is shared, not copied."""
        clone = object.__new__(DeckSession)
        memo[id(self)] = clone
        memo[id(self._parallel)] = self._parallel
        for name, value in self.__dict__.items():
            setattr(clone, name, copy.deepcopy(value, memo))
        return clone

    # -- queries ---------------------------------------------------------------------------

    @property
    def joint_key(self) -> Point | None:
        return self._joint

    def list_ready(self, list_id: str) -> bool:
        masked = self._lists.get(list_id)
        return masked is not None and masked.next_shuffler == self.seats

    def list_size(self, list_id: str) -> int:
        return len(self._require_list(list_id).deck)

    def masked_card(self, slot: Slot) -> MaskedCard:
        return self._require_list(slot.list_id).deck[slot.index]

    def owner(self, slot: Slot) -> int | None:
        state = self._slots.get(slot)
        return state.owner if state else None

    def known_card(self, slot: Slot) -> int | None:
        """The face of `slot` if this seat knows it (dealt or given to it, or revealed)."""
        state = self._slots.get(slot)
        if state is None:
            return None
        return state.revealed if state.revealed is not None else state.known

    def revealed_card(self, slot: Slot) -> int | None:
        state = self._slots.get(slot)
        return state.revealed if state else None

    def coin_seed(self, coin_id: str) -> bytes | None:
        return self._coins.seed(coin_id)

    # -- commands (identical on every seat) -------------------------------------------------

    def start(self) -> Output:
        """Publish this seat's key Y_i with its Schnorr proof."""
        if self._key is None:
            raise DeckUsageError("an observer holds no key")
        if self.seat in self._keys:
            raise DeckUsageError("keys already published")
        share = self._key.publish(self.table_id, self._random_bytes)
        return Output([self._emit(KeyMessage(share))])

    def new_deck(self, list_id: str, deck_id: str, cards: Sequence[int]) -> Output:
        """Create masked list `list_id` from the public deck (r = 1) and start its shuffle chain."""
        joint = self._require_joint()
        self._require_new_list(list_id, len(cards))
        if len(set(cards)) != len(cards):
            raise DeckUsageError("card ids must be distinct")
        if not all(isinstance(c, int) and 0 <= c <= MAX_CARD_ID for c in cards):
            raise DeckUsageError(f"card ids must be integers in [0, {MAX_CARD_ID}]")
        table = CardTable.of(deck_id, cards)
        points = [card_point(deck_id, c) for c in cards]
        self._lists[list_id] = _List(deck_id, table, tuple(initial_deck(points, joint)))
        self._seen.setdefault(deck_id, {})
        return self._maybe_shuffle(list_id)

    def reshuffle(self, list_id: str, sources: Sequence[Slot]) -> Output:
        """Gather the masked cards at `sources` (live slots of one deck id) into a new list
        `list_id`, retire the sources, and run the shuffle chain over it."""
        self._require_joint()
        self._require_new_list(list_id, len(sources))
        if len(set(sources)) != len(sources):
            raise DeckUsageError("reshuffle sources must be distinct")
        lists = [self._require_live(slot) for slot in sources]
        deck_ids = {masked.deck_id for masked in lists}
        if len(deck_ids) != 1:
            raise DeckUsageError("reshuffle sources must share one deck id")
        for slot in sources:
            state = self._slots.get(slot)
            if state and (state.deal_pending or state.reveal_pending):
                raise DeckUsageError(f"slot {slot} has a deal or reveal in progress")
        deck_id = deck_ids.pop()
        cards = {c: p for masked in lists for p, c in masked.table.by_point.items()}
        table = CardTable(deck_id, {p: c for c, p in cards.items()})
        deck = tuple(lists[k].deck[slot.index] for k, slot in enumerate(sources))
        for masked, slot in zip(lists, sources, strict=True):
            masked.retired.add(slot.index)
            self._slots.pop(slot, None)
            self._own_shares.pop(slot, None)
        seen, retired = self._seen[deck_id], set(sources)
        for card, slot in list(seen.items()):
            if slot in retired:
                del seen[card]
        self._lists[list_id] = _List(deck_id, table, deck)
        return self._maybe_shuffle(list_id)

    def deal(self, owners: Mapping[Slot, int]) -> Output:
        """Deal each slot to its owner: every other seat publishes its share of it."""
        for slot, owner in owners.items():
            self._require_live(slot)
            if not 0 <= owner < self.seats:
                raise DeckUsageError(f"no seat {owner}")
            state = self._slots.get(slot)
            if state and (state.owner is not None or state.revealed is not None):
                raise DeckUsageError(f"slot {slot} was already dealt or revealed")
        mine: list[SlotShare] = []
        for slot, owner in owners.items():
            state = self._slots.setdefault(slot, _SlotState())
            state.owner = owner
            state.deal_pending = True
            if self.seat is not None and owner != self.seat:
                mine.append(SlotShare(slot, self._own_share(slot)))
        return self._publish(mine)

    def reveal(self, slots: Sequence[Slot]) -> Output:
        """Open `slots` publicly: the owner (or, for a slot never dealt, every seat) publishes
        the shares it holds that are not public yet."""
        if len(set(slots)) != len(slots):
            raise DeckUsageError("reveal slots must be distinct")
        for slot in slots:
            self._require_live(slot)
            state = self._slots.get(slot)
            if state and (state.deal_pending or state.reveal_pending or state.revealed is not None):
                raise DeckUsageError(f"slot {slot} is being dealt, revealed, or already revealed")
        mine: list[SlotShare] = []
        for slot in slots:
            state = self._slots.setdefault(slot, _SlotState())
            state.reveal_pending = True
            if self.seat is not None and state.owner in (None, self.seat):
                mine += self._unpublished_held(slot, state)
        return self._publish(mine)

    def give(self, slot: Slot, to: int) -> Output:
        """The owner of `slot` gives it to seat `to`: it forwards, privately, every share of the
        slot that is not public; `to` becomes the owner."""
        self._require_live(slot)
        state = self._slots.get(slot)
        if state is None or state.owner is None or state.deal_pending:
            raise DeckUsageError(f"slot {slot} has not been dealt")
        if state.reveal_pending or state.revealed is not None:
            raise DeckUsageError(f"slot {slot} is revealed")
        if not 0 <= to < self.seats or to == state.owner:
            raise DeckUsageError(f"cannot give slot {slot} to seat {to}")
        giver = state.owner
        # Shares `to` lacks: neither public, nor its own, nor forwarded to it before (a card that
        # comes back to a seat that held it needs none; then no message is sent at all). Every
        # seat computes the same set from public state.
        lacking = self._lacking(state, to)
        state.forwarded_to.setdefault(to, set()).update(lacking)
        state.last_give = (giver, to, frozenset(lacking))
        out = Output()
        if giver == self.seat and lacking:
            held = self._unpublished_held(slot, state)
            shares = tuple(s for s in held if s.share.seat in lacking)
            out.messages.append(ForwardMessage(self.seat, to, shares).to_data())
        if to == self.seat and not lacking:
            every = [*state.public.values(), *state.held.values()]
            state.known = self._private_open(giver, slot, every)
            out.events.append(CardReceived(slot, giver, state.known))
        state.owner = to
        waiting = to == self.seat and bool(lacking)
        state.forward_from = giver if waiting else None
        state.forward_wanted = frozenset(lacking) if waiting else frozenset()
        return out

    def awaiting_forward(self, slot: Slot) -> bool:
        """Whether this seat was given `slot` and still waits for the giver's `deck.forward`."""
        state = self._slots.get(slot)
        return state is not None and state.forward_from is not None

    def coin(self, coin_id: str) -> Output:
        """Start joint coin `coin_id`: publish this seat's commitment (an observer publishes
        nothing and only checks the reveals against the commitments)."""
        if self.seat is None:
            self._coins.follow(coin_id)
            return Output()
        return Output([self._emit(self._coins.start(coin_id))])

    # -- messages ---------------------------------------------------------------------------

    def parse(self, sender: int, data: Mapping[str, Any]) -> DeckMessage:
        """Strictly parse one message authored by `sender`, validating each point once; pass
        the result to `handle` so that nothing is parsed twice (an own message comes back as
        it was sent, unparsed)."""
        if not 0 <= sender < self.seats:
            raise DeckFault(None, f"message from unknown seat {sender}")
        return self._parse(sender, data)

    def handle(
        self, sender: int, data: Mapping[str, Any], parsed: DeckMessage | None = None
    ) -> Output:
        """Apply one message authored by `sender` (as authenticated by the transport);
        `parsed` is `parse(sender, data)` when the caller already needed it."""
        if not 0 <= sender < self.seats:
            raise DeckFault(None, f"message from unknown seat {sender}")
        message = parsed if parsed is not None else self._parse(sender, data)
        if isinstance(message, KeyMessage):
            return self._on_key(message)
        if isinstance(message, ShuffleMessage):
            return self._on_shuffle(message)
        if isinstance(message, SharesMessage):
            return self._on_shares(message)
        if isinstance(message, ForwardMessage):
            return self._on_forward(message)
        if isinstance(message, CoinCommitMessage):
            return self._on_coin_commit(message)
        return self._on_coin_reveal(message)

    def _on_key(self, message: KeyMessage) -> Output:
        key = message.key
        if key.seat in self._keys:
            raise DeckFault(key.seat, "published a second key")
        key.verify(self.table_id)
        keys = {**self._keys, key.seat: key}
        joint = None
        if len(keys) == self.seats:
            joint = joint_key([keys[s].public for s in range(self.seats)])
            if joint == IDENTITY:
                raise DeckFault(key.seat, "the joint key is the identity")
        self._keys = keys
        if joint is None:
            return Output()
        self._joint = joint
        return Output(events=[KeysReady(joint)])

    def _on_shuffle(self, message: ShuffleMessage) -> Output:
        seat = message.seat
        masked = self._lists.get(message.list_id)
        if masked is None or self._joint is None:
            raise DeckFault(seat, f"shuffle of unknown list {message.list_id!r}")
        if masked.next_shuffler != seat:
            raise DeckFault(seat, f"shuffled {message.list_id!r} out of turn")
        if len(message.deck) != len(masked.deck):
            raise ProofError(
                seat,
                f"shuffle of {message.list_id!r} has {len(message.deck)} cards, "
                f"expected {len(masked.deck)}",
            )
        mine: ShuffleMessage | None = None
        if self._own_shuffles.get(message.list_id) != message:
            statement = ShuffleStatement(
                self.table_id, message.list_id, seat, self._joint, masked.deck, message.deck
            )
            if self._parallel is not None and seat + 1 == self.seat:
                mine = self._prove_while_verifying(statement, message)
            else:
                verify(statement, message.proof)
        self._own_shuffles.pop(message.list_id, None)
        masked.deck = message.deck
        masked.next_shuffler += 1
        out = Output(events=[ShuffleVerified(message.list_id, seat)])
        if masked.next_shuffler == self.seats:
            out.events.append(ListReady(message.list_id, len(masked.deck)))
        elif mine is not None:
            out.extend(self._publish_shuffle(mine))
        else:
            out.extend(self._maybe_shuffle(message.list_id))
        return out

    def _prove_while_verifying(
        self, statement: ShuffleStatement, message: ShuffleMessage
    ) -> ShuffleMessage:
        """This seat's shuffle of `message.deck`, proved here while the executor verifies
        `message`; raises the verifier's `ProofError` (the shuffle is then dropped unseen)."""
        assert self._parallel is not None
        check = self._parallel.submit(verify, statement, message.proof)
        try:
            mine = self._prove_shuffle(message.list_id, message.deck)
        finally:
            check.exception()  # always wait: no verification outlives this call
        check.result()
        return mine

    def _on_shares(self, message: SharesMessage) -> Output:
        sender = message.seat
        added: dict[Slot, dict[int, DecryptionShare]] = {}
        for item in message.shares:
            slot, share = item.slot, item.share
            state = self._slot_for_share(sender, slot)
            new = added.setdefault(slot, {})
            if share.seat in state.public or share.seat in new:
                raise DeckFault(sender, f"share of seat {share.seat} for {slot} already public")
            if state.reveal_pending:
                if share.seat != sender and state.owner != sender:
                    raise DeckFault(sender, f"published seat {share.seat}'s share for {slot}")
            elif share.seat != sender or sender == state.owner:
                raise DeckFault(sender, f"unexpected share of seat {share.seat} for {slot}")
            self._verify_share(sender, slot, share)
            new[share.seat] = share
        out = Output()
        outcomes = [self._outcome(sender, slot, new) for slot, new in added.items()]
        opened: dict[tuple[str, int], Slot] = {}
        for slot, (_, card) in zip(added, outcomes, strict=True):
            if card is None:
                continue
            key = (self._lists[slot.list_id].deck_id, card)
            if key in opened:
                raise DeckFault(sender, f"card {card} opened twice ({opened[key]} and {slot})")
            opened[key] = slot
        for slot, new in added.items():
            self._slots[slot].public.update(new)
            for seat in new:
                self._slots[slot].held.pop(seat, None)
        for apply, _ in outcomes:
            out.events += apply()
        return out

    def check_forward(self, sender: int, slot: Slot, data: Mapping[str, Any]) -> None:
        """Judge, on any seat (an observer too), a forward that `sender` sent for the last give
        of `slot` and that its receiver made public: it must be the giver's, to the receiver,
        with exactly the shares the receiver lacked, each with a valid proof. Raises `DeckFault`
        naming `sender`; changes nothing."""
        state = self._slots.get(slot)
        if state is None or state.last_give is None:
            raise DeckUsageError(f"slot {slot} was never given")
        giver, to, lacking = state.last_give
        message = parse_message(data, sender, self.seats)
        if not isinstance(message, ForwardMessage):
            raise DeckFault(sender, f"sent {type(message).__name__} as a forward")
        if sender != giver or message.to != to:
            raise DeckFault(sender, f"forwarded {slot}, which it did not give to seat {to}")
        self._forwarded_shares(message, lambda s: lacking if s == slot else None)

    def _forwarded_shares(
        self, message: ForwardMessage, wanted: Callable[[Slot], frozenset[int] | None]
    ) -> dict[Slot, dict[int, DecryptionShare]]:
        """The shares of a forward by slot, each checked: for a slot given by its author
        (`wanted(slot)` is the set of shares the forward must carry, None: not given by it),
        every wanted share once, none else, each proof valid."""
        sender = message.seat
        received: dict[Slot, dict[int, DecryptionShare]] = {}
        for item in message.shares:
            slot = item.slot
            want = wanted(slot)
            if want is None:
                raise DeckFault(sender, f"unexpected forwarded share for {slot}")
            share = item.share
            new = received.setdefault(slot, {})
            if share.seat in new or share.seat not in want:
                raise DeckFault(sender, f"forwarded a needless share of seat {share.seat}")
            self._verify_share(sender, slot, share, private=True)
            new[share.seat] = share
        for slot, new in received.items():
            missing = (wanted(slot) or frozenset()) - set(new)
            if missing:
                raise DeckFault(sender, f"forward for {slot} lacks shares of {sorted(missing)}")
        return received

    def _on_forward(self, message: ForwardMessage) -> Output:
        sender = message.seat
        if message.to != self.seat:
            raise DeckFault(sender, "forwarded shares addressed to another seat")

        def wanted(slot: Slot) -> frozenset[int] | None:
            state = self._slots.get(slot)
            if state is None or state.forward_from != sender:
                return None
            return state.forward_wanted

        received = self._forwarded_shares(message, wanted)
        cards: dict[Slot, int] = {}
        for slot, new in received.items():
            state = self._slots[slot]
            shares = [*state.public.values(), *new.values()]
            cards[slot] = self._private_open(sender, slot, shares)
        out = Output()
        late: list[SlotShare] = []
        for slot, new in received.items():
            state = self._slots[slot]
            state.held.update(new)
            state.known = cards[slot]
            state.forward_from = None
            state.forward_wanted = frozenset()
            out.events.append(CardReceived(slot, sender, cards[slot]))
            if state.reveal_pending:
                # The reveal was asked before the gift arrived: publish what it lacked now.
                late += [s for s in self._unpublished_held(slot, state) if s.share.seat in new]
        out.extend(self._publish(late))
        return out

    def _on_coin_commit(self, message: CoinCommitMessage) -> Output:
        reveal = self._coins.on_commit(message)
        return Output([self._emit(reveal)] if reveal else [])

    def _on_coin_reveal(self, message: CoinRevealMessage) -> Output:
        flipped = self._coins.on_reveal(message)
        return Output(events=[flipped] if flipped else [])

    # -- helpers ----------------------------------------------------------------------------

    def _require_joint(self) -> Point:
        if self._joint is None:
            raise DeckUsageError("the joint key is not ready")
        return self._joint

    def _require_new_list(self, list_id: str, size: int) -> None:
        if not isinstance(list_id, str) or not 0 < len(list_id) <= 64:
            raise DeckUsageError("list id must be a string of 1 to 64 characters")
        if list_id in self._lists:
            raise DeckUsageError(f"list {list_id!r} exists")
        if not 0 < size <= MAX_CARDS:
            raise DeckUsageError(f"a list holds 1 to {MAX_CARDS} cards")

    def _require_list(self, list_id: str) -> _List:
        masked = self._lists.get(list_id)
        if masked is None:
            raise DeckUsageError(f"no list {list_id!r}")
        return masked

    def _require_live(self, slot: Slot) -> _List:
        masked = self._require_list(slot.list_id)
        if not self.list_ready(slot.list_id):
            raise DeckUsageError(f"list {slot.list_id!r} is still being shuffled")
        if not 0 <= slot.index < len(masked.deck) or slot.index in masked.retired:
            raise DeckUsageError(f"no live slot {slot}")
        return masked

    def _maybe_shuffle(self, list_id: str) -> Output:
        masked = self._lists[list_id]
        if masked.next_shuffler != self.seat:
            return Output()
        return self._publish_shuffle(self._prove_shuffle(list_id, masked.deck))

    def _prove_shuffle(self, list_id: str, deck: tuple[MaskedCard, ...]) -> ShuffleMessage:
        """This seat's shuffle of `deck`; changes no state but the random stream."""
        assert self._joint is not None and self.seat is not None
        result = shuffle_and_prove(
            self.table_id, list_id, self.seat, self._joint, deck, self._random_bytes
        )
        return ShuffleMessage(self.seat, list_id, result.outputs, result.proof)

    def _publish_shuffle(self, message: ShuffleMessage) -> Output:
        self._own_shuffles[message.list_id] = message
        return Output([self._emit(message)])

    def _own_share(self, slot: Slot) -> DecryptionShare:
        share = self._own_shares.get(slot)
        if share is None:
            assert self._key is not None, "an observer has no share"
            card = self.masked_card(slot)
            share = make_share(self.table_id, self._key, card, self._random_bytes)
            self._own_shares[slot] = share
        return share

    def _lacking(self, state: _SlotState, to: int) -> set[int]:
        """The shares seat `to` needs forwarded to open a slot given to it."""
        has = set(state.public) | {to} | state.forwarded_to.get(to, set())
        return set(range(self.seats)) - has

    def _unpublished_held(self, slot: Slot, state: _SlotState) -> list[SlotShare]:
        """Every share of `slot` this seat holds (its own, forwarded ones) not yet public."""
        mine = []
        if self.seat not in state.public:
            mine.append(SlotShare(slot, self._own_share(slot)))
        for seat in sorted(state.held):
            if seat not in state.public and seat != self.seat:
                mine.append(SlotShare(slot, state.held[seat]))
        return mine

    def _publish(self, shares: list[SlotShare]) -> Output:
        if not shares:
            return Output()
        seat = self.seat
        assert seat is not None, "an observer holds no share to publish"
        return Output([self._emit(SharesMessage(seat, tuple(shares)))])

    def _emit(self, message: DeckMessage) -> dict[str, Any]:
        data = message.to_data()
        self._sent.append((data, message))
        return data

    def _parse(self, sender: int, data: Mapping[str, Any]) -> DeckMessage:
        if sender == self.seat:
            for k, (sent, message) in enumerate(self._sent):
                if sent == data:
                    del self._sent[k]
                    return message
        return parse_message(data, sender, self.seats)

    def _slot_for_share(self, sender: int, slot: Slot) -> _SlotState:
        state = self._slots.get(slot)
        if state is None or not (state.deal_pending or state.reveal_pending):
            raise DeckFault(sender, f"share for {slot}, which is neither being dealt nor revealed")
        return state

    def _verify_share(
        self, sender: int, slot: Slot, share: DecryptionShare, private: bool = False
    ) -> None:
        """Verify a share carried by `sender`'s message; a failure is `sender`'s fault. The
        evidence of a private (forwarded) share omits the share itself: shown to every player,
        a correct share with a spoiled proof would open the card for all of them."""
        if share.seat == self.seat and self._own_shares.get(slot) == share:
            return
        key = self._keys[share.seat]
        try:
            share.verify(self.table_id, key.public, self.masked_card(slot))
        except ProofError as fault:
            evidence = {"slot": str(slot), "share_of": share.seat} if private else fault.evidence
            raise ProofError(sender, f"{fault.what} ({slot})", evidence) from fault

    def _outcome(
        self, sender: int, slot: Slot, new: dict[int, DecryptionShare]
    ) -> tuple[Callable[[], list[DeckEvent]], int | None]:
        """Check what the new shares complete (raising before any mutation); return the
        function that applies it and the card it reveals, if any."""
        state = self._slots[slot]
        public = {**state.public, **new}
        dealt_card: int | None = None
        deal_done = (
            state.deal_pending
            and len(public) >= self.seats - 1
            and (set(public) >= set(range(self.seats)) - {state.owner})
        )
        if deal_done and state.owner == self.seat:
            dealt_card = self._private_open(sender, slot, list(public.values()))
        reveal_card: int | None = None
        if state.reveal_pending and len(public) == self.seats:
            reveal_card = self._public_open(sender, slot, list(public.values()))

        def apply() -> list[DeckEvent]:
            events: list[DeckEvent] = []
            if deal_done:
                state.deal_pending = False
                if dealt_card is not None:
                    state.known = dealt_card
                assert state.owner is not None
                events.append(CardDealt(slot, state.owner, dealt_card))
            if reveal_card is not None:
                state.reveal_pending = False
                state.revealed = reveal_card
                self._seen[self._lists[slot.list_id].deck_id][reveal_card] = slot
                events.append(CardRevealed(slot, reveal_card))
            return events

        return apply, reveal_card

    def _private_open(self, sender: int, slot: Slot, shares: list[DecryptionShare]) -> int:
        """This seat's face of `slot`: B − Σ the others' shares − x·A (its own is never sent)."""
        assert self._key is not None, "an observer opens public cards only"
        card = self.masked_card(slot)
        others = [s.share for s in shares if s.seat != self.seat]
        point = sub(open_mask(card, others), mul(self._key.secret, card.a))
        found = self._lists[slot.list_id].table.card_of(point)
        if found is None:
            raise DeckFault(sender, f"{slot} does not open to a card of its deck")
        return found

    def _public_open(self, sender: int, slot: Slot, shares: list[DecryptionShare]) -> int:
        masked = self._lists[slot.list_id]
        found = masked.table.card_of(open_mask(self.masked_card(slot), [s.share for s in shares]))
        if found is None:
            raise DeckFault(
                sender, f"{slot} does not open to a card of its deck", {"slot": str(slot)}
            )
        holder = self._seen[masked.deck_id].get(found)
        if holder is not None and holder != slot:
            raise DeckFault(
                sender, f"card {found} opened twice ({holder} and {slot})", {"card": found}
            )
        return found
