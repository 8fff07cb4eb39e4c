"""Hedged nonces: a proof's nonces depend on the secret, the whole statement and
fresh randomness, so a repeated random stream (a reused seed or table id) never repeats a nonce
under a new challenge, and the classic two-shares-one-nonce key recovery fails."""

from __future__ import annotations

from fairdeal.p2p.deck import DeckSession, LoopbackTable, Slot
from fairdeal.p2p.deck.cards import card_point
from fairdeal.p2p.deck.group import (
    G,
    HedgedRandom,
    L,
    add,
    hash_to_scalar,
    mul,
    mul_base,
    random_scalar,
    scalar_bytes,
    u64,
)
from fairdeal.p2p.deck.keys import SecretKey, joint_key
from fairdeal.p2p.deck.masking import MaskedCard
from fairdeal.p2p.deck.shares import DecryptionShare, make_share
from fairdeal.p2p.deck.shuffle import shuffle_and_prove
from fairdeal.p2p.table.runtime.randomness import SeededRandom

from .conftest import TABLE_ID, seeded

SEED = bytes(range(32))


def nonce_of(share: DecryptionShare, secret: int) -> int:
    """w = s − c·x: what the prover drew (the test knows the secret)."""
    return (share.response - share.challenge * secret) % L


def recovered_key(first: DecryptionShare, second: DecryptionShare) -> int:
    """The attack on a repeated nonce: x = (s1 − s2) / (c1 − c2)."""
    return (first.response - second.response) * pow(first.challenge - second.challenge, -1, L) % L


def card(index: int, joint: bytes) -> MaskedCard:
    return MaskedCard(G, add(card_point("larry", index), joint)).rerandomise(index + 5, joint)


def test_same_secret_and_stream_give_different_nonces_for_different_statements() -> None:
    key = SecretKey.generate(0, seeded(1))
    joint = joint_key([key.public, SecretKey.generate(1, seeded(2)).public])
    first = make_share(TABLE_ID, key, card(1, joint), SeededRandom(SEED))
    second = make_share(TABLE_ID, key, card(2, joint), SeededRandom(SEED))
    again = make_share(TABLE_ID, key, card(1, joint), SeededRandom(SEED))
    assert nonce_of(first, key.secret) != nonce_of(second, key.secret)
    assert again == first  # deterministic for one stream and statement: resume replays it
    for share, masked in ((first, card(1, joint)), (second, card(2, joint))):
        share.verify(TABLE_ID, key.public, masked)


def test_share_and_key_nonces_are_derived_as_protocol_md_says() -> None:
    key = SecretKey.generate(3, seeded(1))
    joint = joint_key([key.public, SecretKey.generate(1, seeded(2)).public])
    masked = card(4, joint)
    fresh = bytes(range(100, 132))
    share = make_share(TABLE_ID, key, masked, lambda n: fresh[:n])
    x = scalar_bytes(key.secret)
    items = (TABLE_ID, u64(3), key.public, masked.a, masked.b, share.share, fresh)
    assert nonce_of(share, key.secret) == hash_to_scalar(b"nonce/share", x, *items)
    proof = key.publish(TABLE_ID, lambda n: fresh[:n]).proof
    w = (proof.response - proof.challenge * key.secret) % L
    assert w == hash_to_scalar(b"nonce/key", x, TABLE_ID, u64(3), key.public, fresh)


def test_the_fresh_randomness_still_counts() -> None:
    key = SecretKey.generate(0, seeded(1))
    joint = joint_key([key.public, SecretKey.generate(1, seeded(2)).public])
    masked = card(1, joint)
    one = make_share(TABLE_ID, key, masked, SeededRandom(SEED))
    other = make_share(TABLE_ID, key, masked, SeededRandom(bytes(32)))
    assert nonce_of(one, key.secret) != nonce_of(other, key.secret)


