"""The Lie between networked peers (TablePeer) over a real loopback Mesh: three seats play a whole
round with the full fair deck, real channels and transcripts (T3-T10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal.engine.lie import LieOptions, Phase
from fairdeal.p2p.table.api import CardsVerified, ProofStatus
from fairdeal.p2p.table.audit import audit_many

from .support import open_table, play_to_end

pytestmark = pytest.mark.timeout(120)


def quick(**changes: object) -> LieOptions:
    values: dict[str, object] = {"rounds": 1, "hand_size": 3}
    values.update(changes)
    return LieOptions(**values)  # type: ignore[arg-type]


async def test_three_peers_play_a_whole_round_of_the_lie(tmp_path: Path) -> None:
    table = await open_table(3, tmp_path, quick(), seed=4)
    try:
        await play_to_end(table, timeout=90)
        states = [peer.table.state for peer in table.peers]
        assert all(peer.table.fault is None for peer in table.peers)
        assert len({peer.table.head for peer in table.peers}) == 1  # one log everywhere
        assert all(s.phase is Phase.GAME_OVER for s in states)
        assert len({(s.scores, s.winners, s.prizes) for s in states}) == 1
        for peer in table.peers:
            verified = [e for e in peer.history.events if isinstance(e, CardsVerified)]
            assert all(c.proof is ProofStatus.VERIFIED for e in verified for c in e.cards)
            # T3: every card dealt to this seat, its front known to it alone, once
            claimed = [c for e in verified if e.reason == "claim" for c in e.cards]
            assert all(e.seat == peer.seat for e in verified if e.reason == "claim")
            assert len(claimed) == 3 and len({c.slot for c in claimed}) == 3
            # T5: every combination played is opened for everyone
            plays = [e for e in verified if e.reason == "play"]
            assert plays and all(len(e.cards) in (1, 2, 3) for e in plays)
            # T10: each seat's prizes turned over at the end
            prizes = {e.seat: e.cards for e in verified if e.reason == "prizes"}
            final = peer.table.state
            assert {s: tuple(c.slot for c in cards) for s, cards in prizes.items()} == dict(
                enumerate(final.prizes)
            )
            assert peer.timings.claim_latencies and len(peer.timings.claim_latencies) <= 3
    finally:
        await table.close()
    reports, disagreement = audit_many([table.transcript(s) for s in range(3)])
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]
