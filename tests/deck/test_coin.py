"""The commit–reveal joint coin (attack (j)) and the seed stream derived from it."""

from __future__ import annotations

from collections import Counter

import pytest

from fairdeal.p2p.deck import CoinFlipped, DeckFault, LoopbackTable, ProofError, SeedStream

from .conftest import keyed_table


def test_honest_coin_gives_every_seat_the_same_seed() -> None:
    table = keyed_table(4)
    table.command(lambda s: s.coin("seat-order"))
    seeds = {s.coin_seed("seat-order") for s in table.sessions}
    assert len(seeds) == 1 and None not in seeds
    assert all(isinstance(ev[-1], CoinFlipped) for ev in table.events)


def test_reveal_not_matching_commitment_is_rejected_blaming_the_revealer() -> None:
    table = keyed_table(3)

    def lie(sender: int, message: dict) -> dict:
        if message["kind"] == "deck.coin.reveal" and sender == 2:
            return {**message, "value": bytes(32)}
        return message

    table.tamper = lie
    with pytest.raises(ProofError) as info:
        table.command(lambda s: s.coin("first-player"))
    assert info.value.seat == 2
    assert "commitment" in info.value.what


def test_reveal_before_all_commitments_is_a_fault() -> None:
    table: LoopbackTable = keyed_table(2)
    out = [s.coin("c") for s in table.sessions]
    commit0 = out[0].messages[0]
    table.sessions[1].handle(0, commit0)
    early = {
        "kind": "deck.coin.reveal",
        "seat": 0,
        "coin": "c",
        "nonce": bytes(32),
        "value": bytes(32),
    }
    with pytest.raises(DeckFault) as info:
        table.sessions[1].handle(0, early)
    assert info.value.seat == 0


def test_seed_stream_is_deterministic_and_covers_every_permutation() -> None:
    assert SeedStream(b"s").permutation(6) == SeedStream(b"s").permutation(6)
    counts = Counter(
        tuple(SeedStream(bytes([i, j])).permutation(3)) for i in range(20) for j in range(30)
    )
    assert len(counts) == 6
    assert min(counts.values()) > 60  # 600 draws, 100 expected per permutation