def test_the_attack_recovers_the_key_from_an_unhedged_repeated_nonce() -> None:
    """Control: the attack formula works when the nonce repeats, so the next test can fail."""
    key = SecretKey.generate(0, seeded(1))
    joint = joint_key([key.public, SecretKey.generate(1, seeded(2)).public])
    shares = []
    for index in (1, 2):
        masked = card(index, joint)
        w = random_scalar(SeededRandom(SEED))  # the old derivation: the stream alone
        d = mul(key.secret, masked.a)
        t1, t2 = mul_base(w), mul(w, masked.a)
        c = hash_to_scalar(b"share", TABLE_ID, u64(0), key.public, masked.a, masked.b, d, t1, t2)
        shares.append(DecryptionShare(0, d, c, (w + c * key.secret) % L))
    assert recovered_key(*shares) == key.secret


def two_games_with_a_repeated_seat_stream(table_id: bytes) -> list[LoopbackTable]:
    """Two 2-seat games in which seat 0 reuses its seed and the table id repeats; seat 1 is
    fresh each time, so the decks differ. Each deals slot 0 to seat 1: seat 0 publishes a share."""
    games = []
    for other_seed in (b"\x01" * 32, b"\x02" * 32):
        sessions = [
            DeckSession(table_id, 0, 2, random_bytes=SeededRandom(SEED)),
            DeckSession(table_id, 1, 2, random_bytes=SeededRandom(other_seed)),
        ]
        table = LoopbackTable(sessions)
        table.command(lambda s: s.start())
        table.command(lambda s: s.new_deck("d0", "larry", range(8)))
        table.command(lambda s: s.deal({Slot("d0", 0): 1}))
        games.append(table)
    return games


def published(table: LoopbackTable, kind: str, seat: int) -> dict:
    return next(m for sender, m in table.log if m["kind"] == kind and sender == seat)


def test_a_repeated_table_id_and_seed_no_longer_reveal_the_key() -> None:
    first, second = two_games_with_a_repeated_seat_stream(TABLE_ID)
    keys = [published(game, "deck.key", 0) for game in (first, second)]
    assert keys[0]["Y"] == keys[1]["Y"]  # the same secret key in both games
    assert keys[0] == keys[1]  # the same statement: the same proof, nothing new leaks
    shares = [
        DecryptionShare.from_data(published(game, "deck.shares", 0)["shares"][0]["share"], 1)
        for game in (first, second)
    ]
    assert shares[0].challenge != shares[1].challenge  # two different cards
    guess = recovered_key(*shares)
    assert mul_base(guess) != keys[0]["Y"]


def test_shuffle_nonces_differ_when_only_the_input_deck_differs() -> None:
    keys = [SecretKey.generate(seat, seeded(seat)) for seat in range(2)]
    joint = joint_key([k.public for k in keys])
    deck_a = tuple(card(i, joint) for i in range(6))
    deck_b = tuple(card(i + 10, joint) for i in range(6))
    perm = [3, 1, 4, 0, 5, 2]
    one = shuffle_and_prove(TABLE_ID, "d0", 0, joint, deck_a, SeededRandom(SEED), perm)
    two = shuffle_and_prove(TABLE_ID, "d0", 0, joint, deck_b, SeededRandom(SEED), perm)
    # c_π(i) = r_π(i)·G + h_i with the same π: equal commitments would mean equal nonces r.
    assert not set(one.proof.commitments) & set(two.proof.commitments)
    assert not set(one.proof.s_hat) & set(two.proof.s_hat)


def test_hedged_stream_is_bound_to_every_input_and_hides_its_key() -> None:
    def draw(label: bytes, secret: bytes, statement: bytes, fresh: bytes) -> bytes:
        return HedgedRandom(label, secret, statement, lambda n: fresh[:n])(64)

    base = draw(b"share", b"x", b"st", bytes(32))
    assert draw(b"key", b"x", b"st", bytes(32)) != base
    assert draw(b"share", b"y", b"st", bytes(32)) != base
    assert draw(b"share", b"x", b"su", bytes(32)) != base
    assert draw(b"share", b"x", b"st", b"\x01" * 32) != base
    stream = HedgedRandom(b"share", b"secret", b"st", lambda n: bytes(n))
    assert "secret" not in repr(stream) and stream._key.hex() not in repr(stream)
    assert stream(10) + stream(100) == HedgedRandom(b"share", b"secret", b"st", bytes)(110)
