"""The sans-IO table driver on in-memory logs: the full fair deck with no sockets."""

from __future__ import annotations

import random
from dataclasses import replace

from fairdeal.engine.bots import make_bot
from fairdeal.engine.larry import Action, CardKind, LarryOptions, PlayFaceUp, build_deck
from fairdeal.engine.larry.events import CardGiven
from fairdeal.p2p.deck.messages import SHARES
from fairdeal.p2p.games.larry.events import DoubtVerification
from fairdeal.p2p.games.larry.table import JOIN, LarryTable
from fairdeal.p2p.table.core.api import StateChanged
from fairdeal.p2p.table.core.driver import DECK, Private, Publish

from .sansio import Policy, SansIOTable

DECK_CARDS = build_deck(LarryOptions())


def gifts(table: LarryTable) -> list[CardGiven]:
    return [
        event
        for change in table.events
        if isinstance(change, StateChanged)
        for event in change.events
        if isinstance(event, CardGiven)
    ]


def test_a_short_game_ends_the_same_for_every_seat_with_doubts_verified() -> None:
    table = SansIOTable(3, LarryOptions(short_game=True), seed=2)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(3)]
    table.run(lambda seat, t: bots[seat].choose(t.view()))
    states = [t.state for t in table.tables]
    assert all(t.fault is None for t in table.tables)
    assert all(s is not None and s.phase == "game_over" for s in states)
    assert len({t.head for t in table.tables}) == 1
    verifications = [e for e in table.tables[0].events if isinstance(e, DoubtVerification)]
    for verification in verifications:  # L9: the verdict follows from the verified faces
        total = sum(DECK_CARDS[card.face].value for card in verification.cards)
        assert total == verification.true_total
        assert verification.correct == (
            verification.gloats % 2 == 1 or total == verification.announced
        )


def test_a_card_given_back_to_the_seat_that_gave_it_is_received() -> None:
    # L11 twice on one card: seat A gives it to B, B gives it back. The giver must not forward
    # the receiver's own share (the deck would reject it as needless).
    table = SansIOTable(2, LarryOptions(short_game=True), seed=0)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(2)]
    table.run(giving_policy(bots, {0: 1, 1: 0}))
    given = gifts(table.tables[0])
    assert any(
        a.slot == b.slot and a.target == b.seat and b.target == a.seat
        for i, a in enumerate(given)
        for b in given[i + 1 :]
    ), "the scenario did not happen with this seed"
    assert all(t.fault is None and t.state.phase == "game_over" for t in table.tables)


def test_a_seat_joining_with_other_terms_stops_the_table() -> None:
    table = SansIOTable(3, LarryOptions(short_game=True), seed=1)

    def tamper(seat: int, item: Publish | Private) -> Publish | Private:
        if seat == 2 and isinstance(item, Publish) and item.kind == JOIN:
            options = dict(item.body["options"])
            options["short_game"] = False
            return replace(item, body={**item.body, "options": options})
        return item

    table.run(lambda seat, t: make_bot("random", random.Random(0)).choose(t.view()), tamper)
    for t in table.tables:
        assert t.fault is not None and t.fault.seat == 2
        assert "other game terms" in t.fault.what
        assert t.state is None  # no game was started


def test_shares_that_leave_one_out_are_refused_and_blamed() -> None:
    table = SansIOTable(3, LarryOptions(short_game=True), seed=1)
    cheated: list[int] = []

    def tamper(seat: int, item: Publish | Private) -> Publish | Private:
        body = item.body if isinstance(item, Publish) and item.kind == DECK else None
        if seat == 1 and not cheated and body and body["kind"] == SHARES:
            cheated.append(len(body["shares"]))
            return replace(item, body={**body, "shares": body["shares"][1:]})
        return item

    table.run(lambda seat, t: make_bot("random", random.Random(0)).choose(t.view()), tamper)
    assert cheated
    for t in table.tables:
        assert t.fault is not None and t.fault.seat == 1
        assert "wrong shares" in t.fault.what
        assert "missing" in t.fault.evidence


CHAIN = {2: 1, 1: 0, 0: 1}  # who gives to whom


def giving_policy(bots: list, targets: dict[int, int]) -> Policy:
    """L11 whenever possible, each seat giving to its seat in `targets`, on the card it received
    last (so along CHAIN one card goes 2→1, 1→0, 0→1); otherwise the seat's bot plays."""

    def policy(seat: int, t: LarryTable) -> Action:
        view = t.view()
        hand = view.hand
        if view.state.phase == "play" and not view.state.obligated[seat] and len(hand) >= 3:
            for slot, face in hand:
                if face is not None and DECK_CARDS[face].kind is CardKind.GIVE_AWAY_1:
                    received = [g.slot for g in gifts(t) if g.target == seat]
                    give = received[-1] if received else None
                    if give is None or give not in dict(hand) or give == slot:
                        give = next(s for s, _ in hand if s != slot)
                    return PlayFaceUp(
                        slot,
                        CardKind.GIVE_AWAY_1,
                        target=targets[seat],
                        give=give,
                        larry=len(hand) == 3,
                    )
        return bots[seat].choose(view)

    return policy


def _given_back(table: SansIOTable) -> list[tuple[int, int]] | None:
    """The gifts of the first card that reached one seat twice (None: no such card)."""
    by_slot: dict[int, list[tuple[int, int]]] = {}
    for gift in gifts(table.tables[0]):
        by_slot.setdefault(gift.slot, []).append((gift.seat, gift.target))
    for chain in by_slot.values():
        targets = [target for _, target in chain]
        if len(targets) != len(set(targets)):
            return chain
    return None


def test_a_card_given_twice_to_the_same_seat_is_received_both_times() -> None:
    # L11: one card goes 0→1, then 1→0, then 0→1 (bots in ordinary play,
    # giving on the card received last). Seat 1 receives it a second time and needs no forward
    # (it holds every share); its receipt must still be published, or every peer waits for
    # ever. The deal depends on every seat's randomness, so the first seed that brings the card
    # back is used rather than a pinned one (with today's protocol, seed 28 is the first).
    for seed in range(28, 60):
        table = SansIOTable(3, LarryOptions(), seed=seed)
        bots = [make_bot("heuristic", random.Random(10 * seed + s)) for s in range(3)]
        table.run(giving_policy(bots, CHAIN))
        chain = _given_back(table)
        if chain is not None:
            break
    assert chain is not None, "no seed brought a card back to a seat that had given it"
    assert all(t.fault is None for t in table.tables)
    assert all(t.over for t in table.tables)
    assert all(t.expected() is None for t in table.tables)
    assert all(t.state is not None and t.state.phase == "game_over" for t in table.tables)
