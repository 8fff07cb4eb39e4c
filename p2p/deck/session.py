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
  sends `deck.shuffle`; each seat's session answers the previous seat's shuffle with its own
  (`ShuffleApplied` each time); after seat N−1's, once every shuffle is verified: `ListReady`.
  Deal or reveal slots of a list only after `ListReady`. The other seats' shuffles of a list
  are checked in one batch (p2p/deck/chain_check.py), each proof's work done as it arrives:
  without a `parallel` executor at once, with one on a worker thread (libsodium releases the
  GIL) while the seat goes on: the next seat proves its shuffle of the received deck at once
  and publishes it (a re-masked permutation shows nothing of its input), and the list's last
  shuffle waits for the batch before `ListReady`, raising the first failed shuffle's
  `ProofError`, naming its author, there. So a seat's turn costs a proof,
  not a proof and a check; the log and every message stay those of the sequential chain; no
  share of a list's card is published before every shuffle of it is verified.
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

The session composes its parts: `ShuffleChains` (chains.py) keeps the lists and verifies and
proves their shuffles, `ShareLedger` (ledger.py) checks the decryption shares and opens the cards,
`CoinRounds` (coin_rounds.py) runs the coins; the session holds the keys, routes the messages and
keeps the one record of what it sent.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from .cards import MAX_CARD_ID, CardTable, card_point
from .chains import MaskedList, ShuffleChains
from .coin_rounds import CoinRounds
from .errors import DeckFault, DeckUsageError
from .events import CardReceived, DeckEvent, KeysReady
from .group import IDENTITY, Point, RandomBytes
from .keys import PublicKeyShare, SecretKey, joint_key
from .ledger import ShareLedger, SlotState
from .masking import MaskedCard, initial_deck
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
        self.random_bytes = random_bytes  # this seat's secrets' source (its game's too)
        self._key = None if seat is None else SecretKey.generate(seat, random_bytes)
        self._keys: dict[int, PublicKeyShare] = {}
        self._joint: Point | None = None
        self._chains = ShuffleChains(table_id, seat, seats, random_bytes, parallel)
        self._ledger = ShareLedger(
            table_id,
            seat,
            seats,
            key=self._key,
            keys=self._keys,
            chains=self._chains,
            random_bytes=random_bytes,
        )
        self._slots = self._ledger.slots  # the ledger's: commands set owners and pending work
        self._coins = CoinRounds(table_id, seat, seats, random_bytes)
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
        parallel = self._chains.parallel
        memo[id(parallel)] = parallel
        for name, value in self.__dict__.items():
            setattr(clone, name, copy.deepcopy(value, memo))
        return clone

    # -- queries ---------------------------------------------------------------------------

    @property
    def pipelined(self) -> bool:
        """Whether other seats' shuffles are verified on a worker while the chain goes on."""
        return self._chains.parallel is not None

    @property
    def joint_key(self) -> Point | None:
        return self._joint

    def list_ready(self, list_id: str) -> bool:
        return self._chains.ready(list_id)

    def list_size(self, list_id: str) -> int:
        return len(self._chains.require(list_id).deck)

    def masked_card(self, slot: Slot) -> MaskedCard:
        return self._chains.masked_card(slot)

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
        share = self._key.publish(self.table_id, self.random_bytes)
        return Output([self._emit(KeyMessage(share))])

    def new_deck(self, list_id: str, deck_id: str, cards: Sequence[int]) -> Output:
        """Create masked list `list_id` from the public deck (r = 1) and start its shuffle chain."""
        joint = self._require_joint()
        self._chains.require_new(list_id, len(cards))
        if len(set(cards)) != len(cards):
            raise DeckUsageError("card ids must be distinct")
        if not all(isinstance(c, int) and 0 <= c <= MAX_CARD_ID for c in cards):
            raise DeckUsageError(f"card ids must be integers in [0, {MAX_CARD_ID}]")
        table = CardTable.of(deck_id, cards)
        points = [card_point(deck_id, c) for c in cards]
        self._ledger.seen.setdefault(deck_id, {})
        masked = MaskedList(deck_id, table, tuple(initial_deck(points, joint)))
        return self._start_chain(list_id, masked, joint)

    def reshuffle(self, list_id: str, sources: Sequence[Slot]) -> Output:
        """Gather the masked cards at `sources` (live slots of one deck id) into a new list
        `list_id`, retire the sources, and run the shuffle chain over it."""
        joint = self._require_joint()
        self._chains.require_new(list_id, len(sources))
        if len(set(sources)) != len(sources):
            raise DeckUsageError("reshuffle sources must be distinct")
        lists = [self._chains.require_live(slot) for slot in sources]
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
        self._ledger.retire(set(sources), deck_id)
        return self._start_chain(list_id, MaskedList(deck_id, table, deck), joint)

    def deal(self, owners: Mapping[Slot, int]) -> Output:
        """Deal each slot to its owner: every other seat publishes its share of it."""
        for slot, owner in owners.items():
            self._chains.require_live(slot)
            if not 0 <= owner < self.seats:
                raise DeckUsageError(f"no seat {owner}")
            state = self._slots.get(slot)
            if state and (state.owner is not None or state.revealed is not None):
                raise DeckUsageError(f"slot {slot} was already dealt or revealed")
        mine: list[SlotShare] = []
        for slot, owner in owners.items():
            state = self._slots.setdefault(slot, SlotState())
            state.owner = owner
            state.deal_pending = True
            if self.seat is not None and owner != self.seat:
                mine.append(SlotShare(slot, self._ledger.own_share(slot)))
        return self._publish(mine)

    def reveal(self, slots: Sequence[Slot]) -> Output:
        """Open `slots` publicly: the owner (or, for a slot never dealt, every seat) publishes
        the shares it holds that are not public yet."""
        if len(set(slots)) != len(slots):
            raise DeckUsageError("reveal slots must be distinct")
        for slot in slots:
            self._chains.require_live(slot)
            state = self._slots.get(slot)
            if state and (state.deal_pending or state.reveal_pending or state.revealed is not None):
                raise DeckUsageError(f"slot {slot} is being dealt, revealed, or already revealed")
        mine: list[SlotShare] = []
        for slot in slots:
            state = self._slots.setdefault(slot, SlotState())
            state.reveal_pending = True
            if self.seat is not None and state.owner in (None, self.seat):
                mine += self._ledger.unpublished_held(slot, state)
        return self._publish(mine)

    def give(self, slot: Slot, to: int) -> Output:
        """The owner of `slot` gives it to seat `to`: it forwards, privately, every share of the
        slot that is not public; `to` becomes the owner."""
        self._chains.require_live(slot)
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
        lacking = self._ledger.lacking(state, to)
        state.forwarded_to.setdefault(to, set()).update(lacking)
        state.last_give = (giver, to, frozenset(lacking))
        out = Output()
        if giver == self.seat and lacking:
            held = self._ledger.unpublished_held(slot, state)
            shares = tuple(s for s in held if s.share.seat in lacking)
            out.messages.append(ForwardMessage(self.seat, to, shares).to_data())
        if to == self.seat and not lacking:
            every = [*state.public.values(), *state.held.values()]
            state.known = self._ledger.private_open(giver, slot, every)
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
        keys = {**self._keys, key.seat: key}  # checked before it is kept
        joint = None
        if len(keys) == self.seats:
            joint = joint_key([keys[s].public for s in range(self.seats)])
            if joint == IDENTITY:
                raise DeckFault(key.seat, "the joint key is the identity")
        self._keys[key.seat] = key  # in place: the ledger verifies shares against these
        if joint is None:
            return Output()
        self._joint = joint
        return Output(events=[KeysReady(joint)])

    def _on_shuffle(self, message: ShuffleMessage) -> Output:
        events, mine = self._chains.on_shuffle(message, self._joint)
        return Output([self._emit(mine)] if mine else [], events)

    def _on_shares(self, message: SharesMessage) -> Output:
        return Output(events=self._ledger.on_shares(message))

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
        self._ledger.forwarded_shares(message, lambda s: lacking if s == slot else None)

    def _on_forward(self, message: ForwardMessage) -> Output:
        sender = message.seat
        if message.to != self.seat:
            raise DeckFault(sender, "forwarded shares addressed to another seat")

        def wanted(slot: Slot) -> frozenset[int] | None:
            state = self._slots.get(slot)
            if state is None or state.forward_from != sender:
                return None
            return state.forward_wanted

        received = self._ledger.forwarded_shares(message, wanted)
        cards: dict[Slot, int] = {}
        for slot, new in received.items():
            state = self._slots[slot]
            shares = [*state.public.values(), *new.values()]
            cards[slot] = self._ledger.private_open(sender, slot, shares)
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
                held = self._ledger.unpublished_held(slot, state)
                late += [s for s in held if s.share.seat in new]
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

    def _start_chain(self, list_id: str, masked: MaskedList, joint: Point) -> Output:
        mine = self._chains.start(list_id, masked, joint)
        return Output([self._emit(mine)] if mine else [])

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
