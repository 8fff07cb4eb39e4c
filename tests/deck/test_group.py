"""The group layer: every point from outside is a canonical Ristretto255 encoding (RFC 9496)."""

from __future__ import annotations

import pytest

from fairdeal.p2p.deck.errors import ParseError
from fairdeal.p2p.deck.group import (
    IDENTITY,
    G,
    GroupError,
    L,
    add,
    hash_to_point,
    is_valid_point,
    mul,
    mul_base,
    parse_point,
    parse_scalar,
    pedersen_generators,
    random_scalar,
    scalar_bytes,
    sub,
    transcript,
)

# RFC 9496 Appendix A.1: encodings of 0·G … 5·G.
MULTIPLES = [
    "0000000000000000000000000000000000000000000000000000000000000000",
    "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
    "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919",
    "94741f5d5d52755ece4f23f044ee27d5d1ea1e2bd196b462166b16152a9d0259",
    "da80862773358b466ffadfe0b3293ab3d9fd53c5ea6c955358f568322daf6a57",
    "e882b131016b52c1d3337080187cf768423efccbb517bb495ab812c4160ff44e",
]
# RFC 9496 Appendix A.2: bad encodings, by the reason decoding refuses them.
BAD_ENCODINGS = {
    "non-canonical field encoding": [
        "00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "f3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    ],
    "negative field element": [
        "0100000000000000000000000000000000000000000000000000000000000000",
        "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "ed57ffd8c914fb201471d1c3d245ce3c746fcbe63a3679d51b6a516ebebe0e20",
        "c34c4e1826e5d403b78e246e88aa051c36ccf0aafebffe137d148a2bf9104562",
        "c940e5a4404157cfb1628b108db051a8d439e1a421394ec4ebccb9ec92a8ac78",
        "47cfc5497c53dc8e61c91d17fd626ffb1c49e2bca94eed052281b510b1117a24",
        "f1c6165d33367351b0da8f6e4511010c68174a03b6581212c71c0e1d026c3c72",
        "87260f7a2f12495118360f02c26a470f450dadf34a413d21042b43b9d93e1309",
    ],
    "non-square x^2": [
        "26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371",
        "4eac077a713c57b4f4397629a4145982c661f48044dd3f96427d40b147d9742f",
        "de6a7b00deadc788eb6b6c8d20c0ae96c2f2019078fa604fee5b87d6e989ad7b",
        "bcab477be20861e01e4a0e295284146a510150d9817763caf1a6f4b422d67042",
        "2a292df7e32cababbd9de088d1d1abec9fc0440f637ed2fba145094dc14bea08",
        "f4a9e534fc0d216c44b218fa0c42d99635a0127ee2e53c712f70609649fdff22",
        "8268436f8c4126196cf64b3c7ddbda90746a378625f9813dd9b8457077256731",
        "2810e5cbc2cc4d4eece54f61c6f69758e289aa7ab440b3cbeaa21995c2f4232b",
    ],
    "negative xy": [
        "3eb858e78f5a7254d8c9731174a94f76755fd3941c0ac93735c07ba14579630e",
        "a45fdc55c76448c049a1ab33f17023edfb2be3581e9c7aade8a6125215e04220",
        "d483fe813c6ba647ebbfd3ec41adca1c6130c2beeee9d9bf065c8d151c5f396e",
        "8a2e1d30050198c65a54483123960ccc38aef6848e1ec8f5f780e8523769ba32",
        "32888462f8b486c68ad7dd9610be5192bbeaf3b443951ac1a8118419d9fa097b",
        "227142501b9d4355ccba290404bde41575b037693cef1f438c47f8fbf35d1165",
        "5c37cc491da847cfeb9281d407efc41e15144c876e0170b499a96a22ed31e01e",
        "445425117cb8c90edcbc7c1cc0e74f747f2c1efa5630a967c64f287792a48a4b",
    ],
    "s = -1 (y = 0)": ["ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"],
}
BAD = [(reason, raw) for reason, values in BAD_ENCODINGS.items() for raw in values]


def test_generator_multiples_match_rfc_9496() -> None:
    assert G.hex() == MULTIPLES[1]
    for k in range(1, 6):
        assert mul_base(k).hex() == MULTIPLES[k]
        assert parse_point(bytes.fromhex(MULTIPLES[k])) == mul_base(k)
    assert IDENTITY.hex() == MULTIPLES[0]


@pytest.mark.parametrize(("reason", "raw"), BAD, ids=[f"{r}-{i}" for i, (r, _) in enumerate(BAD)])
def test_rfc_9496_bad_encodings_are_rejected(reason: str, raw: str) -> None:
    assert not is_valid_point(bytes.fromhex(raw))
    with pytest.raises(ParseError, match="not a canonical Ristretto255 encoding"):
        parse_point(bytes.fromhex(raw))


