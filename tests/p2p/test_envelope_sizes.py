"""Bytes, not only counts (protocol.md 4.4 step 4, p2p/table/core/sizes.py): every envelope kind has
a cap counted from what it can carry, and the largest legitimate body of each kind fits it; a
seat's envelopes held ahead of their place stay within its budget whatever it signs, the seat's
next envelope is still taken, and the refusal names the author, never an honest relayer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fairdeal.engine.larry import LarryOptions
from fairdeal.engine.lie import LieOptions
from fairdeal.p2p.deck import DeckSession
from fairdeal.p2p.log.envelope import Envelope, sign_envelope
from fairdeal.p2p.log.sync import TableSync
from fairdeal.p2p.log.tablelog import EnvelopeLimits, Roster, TableLog, seat_order
from fairdeal.p2p.log.transcript import load_transcript
from fairdeal.p2p.table.core import sizes
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.games import table_class_for
from tests.p2p.core_support import make_identity
from tests.p2p.memory_mesh import MemoryNetwork

REPLAYS = Path(__file__).parents[1] / "ui" / "replays"
TABLE = b"x" * 64  # the longest table id: the envelope's fields at their largest


def driver(options: Any, seats: int) -> TableDriver:
    deck = DeckSession.observer(TABLE, seats)
    return table_class_for(options)(TABLE, seats, options, deck, None)


def envelope_of(kind: str, body: Any, seq: int = 2**64 - 1) -> Envelope:
    """Signed at the largest seat, seq and kind name a body can be sent with."""
    return sign_envelope(
        make_identity(0), table=TABLE, seat=15, seq=seq, prev=b"p" * 32, kind=kind, body=body
    )


@pytest.mark.parametrize(
    ("game", "options", "seats"),
    [("larry", LarryOptions(short_game=True), 4), ("lie", LieOptions(rounds=1, hand_size=4), 3)],
)
def test_every_envelope_of_a_recorded_game_fits_its_kind(
    game: str, options: Any, seats: int
) -> None:
    """The recorded games of the replay tests (Larry's deck of 54 in one list, The Lie's lists
    of 6): the largest body of each kind, shuffles of the largest list included, fits."""
    limits = driver(options, seats).envelope_limits()
    largest: dict[str, int] = {}
    for envelope in load_transcript(REPLAYS / game / "table.transcript").applied:
        kind = envelope.kind
        if kind == "deck":
            kind = envelope.body["kind"]
        largest[kind] = max(largest.get(kind, 0), len(envelope.signed))
        assert len(envelope.signed) <= limits.cap(envelope), (kind, len(envelope.signed))
    assert "deck.shuffle" in largest and "deck.shares" in largest
    caps = {kind: limits.sizes.get(kind, limits.default) for kind in largest}
    print(game, "largest recorded, cap:", {kind: (largest[kind], caps[kind]) for kind in largest})


def _real(kind: str, game: str) -> Envelope:
    """A real envelope of that fair-deck kind from a recorded game."""
    for envelope in load_transcript(REPLAYS / game / "table.transcript").applied:
        if envelope.kind == "deck" and envelope.body["kind"] == kind:
            return envelope
    raise AssertionError(kind)


LONG_LIST = "L" * 64  # the longest list id a seat can name


def widest_entry(game: str) -> dict[str, Any]:
    """A real share (its point and proof scalars) at the widest index, seat and list id."""
    entry = dict(_real("deck.shares", game).body["shares"][0])
    return {**entry, "list": LONG_LIST, "i": 1023, "share": {**entry["share"], "seat": 15}}


@pytest.mark.parametrize(
    ("options", "seats", "game"),
    [
        (LarryOptions(short_game=True), 8, "larry"),
        (LarryOptions(short_game=True), 2, "larry"),
        (LieOptions(), 6, "lie"),
        (LieOptions(), 2, "lie"),
    ],
)
def test_the_largest_legitimate_body_of_each_kind_fits(options: Any, seats: int, game: str) -> None:
    table = driver(options, seats)
    limits = table.envelope_limits()
    largest_list, cards = table.card_bounds()
    entry = widest_entry(game)
    # a shuffle of the largest list: a recorded one's proof stretched to that many cards
    shuffle = dict(_real("deck.shuffle", game).body)
    proof = dict(shuffle["proof"])
    for field in ("c", "c_hat", "t_hat", "s_hat", "s_tilde"):
        proof[field] = [proof[field][0]] * largest_list
    shuffle.update(seat=15, list=LONG_LIST, proof=proof)
    shuffle["deck"] = [shuffle["deck"][0]] * largest_list
    shares = {"kind": "deck.shares", "seat": 15, "shares": [entry] * (seats * cards)}
    key = {**_real("deck.key", game).body, "seat": 15}
    bodies: dict[str, tuple[str, Any]] = {
        "deck.shuffle": ("deck", shuffle),
        "deck.shares": ("deck", shares),
        "deck.key": ("deck", key),
        "deck.coin.commit": (
            "deck",
            {"kind": "deck.coin.commit", "seat": 15, "coin": LONG_LIST, "commit": b"c" * 64},
        ),
        "deck.coin.reveal": (
            "deck",
            {
                "kind": "deck.coin.reveal",
                "seat": 15,
                "coin": LONG_LIST,
                "nonce": b"n" * 32,
                "value": b"v" * 32,
            },
        ),
    }
    if game == "larry":
        forward = {"kind": "deck.forward", "seat": 15, "to": 15, "shares": [entry] * seats}
        received = {
            "slot": 2**32,
            "fault": "x" * 1024,  # the receiver's account of what failed
            "forward": {"transfer": 2**32, "slot": 2**32, "m": forward, "sig": b"s" * 64},
        }
        bodies["larry.received"] = ("larry.received", received)
    else:
        step = {
            "round": 2**32,
            "step": 2**32,
            "answers": b"a" * 32,
            "commit": b"c" * 32,
            "open": {"nonce": b"n" * 32, "claims": [95]},
            "shares": {"kind": "deck.shares", "seat": 15, "shares": [entry] * seats},
            "place": "right",
        }
        bodies["lie.step"] = ("lie.step", step)
    for name, (kind, body) in bodies.items():
        envelope = envelope_of(kind, body)
        cap = limits.cap(envelope)
        assert len(envelope.signed) <= cap, (name, len(envelope.signed), cap)
        if kind == "deck" and cap > sizes.SMALL:  # counted, not a floor: within 5 %
            assert len(envelope.signed) > 0.95 * cap, (name, len(envelope.signed), cap)
    # a seat's budget holds a whole new deck's shuffles by it and four of its largest envelopes
    assert limits.held_ahead >= -(-cards // largest_list) * limits.cap(
        envelope_of("deck", shuffle)
    ) + 4 * max(limits.sizes.values())


# -- in memory: what one seat can make an honest peer hold ------------------------------------


def open_table(count: int, limits: EnvelopeLimits) -> tuple[MemoryNetwork, list[TableSync]]:
    ids = [make_identity(i) for i in range(count)]
    roster = Roster(b"sizes", tuple(i.key for i in ids))
    network = MemoryNetwork()
    syncs = []
    for seat, identity in enumerate(ids):
        log = TableLog(roster, seat_order(list(range(count))))
        log.limits = limits
        syncs.append(TableSync(network.mesh(identity), log, identity, seat))
    return network, syncs


LIMITS = EnvelopeLimits({"move": 8192}, sizes.SMALL, 64 * 1024)


def signed_ahead(sync: TableSync, seat: int, places: range, size: int) -> list[Envelope]:
    identity = make_identity(seat)
    return [
        sign_envelope(
            identity,
            table=sync.log.roster.table,
            seat=seat,
            seq=seq,
            prev=sync.log.head,
            kind="move",
            body=b"x" * size,
        )
        for seq in places
    ]


def test_an_envelope_larger_than_its_kind_is_refused_and_never_held() -> None:
    network, syncs = open_table(3, LIMITS)
    (big,) = signed_ahead(syncs[0], 0, range(0, 1), 9000)
    syncs[0].mesh.send(syncs[1].identity.key, big.to_wire())
    network.deliver()
    assert not syncs[1].log.holds(0, 0) and syncs[1].log.held_bytes(0) == 0
    (error,) = syncs[1].mesh.errors
    assert "more than a 'move' envelope can carry" in str(error) and "seat 0" in str(error)
    assert not [kind for src, _dst, kind in network.sent if src == syncs[1].identity.key]


def test_a_seat_signing_far_ahead_is_held_to_its_budget_and_named() -> None:
    """Seat 0 signs its next 1,024 places with 8 KB bodies (8 MB); an honest peer holds at most
    its budget of them, the next one due is still taken, and seat 0 is named for the rest,
    also for the copies an honest seat relayed."""
    network, syncs = open_table(3, LIMITS)
    ahead = signed_ahead(syncs[0], 0, range(1, 1025), 8000)
    for envelope in ahead:  # all of them to seat 1; seat 2 gets them only through seat 1
        syncs[0].mesh.send(syncs[1].identity.key, envelope.to_wire())
    later = signed_ahead(syncs[0], 0, range(1000, 1005), 7999)
    for envelope in later:  # other places, within budget at seat 2, relayed by it to seat 1
        syncs[0].mesh.send(syncs[2].identity.key, envelope.to_wire())
    network.deliver()
    for sync in syncs[1:]:
        assert 0 < sync.log.held_bytes(0) <= LIMITS.held_ahead, sync.seat
        assert sync.log.entries == []
        named = [str(e) for e in sync.mesh.errors]
        assert named and all(line.startswith("seat 0 ") for line in named), named[:2]
        assert all("budget" in line for line in named)
    # seat 0's next envelope is at its place: taken whatever is held ahead, and applied
    (first,) = signed_ahead(syncs[0], 0, range(0, 1), 8000)
    syncs[0].mesh.send(syncs[1].identity.key, first.to_wire())
    network.deliver()
    assert syncs[1].log.entries[0] == first and syncs[2].log.entries[0] == first
