"""The Lie between networked peers (TablePeer) over a real loopback Mesh: three seats play a whole
round with the full fair deck, real channels and transcripts (T3-T10)."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path

import pytest

from fairdeal.engine.bots import make_bot
from fairdeal.engine.lie import Claim, LieOptions, Phase
from fairdeal.p2p.games.lie.table import LieTable
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.net.redial import keep_connected
from fairdeal.p2p.table.core.api import CardsVerified, ProofStatus, SeatStatus, TableEnded
from fairdeal.p2p.table.runtime.peer import TablePeer, evidence_path
from fairdeal.p2p.table.tools.audit import audit_many, audit_transcript
from fairdeal.p2p.table.tools.rejoin import resume_seated
from fairdeal.p2p.table.tools.resume import resume_point
from tests.game.test_lie_cheating import LooseLockstep

from .support import identity, make_peer, open_table, play_to_end

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


class Gate:
    """A claim pace that ends only when the test opens the gate (no wall clock)."""

    def __init__(self) -> None:
        self.open = asyncio.Event()

    async def __call__(self, _delay: float) -> None:
        await self.open.wait()


async def until_claiming(peers: list[TablePeer]) -> None:
    for peer in peers:
        assert peer.sync is not None and peer.table is not None
        table = peer.table
        await peer.sync.wait_until(lambda t=table: t.state is not None and t.claiming(), 60)


def quiet(peers: list[TablePeer]) -> bool:
    """Every log at one head, holding back nothing, no step under way and no seat with
    anything to say: nothing more will be signed until someone claims (protocol.md 10.11.5)."""
    for peer in peers:
        assert peer.sync is not None and peer.table is not None
    logs = [p.sync.log for p in peers]
    return (
        len({log.head for log in logs}) == 1
        and not any(p.table.outbox for p in peers)
        and not any(log.buffered for log in logs)
        and all(p.table.lockstep.position == 0 and not p.table.lockstep.has_reason() for p in peers)
    )


async def until_quiet(peers: list[TablePeer]) -> None:
    """Wait until `quiet` holds: re-checked by every peer after each envelope it takes in."""
    waits = [asyncio.ensure_future(p.sync.wait_until(lambda: quiet(peers))) for p in peers]
    done, pending = await asyncio.wait(waits, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    assert done, "the table did not go quiet"


async def let_the_loop_run(rounds: int = 200) -> None:
    """Give every task, pump and socket its chance to run (a tick would be signed now)."""
    for _ in range(rounds):
        await asyncio.sleep(0)


async def test_a_quiet_table_sends_nothing_and_a_claim_costs_three_steps(tmp_path: Path) -> None:
    """No heartbeats (protocol.md 10.11.5): with nobody claiming, Phase 1 is silent; one claim
    takes three steps (committed, opened, dealt), then the table is silent again."""
    gate = Gate()
    table = await open_table(3, tmp_path, quick(), seed=5, claim_pace=1.0, bot_sleep=gate)
    try:
        await until_claiming(table.peers)
        await until_quiet(table.peers)
        before = [len(p.sync.log.entries) for p in table.peers]
        await let_the_loop_run()
        assert [len(p.sync.log.entries) for p in table.peers] == before and quiet(table.peers)

        claimer = table.peers[2]
        slot = claimer.table.claimable()[0]
        await claimer.act(Claim(slot))
        await until_quiet(table.peers)
        await let_the_loop_run()
        assert quiet(table.peers)
        assert claimer.table.state.hands[2] == (slot,)  # T3: the claim took effect
        assert {p.table.steps for p in table.peers} == {3}
        assert len(table.peers[0].sync.log.entries) - before[0] == 3 * len(table.peers)
        assert len(claimer.timings.claim_latencies) == 1
    finally:
        await table.close()


async def test_silence_in_phase_1_names_the_seat_the_claims_wait_for(tmp_path: Path) -> None:
    """A seat that goes silent in Phase 1 holds up the others' claims: their silence watch names
    it (the log waits for its envelope), where no single seat's turn is due."""
    gate = Gate()
    table = await open_table(
        3, tmp_path, quick(), seed=6, claim_pace=1.0, bot_sleep=gate, silence_limit=0.2
    )
    try:
        await until_claiming(table.peers)
        await until_quiet(table.peers)
        silent = table.peers[1]
        await table.meshes[1].close()  # seat 1 goes away; its peer signs nothing more
        await silent.close()
        claimer = table.peers[0]
        since = {peer.seat: len(peer.history) for peer in table.peers}  # setup had its waits
        await claimer.act(Claim(claimer.table.claimable()[0]))

        def reported(peer: TablePeer) -> set[int]:
            return {
                e.seat
                for e in peer.history.events[since[peer.seat] :]
                if isinstance(e, SeatStatus) and e.waiting_seconds is not None
            }

        for peer in (table.peers[0], table.peers[2]):
            async with asyncio.timeout(20):
                while 1 not in reported(peer):
                    await peer.history.changed()
            assert reported(peer) == {1}
    finally:
        await table.close()