def test_the_identity_is_rejected() -> None:
    assert not is_valid_point(IDENTITY)
    with pytest.raises(ParseError, match="identity"):
        parse_point(IDENTITY)
    with pytest.raises(ParseError, match="identity"):
        parse_point(sub(G, G))


def test_non_canonical_encoding_of_a_valid_point_is_rejected() -> None:
    # The field element s of 2·G plus p encodes the same s modulo p, but not canonically.
    p = 2**255 - 19
    s = int.from_bytes(mul_base(2), "little")
    assert s + p < 2**256
    with pytest.raises(ParseError):
        parse_point((s + p).to_bytes(32, "little"))


def test_off_group_and_wrong_length_are_rejected() -> None:
    for raw in (G[:31], G + b"\x00", "not bytes", None, bytearray(G)):
        with pytest.raises(ParseError):
            parse_point(raw)


def test_zero_scalar_multiplication_is_refused() -> None:
    with pytest.raises(GroupError):
        mul(0, G)
    with pytest.raises(GroupError):
        mul(L, G)
    with pytest.raises(GroupError):
        mul_base(0)


def test_valid_points_parse() -> None:
    assert parse_point(G) == G
    assert parse_point(mul_base(12345)) == mul_base(12345)


def test_scalars_must_be_canonical() -> None:
    assert parse_scalar(scalar_bytes(L - 1)) == L - 1
    for raw in (L.to_bytes(32, "little"), (2**256 - 1).to_bytes(32, "little"), b"\x01" * 31):
        with pytest.raises(ParseError):
            parse_scalar(raw)


def test_hash_to_point_gives_distinct_valid_points_with_domain_separation() -> None:
    points = {hash_to_point(b"card", bytes([i])) for i in range(32)}
    assert len(points) == 32
    assert all(is_valid_point(p) for p in points)
    assert all(parse_point(p) == p for p in points)
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


# RFC 9496 §4.3.1: s must be a canonical field element (below p = 2^255 − 19) and non-negative
# (even). libsodium masks the top bit before decoding, so without our own check every element
# had a twin encoding with that bit set, and 00…80 decoded to the identity.
FIELD_P = 2**255 - 19
TOP_BIT_TWINS = [
    (f"{k}G", mul_base(k)[:31] + bytes([mul_base(k)[31] | 0x80])) for k in (1, 2, 3, 4, 5, 12345)
]


@pytest.mark.parametrize(("name", "twin"), TOP_BIT_TWINS, ids=[n for n, _ in TOP_BIT_TWINS])
def test_the_top_bit_twin_of_every_point_is_rejected(name: str, twin: bytes) -> None:
    canonical = twin[:31] + bytes([twin[31] & 0x7F])
    assert parse_point(canonical) == canonical
    assert not is_valid_point(twin)
    with pytest.raises(ParseError, match="not a canonical Ristretto255 encoding"):
        parse_point(twin)


def test_the_identitys_top_bit_twin_is_rejected() -> None:
    twin = bytes(31) + b"\x80"
    assert not is_valid_point(twin)
    with pytest.raises(ParseError, match="not a canonical Ristretto255 encoding"):
        parse_point(twin)


def test_field_twins_are_rejected() -> None:
    # s and s + p encode the same field element. For s < 19, s + p is below 2^255 (libsodium
    # refuses it); from s = 19 on it has the top bit set, and libsodium alone decoded its masked
    # value s − 19 (the identity for s = 19, 2·G's twin for s = s(2·G) + 19, ...).
    candidates = list(range(41)) + [int.from_bytes(mul_base(k), "little") for k in (1, 2, 3)]
    for s in candidates:
        twin = (s + FIELD_P).to_bytes(32, "little")
        assert not is_valid_point(twin), s
        with pytest.raises(ParseError):
            parse_point(twin)


def test_a_negative_s_is_rejected_even_when_libsodium_would_mask_it() -> None:
    # s = p − s0 is −s0: odd, so negative; refused with the top bit set or clear.
    s0 = int.from_bytes(G, "little")
    negated = (FIELD_P - s0).to_bytes(32, "little")
    for raw in (negated, negated[:31] + bytes([negated[31] | 0x80])):
        with pytest.raises(ParseError, match="not a canonical Ristretto255 encoding"):
            parse_point(raw)


def test_a_random_source_that_gives_only_zeros_is_refused_not_looped_on() -> None:
    """A zero scalar is redrawn (2^-252 from a working source), but a source that only ever gives
    zeros is broken (an injected generator gone wrong): refused by name after a few draws, never
    asked for ever (DeckSession(random_bytes=lambda n: bytes(n)) hung while it was built)."""
    draws: list[int] = []

    def zeros(count: int) -> bytes:
        draws.append(count)
        assert len(draws) <= 100, "random_scalar kept drawing from a source that gives only zeros"
        return bytes(count)

    with pytest.raises(GroupError, match="random source"):
        random_scalar(zeros)
    assert 1 < len(draws) <= 8
