"""Random sequences of deals, gifts, reveals and reshuffles keep every seat's view consistent.

Invariants checked after every step: all seats agree on owners and revealed faces; an owner
knows its card and nobody else does (unless revealed); a revealed card equals what its owner
saw; the faces of one list are distinct; and what a reshuffle gathers comes out again.
"""

from __future__ import annotations

import random

import pytest

from fairdeal.p2p.deck import LoopbackTable, Slot

from .conftest import shuffled_table

SEATS = 3
CARDS = 9


def live_slots(table: LoopbackTable, lists: dict[str, int], retired: set[Slot]) -> list[Slot]:
    return [
        Slot(name, i)
        for name, size in lists.items()
        for i in range(size)
        if Slot(name, i) not in retired
    ]


def check(table: LoopbackTable, slots: list[Slot], seen: dict[Slot, int]) -> None:
    sessions = table.sessions
    for slot in slots:
        owners = {s.owner(slot) for s in sessions}
        revealed = {s.revealed_card(slot) for s in sessions}
        assert len(owners) == 1 and len(revealed) == 1
        owner, face = owners.pop(), revealed.pop()
        for s in sessions:
            known = s.known_card(slot)
            if face is not None:
                assert known == face
            elif s.seat == owner:
                assert known is not None
                seen[slot] = known
        if face is not None and slot in seen:
            assert face == seen[slot]  # the card revealed is the card that was dealt


@pytest.mark.parametrize("seed", range(4))
def test_random_games_stay_consistent(seed: int) -> None:
    rng = random.Random(seed)
    table = shuffled_table(SEATS, CARDS, seed=100 + seed)
    lists = {"d0": CARDS}
    retired: set[Slot] = set()
    seen: dict[Slot, int] = {}
    for step in range(10):
        slots = live_slots(table, lists, retired)
        session = table.sessions[0]
        hidden = [s for s in slots if session.revealed_card(s) is None]
        undealt = [s for s in hidden if session.owner(s) is None]
        owned = [s for s in hidden if session.owner(s) is not None]
        action = rng.choice(["deal", "give", "reveal", "reshuffle"])
        if action == "deal" and undealt:
            picks = rng.sample(undealt, min(len(undealt), rng.randint(1, 3)))
            owners = {slot: rng.randrange(SEATS) for slot in picks}
            table.command(lambda s, o=owners: s.deal(o))
        elif action == "give" and owned:
            slot = rng.choice(owned)
            to = rng.choice([k for k in range(SEATS) if k != session.owner(slot)])
            table.command(lambda s, sl=slot, t=to: s.give(sl, t))
        elif action == "reveal" and hidden:
            picks = rng.sample(hidden, min(len(hidden), rng.randint(1, 2)))
            table.command(lambda s, p=picks: s.reveal(p))
        elif action == "reshuffle" and len(slots) >= 2:
            sources = rng.sample(slots, rng.randint(2, min(4, len(slots))))
            name = f"r{step}"
            table.command(lambda s, n=name, src=sources: s.reshuffle(n, src))
            # Reveal everything gathered: the multiset of faces must be preserved.
            before = [seen[src] if src in seen else session.revealed_card(src) for src in sources]
            retired |= set(sources)
            lists[name] = len(sources)
            new = [Slot(name, i) for i in range(len(sources))]
            table.command(lambda s, nw=new: s.reveal(nw))
            after = [session.revealed_card(slot) for slot in new]
            assert len(set(after)) == len(after)
            assert {f for f in before if f is not None} <= set(after)
        live = live_slots(table, lists, retired)
        check(table, live, seen)
        faces = [session.known_card(s) for s in live if s.list_id == "d0"]
        known = [f for f in faces if f is not None]
        assert len(set(known)) == len(known)