async def test_a_claim_signed_before_a_crash_still_counts_after_the_restart(
    tmp_path: Path,
) -> None:
    """Restart in Phase 1 (T3): a claim the seat signed but the others never saw is not in the
    replayed log, yet it still counts against the hand and its slot is not claimed again; the
    others get it from the restarted seat, and the game completes with no fault (nothing is
    signed twice)."""
    gate = Gate()
    options = quick(hand_size=2)
    table = await open_table(3, tmp_path, options, seed=8, claim_pace=1.0, bot_sleep=gate)
    try:
        await until_claiming(table.peers)
        await until_quiet(table.peers)
        victim = table.peers[1]
        await table.meshes[1].close()  # cut off: its claim reaches nobody
        slot = victim.table.claimable()[0]
        await victim.act(Claim(slot))
        assert victim.sync.log.buffered  # signed, on disk, never applied
        await victim.close()  # the crash: what is on disk is all that is left

        mesh = Mesh(identity(1))
        address = await mesh.start("127.0.0.1", 0)
        table.meshes[1] = mesh
        again = make_peer(
            1,
            table.roster,
            mesh,
            tmp_path,
            options,
            seed=8,
            signed_roster=table.peers[0].signed_roster,
        )
        table.peers[1] = again
        await again.start()
        assert slot not in again.table.claimable()
        assert again.table.room() == options.hand_size - 1
        for other in (0, 2):
            await table.meshes[other].connect(*address, expected_peer=identity(1).key)
        gate.open.set()
        await play_to_end(table, timeout=60)
        assert all(p.table.fault is None for p in table.peers)
        assert len({p.table.head for p in table.peers}) == 1
        assert slot in again.table.state.hands[1] or again.table.void_claims
    finally:
        await table.close()


async def test_a_lie_seat_resumes_from_its_transcript_mid_phase_1(tmp_path: Path) -> None:
    """`fairdeal resume` at the p2p level (p2p.table.tools.resume, p2p.table.tools.rejoin): a
    Lie seat gone in Phase 1 (a card in hand, T3) is read back from its transcript header with The
    Lie's options from the signed roster, sits down again on a fresh mesh, catches up and finishes
    the game; every transcript audits."""
    gate = Gate()
    options = quick()
    table = await open_table(3, tmp_path, options, seed=12, claim_pace=1.0, bot_sleep=gate)
    redial: asyncio.Task[None] | None = None
    try:
        await until_claiming(table.peers)
        victim = table.peers[1]
        await victim.act(Claim(victim.table.claimable()[0]))
        hand = victim.table.state.hands
        await victim.sync.wait_until(lambda: len(victim.table.state.hands[1]) == 1, 30)
        assert hand != victim.table.state.hands
        await table.meshes[1].close()
        await victim.close()  # gone mid-Phase 1, its transcript and secrets on disk

        data = tmp_path / "seat1"
        identity(1).save(data)
        point = resume_point(table.transcript(1), data)
        assert point.options == options and point.seat == 1
        addresses = [m.address for m in table.meshes]
        addresses[1] = None
        point = replace(point, addresses=addresses)  # these test peers record none
        seated = await resume_seated(point, "127.0.0.1")
        again = TablePeer.for_seated(
            point.identity,
            seated,
            transcript=point.transcript,
            secrets=SecretStore(data / "secrets"),
            bot=make_bot("heuristic", random.Random(1), "lie"),
        )
        table.peers[1], table.meshes[1] = again, seated.mesh
        await again.start()
        assert len(again.table.state.hands[1]) == 1  # the replay gave its card back
        redial = asyncio.ensure_future(
            keep_connected(seated.mesh, table.roster.keys, addresses, interval=0.05)
        )
        gate.open.set()
        await play_to_end(table, timeout=60)
        assert all(p.table.fault is None for p in table.peers)
    finally:
        if redial is not None:
            redial.cancel()
        await table.close()
    reports, disagreement = audit_many([table.transcript(s) for s in range(3)])
    assert disagreement is None
    assert all(r.verified and r.over for r in reports), [str(r.fault) for r in reports]


class GreedyTable(LieTable):
    """A cheat's driver: its bot claims whenever it can sign, past a full hand (T3)."""

    def may_choose(self) -> bool:
        if self.claiming():
            return self.lockstep.wanted() is None and bool(self.state.table)
        return super().may_choose()

    lockstep_class = LooseLockstep  # commits to any claim of its own, checks the others'


async def test_a_peer_claiming_past_its_hand_is_named_by_the_others(tmp_path: Path) -> None:
    """Bad input from a peer over real channels: a claim it may not make (protocol.md 10.11.3)
    stops every honest peer's table with a fault naming that seat, keeps its signed envelope as
    evidence beside the transcript, and the audit names the same seat."""
    options = quick(hand_size=2)
    table = await open_table(3, tmp_path, options, seed=13, tables={2: GreedyTable})
    table.peers[2].check_own_actions = False  # its claims go out unchecked
    try:
        await play_to_end(table, timeout=60)
        for peer in table.peers[:2]:
            fault = peer.table.fault
            assert fault is not None and fault.seat == 2, fault
            assert "(T3)" in fault.what and "claimed slot" in fault.what
            assert evidence_path(peer.transcript_path).exists()
    finally:
        await table.close()
    for seat in (0, 1):
        report = audit_transcript(table.transcript(seat))
        assert not report.verified and report.fault.seat == 2


async def test_leaving_a_lie_table_mid_phase_1_gives_the_result_so_far(tmp_path: Path) -> None:
    """A seat that ends the table in Phase 1 (protocol.md 10.12) gets its result so far: no round
    played, no leaders (The Lie's scores exist only once the prizes are turned over, T10)."""
    gate = Gate()
    table = await open_table(3, tmp_path, quick(), seed=14, claim_pace=1.0, bot_sleep=gate)
    try:
        await until_claiming(table.peers)
        await table.peers[0].end_table("Ada left the table")
        (ended,) = [e for e in table.peers[0].history.events if isinstance(e, TableEnded)]
        assert (ended.hands, ended.scores, ended.leaders) == (0, (0, 0, 0), ())
    finally:
        await table.close()
