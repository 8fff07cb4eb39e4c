"""The masked lists of one table and the shuffle chain of each (protocol.md §6).

Every seat in turn, from seat 0, re-masks and permutes a list and proves it; `ShuffleChains` keeps
each list's current deck and whose turn it is, verifies each shuffle against the list's previous
deck, and proves this seat's own when its turn comes. It returns this seat's shuffles to publish;
the session emits them (it keeps the one record of what it sent).

The other seats' shuffles of a list are checked together, in one batch (p2p/deck/chain_check.py):
each proof's multiplications run as soon as their bases are final, and the list's last shuffle
waits for the sum, falling back to checking each proof alone, in seat order, to blame the first
bad one. With an executor the chain does not wait for that work: it runs on the executor's
worker (libsodium releases the GIL) while this seat's event loop goes on, and the next shuffler
proves at once; a list is ready only once the whole chain's check holds (see `on_shuffle`). The
log, what is signed and every message stay those of the sequential chain: only when a check runs
changes."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .cards import CardTable
from .chain_check import ChainCheck, run_on
from .errors import DeckFault, DeckUsageError, ProofError
from .events import DeckEvent, ListReady, ShuffleApplied
from .group import Point, RandomBytes
from .masking import MaskedCard
from .messages import ShuffleMessage, Slot
from .shuffle import MAX_CARDS, ShuffleStatement, shuffle_and_prove


@dataclass
class MaskedList:
    deck_id: str
    table: CardTable
    deck: tuple[MaskedCard, ...]
    next_shuffler: int = 0
    retired: set[int] = field(default_factory=set)


class ShuffleChains:
    """One seat's lists and their shuffle chains (see the module docstring)."""

    def __init__(
        self,
        table_id: bytes,
        seat: int | None,
        seats: int,
        random_bytes: RandomBytes,
        parallel: Executor | None,
    ):
        self.table_id = table_id
        self.seat = seat
        self.seats = seats
        self._random_bytes = random_bytes
        self.parallel = parallel  # where other seats' shuffles are verified meanwhile
        self.lists: dict[str, MaskedList] = {}
        self._own_shuffles: dict[str, ShuffleMessage] = {}
        # Each list's batched check, until its last shuffle.
        self._checks: dict[str, ChainCheck] = {}

    def __eq__(self, other: object) -> bool:
        # State only: the random stream and the executor are means, not state.
        return (
            isinstance(other, ShuffleChains)
            and self.lists == other.lists
            and self._own_shuffles == other.own_shuffles
        )

    def __repr__(self) -> str:
        return f"ShuffleChains({sorted(self.lists)})"

    @property
    def own_shuffles(self) -> Mapping[str, ShuffleMessage]:
        """This seat's shuffle of each list, read-only."""
        return MappingProxyType(self._own_shuffles)

    def __deepcopy__(self, memo: dict[int, Any]) -> ShuffleChains:
        """A copy of the state; the executor and the checks running on it are shared."""
        clone = object.__new__(ShuffleChains)
        memo[id(self)] = clone
        for name, value in self.__dict__.items():
            if name == "_checks":
                setattr(clone, name, {k: v.copy() for k, v in value.items()})
            elif name == "parallel":
                setattr(clone, name, value)
            else:
                setattr(clone, name, copy.deepcopy(value, memo))
        return clone

    def ready(self, list_id: str) -> bool:
        masked = self.lists.get(list_id)
        return masked is not None and masked.next_shuffler == self.seats

    def require(self, list_id: str) -> MaskedList:
        masked = self.lists.get(list_id)
        if masked is None:
            raise DeckUsageError(f"no list {list_id!r}")
        return masked

    def require_live(self, slot: Slot) -> MaskedList:
        masked = self.require(slot.list_id)
        if not self.ready(slot.list_id):
            raise DeckUsageError(f"list {slot.list_id!r} is still being shuffled")
        if not 0 <= slot.index < len(masked.deck) or slot.index in masked.retired:
            raise DeckUsageError(f"no live slot {slot}")
        return masked

    def require_new(self, list_id: str, size: int) -> None:
        if not isinstance(list_id, str) or not 0 < len(list_id) <= 64:
            raise DeckUsageError("list id must be a string of 1 to 64 characters")
        if list_id in self.lists:
            raise DeckUsageError(f"list {list_id!r} exists")
        if not 0 < size <= MAX_CARDS:
            raise DeckUsageError(f"a list holds 1 to {MAX_CARDS} cards")

    def masked_card(self, slot: Slot) -> MaskedCard:
        return self.require(slot.list_id).deck[slot.index]

    def start(self, list_id: str, masked: MaskedList, joint: Point) -> ShuffleMessage | None:
        """Add list `list_id` and start its chain: this seat's shuffle if it is the first."""
        self.lists[list_id] = masked
        return self._maybe_shuffle(list_id, joint)

    def on_shuffle(
        self, message: ShuffleMessage, joint: Point | None
    ) -> tuple[list[DeckEvent], ShuffleMessage | None]:
        """Take one seat's shuffle as the list's deck (this seat's own is not re-verified) and
        return the events and this seat's shuffle to publish next, if its turn came.

        The proof joins the list's batched check (p2p/deck/chain_check.py), whose work runs on
        the executor's worker while this seat goes on, or at once without one; either way the
        next shuffler proves on the unchecked deck at once (its own shuffle reveals nothing
        whatever it was given). The list's last shuffle waits for the chain's check before it
        is taken, so `ListReady`, and with it every share of the list's cards, comes only after
        every proof holds, and a failed one raises the first bad author's `ProofError` there."""
        seat = message.seat
        masked = self.lists.get(message.list_id)
        if masked is None or joint is None:
            raise DeckFault(seat, f"shuffle of unknown list {message.list_id!r}")
        if masked.next_shuffler != seat:
            raise DeckFault(seat, f"shuffled {message.list_id!r} out of turn")
        if len(message.deck) != len(masked.deck):
            raise ProofError(
                seat,
                f"shuffle of {message.list_id!r} has {len(message.deck)} cards, "
                f"expected {len(masked.deck)}",
            )
        check = self._checks.get(message.list_id)
        if check is None:
            check = self._checks[message.list_id] = ChainCheck(run_on(self.parallel))
        if self._own_shuffles.get(message.list_id) != message:
            statement = ShuffleStatement(
                self.table_id, message.list_id, seat, joint, masked.deck, message.deck
            )
            check.add(statement, message.proof)
        else:
            check.skip()
        last = masked.next_shuffler + 1 == self.seats
        if last:
            check.result()
            del self._checks[message.list_id]
        self._own_shuffles.pop(message.list_id, None)
        masked.deck = message.deck
        masked.next_shuffler += 1
        events: list[DeckEvent] = [ShuffleApplied(message.list_id, seat)]
        if last:
            events.append(ListReady(message.list_id, len(masked.deck)))
            return events, None
        return events, self._maybe_shuffle(message.list_id, joint)

    def _maybe_shuffle(self, list_id: str, joint: Point) -> ShuffleMessage | None:
        masked = self.lists[list_id]
        if masked.next_shuffler != self.seat:
            return None
        return self._keep(self._prove(list_id, masked.deck, joint))

    def _prove(self, list_id: str, deck: tuple[MaskedCard, ...], joint: Point) -> ShuffleMessage:
        """This seat's shuffle of `deck`; changes no state but the random stream."""
        assert self.seat is not None
        result = shuffle_and_prove(
            self.table_id, list_id, self.seat, joint, deck, self._random_bytes
        )
        return ShuffleMessage(self.seat, list_id, result.outputs, result.proof)

    def _keep(self, message: ShuffleMessage) -> ShuffleMessage:
        """Remember a shuffle this seat publishes: when it comes back it is not re-verified."""
        self._own_shuffles[message.list_id] = message
        return message
