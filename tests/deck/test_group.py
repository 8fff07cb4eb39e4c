"""The group layer: every point from outside is checked to lie in the prime-order subgroup."""

from __future__ import annotations

import pytest
from nacl import bindings as sodium

from fairdeal.p2p.deck.errors import ParseError
from fairdeal.p2p.deck.group import (
    IDENTITY,
    G,
    L,
    add,
    hash_to_point,
    is_valid_point,
    mul,
    mul_base,
    parse_point,
    parse_scalar,
    pedersen_generators,
    scalar_bytes,
    transcript,
)

SMALL_ORDER = {
    "identity": "0100000000000000000000000000000000000000000000000000000000000000",
    "order 2": "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "order 4": "0000000000000000000000000000000000000000000000000000000000000000",
    "order 4, other sign": "0000000000000000000000000000000000000000000000000000000000000080",
    "order 8": "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "order 8, other": "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
}
NON_CANONICAL = {
    "y = p (≡ 0)": "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "y = p + 1 (≡ 1)": "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "x = 0 with sign bit": "0100000000000000000000000000000000000000000000000000000000000080",
}
NOT_ON_CURVE = "0200000000000000000000000000000000000000000000000000000000000000"


@pytest.mark.parametrize("name", sorted(SMALL_ORDER))
def test_small_order_points_are_rejected(name: str) -> None:
    raw = bytes.fromhex(SMALL_ORDER[name])
    # They are points of the curve (libsodium can add them), just not of the prime-order group.
    assert sodium.crypto_core_ed25519_add(raw, G)
    with pytest.raises(ParseError, match="prime-order"):
        parse_point(raw)


@pytest.mark.parametrize("name", sorted(NON_CANONICAL))
def test_non_canonical_encodings_are_rejected(name: str) -> None:
    raw = bytes.fromhex(NON_CANONICAL[name])
    assert sodium.crypto_core_ed25519_add(raw, G)  # decodes, but not canonically
    with pytest.raises(ParseError):
        parse_point(raw)


def test_mixed_order_point_is_rejected() -> None:
    torsion = bytes.fromhex(SMALL_ORDER["order 8"])
    mixed = add(hash_to_point(b"test"), torsion)
    assert mixed != hash_to_point(b"test")
    assert not is_valid_point(mixed)
    with pytest.raises(ParseError):
        parse_point(mixed)


def test_off_curve_and_wrong_length_are_rejected() -> None:
    for raw in (bytes.fromhex(NOT_ON_CURVE), G[:31], G + b"\x00", "not bytes", None):
        with pytest.raises(ParseError):
            parse_point(raw)


def test_valid_points_parse() -> None:
    assert parse_point(G) == G
    assert parse_point(mul_base(12345)) == mul_base(12345)


def test_scalars_must_be_canonical() -> None:
    assert parse_scalar(scalar_bytes(L - 1)) == L - 1
    for raw in (L.to_bytes(32, "little"), (2**256 - 1).to_bytes(32, "little"), b"\x01" * 31):
        with pytest.raises(ParseError):
            parse_scalar(raw)


def test_hash_to_point_gives_distinct_subgroup_points_with_domain_separation() -> None:
    points = {hash_to_point(b"card", bytes([i])) for i in range(32)}
    assert len(points) == 32
    assert all(is_valid_point(p) for p in points)
    assert hash_to_point(b"card", b"x") != hash_to_point(b"other", b"x")
    assert IDENTITY not in points


def test_pedersen_generators_are_valid_distinct_and_prefix_stable() -> None:
    gens = pedersen_generators(10)
    assert len(set(gens)) == 10
    assert all(is_valid_point(h) for h in gens)
    assert pedersen_generators(20)[:10] == gens


def test_transcript_is_unambiguous() -> None:
    # Length prefixes: moving a byte between items changes the hash.
    assert transcript(b"x", b"ab", b"c") != transcript(b"x", b"a", b"bc")
    assert transcript(b"x", b"ab") != transcript(b"xa", b"b")


def test_scalar_multiplication_agrees_with_the_base_point() -> None:
    assert mul(7, G) == mul_base(7)
    assert add(mul_base(3), mul_base(4)) == mul_base(7)
