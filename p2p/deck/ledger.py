"""The decryption shares of one table's slots: who owns each slot, which shares are public,
which this seat holds, and what they open (protocol.md §6, `deck.shares` and `deck.forward`).

`ShareLedger` checks every share it is handed (its proof against the author's key and the slot's
masked card) and opens a card once its shares are in: privately for the owner (never sending its
own share), publicly for a reveal. Every check runs before any mutation. With the session's
`parallel` executor a message's share proofs are checked half on its worker, half on the
caller's thread, and the verdict is the sequential one (the first failure in message order).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from .chains import ShuffleChains
from .errors import DeckFault, ProofError
from .events import CardDealt, CardRevealed, DeckEvent
from .group import RandomBytes, mul, sub
from .keys import PublicKeyShare, SecretKey
from .masking import open_mask
from .messages import ForwardMessage, SharesMessage, Slot, SlotShare
from .shares import DecryptionShare, make_share

# A message with fewer shares is checked on one thread: handing work over costs more than half
# of a few checks (about 0.25 ms each).
PARALLEL_SHARES = 8


@dataclass
class SlotState:
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


class ShareLedger:
    """One seat's shares of the slots of its table's lists (see the module docstring)."""

    def __init__(
        self,
        table_id: bytes,
        seat: int | None,
        seats: int,
        *,
        key: SecretKey | None,
        keys: dict[int, PublicKeyShare],
        chains: ShuffleChains,
        random_bytes: RandomBytes,
    ):
        self.table_id = table_id
        self.seat = seat
        self.seats = seats
        self._key = key
        self._keys = keys  # the session's: it fills it as keys arrive
        self._chains = chains
        self._random_bytes = random_bytes
        self.slots: dict[Slot, SlotState] = {}
        self.seen: dict[str, dict[int, Slot]] = {}  # deck id → card → the slot that revealed it
        self._own_shares: dict[Slot, DecryptionShare] = {}

    def __eq__(self, other: object) -> bool:
        # State only (the keys and the chains are the session's, compared there).
        return (
            isinstance(other, ShareLedger)
            and self.slots == other.slots
            and self.seen == other.seen
            and self._own_shares == other.own_shares
        )

    def __repr__(self) -> str:
        return f"ShareLedger({len(self.slots)} slots)"

    def retire(self, slots: set[Slot], deck_id: str) -> None:
        """Forget `slots`, gathered into a new list by a reshuffle."""
        for slot in slots:
            self.slots.pop(slot, None)
            self._own_shares.pop(slot, None)
        seen = self.seen[deck_id]
        for card, slot in list(seen.items()):
            if slot in slots:
                del seen[card]

    @property
    def own_shares(self) -> Mapping[Slot, DecryptionShare]:
        """The shares of this seat's key made so far (`own_share`), read-only."""
        return MappingProxyType(self._own_shares)

    def own_share(self, slot: Slot) -> DecryptionShare:
        share = self._own_shares.get(slot)
        if share is None:
            assert self._key is not None, "an observer has no share"
            card = self._chains.masked_card(slot)
            share = make_share(self.table_id, self._key, card, self._random_bytes)
            self._own_shares[slot] = share
        return share

    def lacking(self, state: SlotState, to: int) -> set[int]:
        """The shares seat `to` needs forwarded to open a slot given to it."""
        has = set(state.public) | {to} | state.forwarded_to.get(to, set())
        return set(range(self.seats)) - has

    def unpublished_held(self, slot: Slot, state: SlotState) -> list[SlotShare]:
        """Every share of `slot` this seat holds (its own, forwarded ones) not yet public."""
        mine = []
        if self.seat not in state.public:
            mine.append(SlotShare(slot, self.own_share(slot)))
        for seat in sorted(state.held):
            if seat not in state.public and seat != self.seat:
                mine.append(SlotShare(slot, state.held[seat]))
        return mine

    def on_shares(self, message: SharesMessage) -> list[DeckEvent]:
        """Check and record the shares a `deck.shares` publishes; the deals and reveals they
        complete, as events."""
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
            new[share.seat] = share
        self._verify_shares(sender, message.shares)
        outcomes = [self._outcome(sender, slot, new) for slot, new in added.items()]
        opened: dict[tuple[str, int], Slot] = {}
        for slot, (_, card) in zip(added, outcomes, strict=True):
            if card is None:
                continue
            key = (self._chains.lists[slot.list_id].deck_id, card)
            if key in opened:
                raise DeckFault(sender, f"card {card} opened twice ({opened[key]} and {slot})")
            opened[key] = slot
        for slot, new in added.items():
            self.slots[slot].public.update(new)
            for seat in new:
                self.slots[slot].held.pop(seat, None)
        events: list[DeckEvent] = []
        for apply, _ in outcomes:
            events += apply()
        return events

    def forwarded_shares(
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

    def _slot_for_share(self, sender: int, slot: Slot) -> SlotState:
        state = self.slots.get(slot)
        if state is None or not (state.deal_pending or state.reveal_pending):
            raise DeckFault(sender, f"share for {slot}, which is neither being dealt nor revealed")
        return state

    def _verify_shares(self, sender: int, items: Sequence[SlotShare]) -> None:
        """Verify the shares of one message, the first half on the chains' worker while this
        thread checks the rest (libsodium releases the GIL); the first failure in message order
        is raised, whatever thread found it, so the verdict is the sequential one."""
        parallel = self._chains.parallel
        if parallel is None or len(items) < PARALLEL_SHARES:
            for item in items:
                self._verify_share(sender, item.slot, item.share)
            return
        half = len(items) // 2
        first = parallel.submit(self._first_failure, sender, items[:half])
        try:
            rest = self._first_failure(sender, items[half:])
        finally:
            failure = first.result()  # always wait: no check outlives the message
        failure = failure or rest
        if failure is not None:
            raise failure

    def _first_failure(self, sender: int, items: Sequence[SlotShare]) -> DeckFault | None:
        for item in items:
            try:
                self._verify_share(sender, item.slot, item.share)
            except DeckFault as fault:
                return fault
        return None

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
            share.verify(self.table_id, key.public, self._chains.masked_card(slot))
        except ProofError as fault:
            evidence = {"slot": str(slot), "share_of": share.seat} if private else fault.evidence
            raise ProofError(sender, f"{fault.what} ({slot})", evidence) from fault

    def _outcome(
        self, sender: int, slot: Slot, new: dict[int, DecryptionShare]
    ) -> tuple[Callable[[], list[DeckEvent]], int | None]:
        """Check what the new shares complete (raising before any mutation); return the
        function that applies it and the card it reveals, if any."""
        state = self.slots[slot]
        public = {**state.public, **new}
        dealt_card: int | None = None
        deal_done = (
            state.deal_pending
            and len(public) >= self.seats - 1
            and (set(public) >= set(range(self.seats)) - {state.owner})
        )
        if deal_done and state.owner == self.seat:
            dealt_card = self.private_open(sender, slot, list(public.values()))
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
                self.seen[self._chains.lists[slot.list_id].deck_id][reveal_card] = slot
                events.append(CardRevealed(slot, reveal_card))
            return events

        return apply, reveal_card

    def private_open(self, sender: int, slot: Slot, shares: list[DecryptionShare]) -> int:
        """This seat's face of `slot`: B − Σ the others' shares − x·A (its own is never sent)."""
        assert self._key is not None, "an observer opens public cards only"
        card = self._chains.masked_card(slot)
        others = [s.share for s in shares if s.seat != self.seat]
        point = sub(open_mask(card, others), mul(self._key.secret, card.a))
        found = self._chains.lists[slot.list_id].table.card_of(point)
        if found is None:
            raise DeckFault(sender, f"{slot} does not open to a card of its deck")
        return found

    def _public_open(self, sender: int, slot: Slot, shares: list[DecryptionShare]) -> int:
        masked = self._chains.lists[slot.list_id]
        found = masked.table.card_of(
            open_mask(self._chains.masked_card(slot), [s.share for s in shares])
        )
        if found is None:
            raise DeckFault(
                sender, f"{slot} does not open to a card of its deck", {"slot": str(slot)}
            )
        holder = self.seen[masked.deck_id].get(found)
        if holder is not None and holder != slot:
            raise DeckFault(
                sender, f"card {found} opened twice ({holder} and {slot})", {"card": found}
            )
        return found
