"""An observer session (an auditor): verifies every public message, publishes nothing, and never
learns a card that was dealt but not revealed."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from fairdeal.p2p.deck import (
    CardDealt,
    CardRevealed,
    DeckSession,
    DeckUsageError,
    KeysReady,
    LoopbackTable,
    ProofError,
    Slot,
)
from fairdeal.p2p.deck.group import G, add
from fairdeal.p2p.deck.session import Output

from .conftest import TABLE_ID, seeded


class Watched:
    """A loopback table of `seats` sessions with an observer that takes the same commands and
    reads the public log as it grows."""

    def __init__(self, seats: int, seed: int) -> None:
        sessions = [
            DeckSession(TABLE_ID, seat, seats, random_bytes=seeded(seed * 100 + seat))
            for seat in range(seats)
        ]
        self.table = LoopbackTable(sessions)
        self.observer = DeckSession.observer(TABLE_ID, seats)
        self.events: list = []
        self._read = 0

    def command(self, call: Callable[[DeckSession], Output], *, players_only: bool = False) -> None:
        self.table.command(call)
        if not players_only:
            self._take(call(self.observer))
        self.follow()

    def follow(self) -> None:
        for sender, message in self.table.log[self._read :]:
            self._take(self.observer.handle(sender, message))
            self._read += 1

    def _take(self, output: Output) -> None:
        assert output.messages == []  # an observer never publishes
        self.events += output.events


def honest(seats: int = 3, seed: int = 5) -> Watched:
    watched = Watched(seats, seed)
    watched.command(lambda s: s.start(), players_only=True)
    watched.command(lambda s: s.coin("first"))
    watched.command(lambda s: s.new_deck("d0", "larry", range(8)))
    return watched


def test_an_observer_verifies_an_honest_run_and_opens_only_what_is_revealed() -> None:
    watched = honest()
    players, observer = watched.table.sessions, watched.observer
    assert any(isinstance(e, KeysReady) for e in watched.events)
    assert observer.coin_seed("first") == players[0].coin_seed("first") is not None
    assert observer.list_ready("d0")
    hand, gift, shown = Slot("d0", 0), Slot("d0", 1), Slot("d0", 2)
    watched.command(lambda s: s.deal({hand: 0, gift: 1, shown: 2}))
    dealt = [e for e in watched.events if isinstance(e, CardDealt)]
    assert {(e.slot, e.owner, e.card) for e in dealt} == {
        (hand, 0, None),
        (gift, 1, None),
        (shown, 2, None),
    }
    watched.command(lambda s: s.give(gift, 2))
    assert observer.owner(gift) == 2
    watched.command(lambda s: s.reveal([gift, shown, Slot("d0", 7)]))
    for slot in (gift, shown, Slot("d0", 7)):
        assert observer.revealed_card(slot) == players[0].revealed_card(slot) is not None
    assert sum(isinstance(e, CardRevealed) for e in watched.events) == 3
    # The card dealt to seat 0 and never revealed stays secret from the observer.
    assert players[0].known_card(hand) is not None
    assert observer.known_card(hand) is None


def test_an_observer_cannot_open_a_card_dealt_but_not_revealed() -> None:
    watched = honest(seats=2, seed=6)
    slot = Slot("d0", 3)
    watched.command(lambda s: s.deal({slot: 1}))
    observer = watched.observer
    assert observer.known_card(slot) is None and observer.revealed_card(slot) is None
    assert observer._key is None  # no secret to open it with, and no share of it to publish
    with pytest.raises(DeckUsageError):
        observer.start()
    # Every share of the card that was ever made public is in the observer's hands: one short.
    assert len(observer._slots[slot].public) == observer.seats - 1


def test_an_observer_rejects_a_tampered_shuffle_blaming_the_shuffler() -> None:
    """Without an executor the observer checks a list's chain in one batch when its last
    shuffle comes (p2p/deck/chain_check.py): a tampered shuffle is refused there, its author
    blamed, and the list is never ready; the honest messages make it ready."""
    watched = Watched(3, seed=7)
    watched.command(lambda s: s.start(), players_only=True)
    watched.table.command(lambda s: s.new_deck("d0", "larry", range(6)))
    watched.observer.new_deck("d0", "larry", range(6))
    fooled = copy.deepcopy(watched.observer)
    shuffles = [(s, m) for s, m in watched.table.log if m["kind"] == "deck.shuffle"]
    for sender, message in watched.table.log[watched._read :]:
        if (sender, message) == shuffles[1]:
            tampered = copy.deepcopy(message)
            tampered["deck"][0], tampered["deck"][1] = tampered["deck"][1], tampered["deck"][0]
            fooled.handle(sender, tampered)
        elif (sender, message) == shuffles[-1]:
            with pytest.raises(ProofError) as info:
                fooled.handle(sender, message)
            assert info.value.seat == 1
            assert not fooled.list_ready("d0")
        else:
            fooled.handle(sender, message)
        watched.observer.handle(sender, message)
    assert watched.observer.list_ready("d0")


def test_an_observer_rejects_a_tampered_share_blaming_its_sender() -> None:
    watched = honest(seats=3, seed=8)
    slot = Slot("d0", 4)
    outputs = [s.deal({slot: 0}) for s in watched.table.sessions]
    watched.observer.deal({slot: 0})
    message = copy.deepcopy(outputs[2].messages[0])
    message["shares"][0]["share"]["d"] = add(message["shares"][0]["share"]["d"], G)
    with pytest.raises(ProofError) as info:
        watched.observer.handle(2, message)
    assert info.value.seat == 2
    assert watched.observer._slots[slot].public == {}  # the bad share changed nothing
