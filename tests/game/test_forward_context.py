"""A give-away's signed forward names its table's game in the signature context (protocol.md
10.8): "fairdeal/<game>.forward/v1" and a zero byte. For Larry, the game whose cards are given
away, the bytes are the ones every peer has always signed; a forward signed for a table of
another game does not verify at a Larry table."""

from __future__ import annotations

from fairdeal.p2p.canonical import pack_canonical
from fairdeal.p2p.deck.messages import FORWARD
from fairdeal.p2p.identity import Identity, verify_signature
from fairdeal.p2p.table.core.forwards import (
    SignedForward,
    forward_context,
    forward_statement,
    sign_forward,
)

TABLE = b"t" * 16
BODY = {"kind": FORWARD, "seat": 0, "to": 1, "shares": []}


def test_the_context_of_a_larry_forward_is_the_bytes_peers_sign() -> None:
    assert forward_context("larry") == b"fairdeal/larry.forward/v1\x00"
    statement = {"table": TABLE, "transfer": 4, "slot": 9, "m": BODY}
    wanted = b"fairdeal/larry.forward/v1\x00" + pack_canonical(statement)
    assert forward_statement("larry", TABLE, 4, 9, BODY) == wanted
    giver = Identity.generate("giver")
    forward = sign_forward(giver.sign, TABLE, 4, 9, BODY, game="larry")
    assert verify_signature(giver.key, forward.signature, wanted)


def test_a_forward_signed_for_another_game_does_not_verify_at_a_larry_table() -> None:
    giver = Identity.generate("giver")
    forward = sign_forward(giver.sign, TABLE, 4, 9, BODY, game="lie")
    read = SignedForward.from_data(forward.to_data(), 2)
    assert read.verify(TABLE, giver.key, "lie")
    assert not read.verify(TABLE, giver.key, "larry")
    assert not read.verify(b"u" * 16, giver.key, "lie")  # another table: refused too
