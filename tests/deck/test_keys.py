"""Keys: Schnorr proofs of knowledge bound to table and seat (attack (h))."""

from __future__ import annotations

import pytest

from fairdeal.p2p.deck.errors import ParseError, ProofError
from fairdeal.p2p.deck.group import G, add, mul_base
from fairdeal.p2p.deck.keys import PublicKeyShare, SchnorrProof, SecretKey, joint_key

from .conftest import TABLE_ID, seeded


def test_honest_key_proof_verifies_and_round_trips() -> None:
    key = SecretKey.generate(2, seeded(1))
    share = key.publish(TABLE_ID, seeded(2))
    share.verify(TABLE_ID)
    again = PublicKeyShare.from_data(share.to_data(), max_seat=5)
    assert again == share
    again.verify(TABLE_ID)


def test_key_proof_replayed_for_another_seat_is_rejected_and_blames_the_replayer() -> None:
    victim = SecretKey.generate(0, seeded(1)).publish(TABLE_ID, seeded(2))
    replay = PublicKeyShare(1, victim.public, victim.proof)
    with pytest.raises(ProofError) as info:
        replay.verify(TABLE_ID)
    assert info.value.seat == 1


def test_key_proof_replayed_at_another_table_is_rejected() -> None:
    share = SecretKey.generate(0, seeded(1)).publish(TABLE_ID, seeded(2))
    with pytest.raises(ProofError) as info:
        share.verify(b"another table")
    assert info.value.seat == 0


def test_rogue_key_without_knowledge_is_rejected() -> None:
    honest = SecretKey.generate(0, seeded(1))
    # Seat 1 claims Y_1 = Z − Y_0 to control the joint key; it cannot prove knowledge of its log.
    rogue_public = add(mul_base(5), mul_base(7))
    forged = PublicKeyShare(1, rogue_public, SchnorrProof(3, 4))
    with pytest.raises(ProofError):
        forged.verify(TABLE_ID)
    assert joint_key([honest.public, G]) != honest.public


def test_flipped_proof_bytes_are_rejected() -> None:
    data = SecretKey.generate(3, seeded(1)).publish(TABLE_ID, seeded(2)).to_data()
    data["proof"]["s"] = bytes([data["proof"]["s"][0] ^ 1]) + data["proof"]["s"][1:]
    with pytest.raises(ProofError) as info:
        PublicKeyShare.from_data(data, max_seat=5).verify(TABLE_ID)
    assert info.value.seat == 3


def test_invalid_ristretto_key_is_a_parse_error_blamed_on_its_seat() -> None:
    data = SecretKey.generate(4, seeded(1)).publish(TABLE_ID, seeded(2)).to_data()
    data["Y"] = bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")
    with pytest.raises(ParseError) as info:
        PublicKeyShare.from_data(data, max_seat=5)
    assert info.value.seat == 4


def test_secret_never_in_repr() -> None:
    key = SecretKey.generate(0, seeded(1))
    assert str(key.secret) not in repr(key)
