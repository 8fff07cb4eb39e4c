"""Hypothesis fuzzing of everything that parses bytes from a peer: no crash, no hang, bounded
memory, and a clear error of the expected class for anything that is not valid."""

from __future__ import annotations

import contextlib
import time

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairdeal.p2p.canonical import NotCanonical, pack_canonical, unpack_canonical
from fairdeal.p2p.errors import EnvelopeError, FrameTooLarge, HandshakeError, MalformedFrame
from fairdeal.p2p.log.envelope import decode_envelope, parse_envelope, sign_envelope
from fairdeal.p2p.log.tablelog import genesis_head
from fairdeal.p2p.net.framing import PREFIX_SIZE, FrameDecoder, encode_frame, unpack_message
from fairdeal.p2p.net.handshake import Initiator, Responder
from tests.p2p.core_support import make_identity

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ_VALUES = settings(FUZZ, max_examples=100)  # structured values cost more per example
CAP = 256

values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(1 << 63), max_value=(1 << 64) - 1)
    | st.text(max_size=20)
    | st.binary(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=20,
)


@FUZZ
@given(st.lists(st.binary(max_size=CAP), max_size=8), st.data())
def test_frames_survive_any_split_of_the_stream(payloads: list[bytes], data: st.DataObject) -> None:
    stream = b"".join(encode_frame(p, CAP) for p in payloads)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    decoder = FrameDecoder("peer", CAP)
    frames: list[bytes] = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        frames += decoder.feed(stream[start:end])
    assert frames == payloads and decoder.pending == 0


@FUZZ
@given(st.lists(st.binary(max_size=600), max_size=10))
def test_frame_decoder_on_garbage_keeps_memory_bounded(chunks: list[bytes]) -> None:
    decoder = FrameDecoder("peer-7", CAP)
    for chunk in chunks:
        try:
            frames = decoder.feed(chunk)
        except FrameTooLarge as error:
            assert error.culprit == "peer-7" and "exceeds the cap" in str(error)
            return
        assert all(len(frame) <= CAP for frame in frames)
        assert decoder.pending < PREFIX_SIZE + CAP


def test_oversized_prefix_is_refused_before_any_body_arrives() -> None:
    decoder = FrameDecoder("peer-3", CAP)
    with pytest.raises(FrameTooLarge, match="peer-3: frame of 4294967295 bytes"):
        decoder.feed(b"\xff\xff\xff\xff")


@FUZZ
@given(st.binary(max_size=300))
def test_message_decoder_returns_a_typed_map_or_a_clear_error(payload: bytes) -> None:
    try:
        message = unpack_message(payload, "peer")
    except MalformedFrame as error:
        assert error.culprit == "peer"
        return
    assert isinstance(message, dict) and isinstance(message["t"], str)


def test_claimed_huge_containers_fail_fast() -> None:
    for bomb in (b"\xdd\xff\xff\xff\xff", b"\xdf\xff\xff\xff\xff", b"\xc6\xff\xff\xff\xff"):
        started = time.perf_counter()
        with pytest.raises(MalformedFrame):
            unpack_message(bomb + b"\x00" * 16, "peer")
        assert time.perf_counter() - started < 0.5
    deep = b"\x91" * 100_000 + b"\xc0"  # an array nested 100 000 deep
    with pytest.raises(MalformedFrame):
        unpack_message(deep, "peer")


@FUZZ_VALUES
@given(values)
def test_canonical_encoding_round_trips_and_is_unique(value: object) -> None:
    packed = pack_canonical(value)
    assert unpack_canonical(packed) == value
    assert pack_canonical(unpack_canonical(packed)) == packed


def test_non_canonical_bytes_are_refused() -> None:
    reordered = b"\x82\xa1b\x01\xa1a\x02"  # {"b": 1, "a": 2}: keys out of order
    long_int = b"\xcd\x00\x01"  # 1 written as uint16
    for data in (reordered, long_int, msgpack.packb(1.5), b"\xd4\x05\x00"):
        with pytest.raises(NotCanonical):
            unpack_canonical(data)


@FUZZ
@given(st.binary(max_size=200), st.binary(min_size=64, max_size=64))
def test_envelope_parser_on_random_bytes(signed: bytes, signature: bytes) -> None:
    try:
        envelope = decode_envelope(signed, signature, "peer")
    except EnvelopeError as error:
        assert error.culprit == "peer"
        return
    assert envelope.signed == signed


IDENTITY = make_identity(0)
VALID = sign_envelope(
    IDENTITY,
    table=b"table",
    seat=0,
    seq=3,
    prev=genesis_head(b"table"),
    kind="move",
    body={"cards": [1, 2], "say": "seven"},
)


@FUZZ
@given(st.data())
def test_mutated_envelopes_never_verify(data: st.DataObject) -> None:
    signed = bytearray(VALID.signed)
    position = data.draw(st.integers(0, len(signed) - 1))
    signed[position] ^= data.draw(st.integers(1, 255))
    try:
        envelope = parse_envelope({"t": "env", "d": bytes(signed), "s": VALID.signature}, "peer")
    except EnvelopeError:
        return
    assert not envelope.verify(IDENTITY.key)


@FUZZ_VALUES
@given(values)
def test_envelope_wire_messages_of_any_shape(message: object) -> None:
    wire = message if isinstance(message, dict) else {"t": "env", "d": message, "s": message}
    with contextlib.suppress(EnvelopeError):
        parse_envelope(wire, "peer")


@FUZZ
@given(st.binary(max_size=300))
def test_handshake_responder_on_random_hello(payload: bytes) -> None:
    responder = Responder(make_identity(1), "addr")
    try:
        responder.hello_ack(payload)
    except (HandshakeError, MalformedFrame) as error:
        assert error.culprit == "addr"


@FUZZ
@given(st.binary(max_size=300))
def test_handshake_initiator_on_random_reply(payload: bytes) -> None:
    initiator = Initiator(make_identity(0), "addr")
    initiator.hello()
    try:
        initiator.auth(payload)
    except (HandshakeError, MalformedFrame) as error:
        assert error.culprit == "addr"


def test_signing_and_checking_agree_on_the_depth_limit() -> None:
    deepest: object = 1
    for _ in range(32):
        deepest = [deepest]
    assert unpack_canonical(pack_canonical(deepest)) == deepest
    too_deep = [deepest]
    with pytest.raises(NotCanonical, match="deeper"):
        pack_canonical(too_deep)
    with pytest.raises(NotCanonical, match="deeper"):
        unpack_canonical(msgpack.packb(too_deep))


def test_nested_timestamps_and_floats_are_refused() -> None:
    for value in ([msgpack.Timestamp(1, 0)], {"a": [1.0]}):
        with pytest.raises(NotCanonical):
            unpack_canonical(msgpack.packb(value, use_bin_type=True))
