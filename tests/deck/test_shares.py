"""Decryption shares with Chaum–Pedersen proofs (attacks (f), (g))."""

from __future__ import annotations

import pytest

from fairdeal.p2p.deck.cards import card_point
from fairdeal.p2p.deck.errors import ParseError, ProofError
from fairdeal.p2p.deck.group import G, add, mul_base, sub
from fairdeal.p2p.deck.keys import SecretKey, joint_key
from fairdeal.p2p.deck.masking import MaskedCard, open_mask
from fairdeal.p2p.deck.shares import DecryptionShare, make_share

from .conftest import TABLE_ID, seeded

KEYS = [SecretKey.generate(seat, seeded(10 + seat)) for seat in range(3)]
JOINT = joint_key([k.public for k in KEYS])


def masked(card: int, r: int) -> MaskedCard:
    return MaskedCard(G, add(card_point("larry", card), JOINT)).rerandomise(r, JOINT)


def test_all_shares_open_the_card_and_every_proof_verifies() -> None:
    card = masked(17, 99)
    shares = [make_share(TABLE_ID, k, card, seeded(k.seat)) for k in KEYS]
    for key, share in zip(KEYS, shares, strict=True):
        share.verify(TABLE_ID, key.public, card)
        assert DecryptionShare.from_data(share.to_data(), 2) == share
    assert open_mask(card, [s.share for s in shares]) == card_point("larry", 17)


def test_wrong_share_is_rejected_blaming_its_seat() -> None:
    card = masked(3, 5)
    honest = make_share(TABLE_ID, KEYS[1], card, seeded(1))
    wrong = DecryptionShare(1, add(honest.share, G), honest.challenge, honest.response)
    with pytest.raises(ProofError) as info:
        wrong.verify(TABLE_ID, KEYS[1].public, card)
    assert info.value.seat == 1


def test_share_from_another_key_is_rejected() -> None:
    card = masked(3, 5)
    impostor = make_share(TABLE_ID, SecretKey(1, KEYS[2].secret, KEYS[2].public), card, seeded(1))
    with pytest.raises(ProofError) as info:
        impostor.verify(TABLE_ID, KEYS[1].public, card)
    assert info.value.seat == 1


def test_share_proof_for_another_masked_card_is_rejected() -> None:
    card, other = masked(3, 5), masked(3, 6)
    share = make_share(TABLE_ID, KEYS[0], other, seeded(1))
    with pytest.raises(ProofError) as info:
        share.verify(TABLE_ID, KEYS[0].public, card)
    assert info.value.seat == 0
    # Same A, other B: still another card, still rejected (B is in the transcript).
    same_a = MaskedCard(other.a, sub(other.b, mul_base(1)))
    with pytest.raises(ProofError):
        share.verify(TABLE_ID, KEYS[0].public, same_a)


def test_flipped_share_bytes_and_bad_points_are_rejected() -> None:
    card = masked(8, 2)
    data = make_share(TABLE_ID, KEYS[2], card, seeded(3)).to_data()
    flipped = {**data, "c": bytes([data["c"][0] ^ 0x40]) + data["c"][1:]}
    with pytest.raises(ProofError) as info:
        DecryptionShare.from_data(flipped, 2).verify(TABLE_ID, KEYS[2].public, card)
    assert info.value.seat == 2
    small = {**data, "d": bytes(32)}
    with pytest.raises(ParseError) as parse_info:
        DecryptionShare.from_data(small, 2)
    assert parse_info.value.seat == 2
