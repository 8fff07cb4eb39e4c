"""A seat's restart bookkeeping (p2p/table/runtime/recovery.py): what it signed before the crash is
dropped once each, its choices never are, and it is over only when nobody is left to hear back
from and nothing regenerated is left to drop (then the pump forgets it)."""

from __future__ import annotations

from typing import Any

from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.envelope import Envelope, sign_envelope
from fairdeal.p2p.table.runtime.recovery import Recovery

TABLE = b"t" * 16
CHOICES = frozenset({"game.act"})
IDENTITY = Identity.generate("seat 0", random_bytes=lambda n: b"\x01" * n)


def signed(seq: int, kind: str, body: Any) -> Envelope:
    return sign_envelope(
        IDENTITY, table=TABLE, seat=0, seq=seq, prev=b"p" * 32, kind=kind, body=body
    )


def test_a_new_seat_has_no_restart_to_keep() -> None:
    recovery = Recovery(0)
    assert recovery.over and not recovery.recovering
    assert not recovery.signed_already("deck", {"shares": 1}, CHOICES)


def test_the_restart_is_over_once_answered_and_every_regenerated_item_dropped() -> None:
    recovery = Recovery(0)
    shares, act = {"shares": [1, 2]}, {"type": "Play"}
    recovery.begin([signed(1, "deck", shares), signed(2, "game.act", act)], CHOICES, {1})
    assert recovery.recovering and not recovery.over  # seat 1 has not sent back ours yet
    recovery.waiting.discard(1)
    assert not recovery.recovering and not recovery.over  # the shares are still to be dropped
    assert not recovery.signed_already("game.act", act, CHOICES)  # a choice is never dropped
    assert not recovery.signed_already("deck", {"shares": [3]}, CHOICES)  # nor a new message
    assert not recovery.over
    assert recovery.signed_already("deck", shares, CHOICES)  # dropped once
    assert recovery.over
    assert not recovery.signed_already("deck", shares, CHOICES)  # and only once
