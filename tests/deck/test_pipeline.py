"""A shuffle chain that does not wait: the next seat proves its shuffle while a worker
verifies the previous one; the log is exactly the sequential one, and a bad proof still raises
the fault and drops the seat's own shuffle unseen."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from fairdeal.p2p.deck import ProofError, Slot

from .conftest import keyed_table, shuffled_table


class CountingExecutor(ThreadPoolExecutor):
    """A one-worker pool that records which threads ran the submitted verifications."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="counting-verify")
        self.threads: list[str] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        def run() -> Any:
            self.threads.append(threading.current_thread().name)
            return fn(*args, **kwargs)

        return super().submit(run)


def test_the_pipelined_chain_writes_exactly_the_sequential_log() -> None:
    with CountingExecutor() as worker:
        sequential = shuffled_table(4, 12, seed=3)
        parallel = shuffled_table(4, 12, seed=3, parallel=worker)
        # Seats 1, 2, 3 each verified their predecessor's shuffle on the worker.
        assert len(worker.threads) == 3
        assert all(name.startswith("counting-verify") for name in worker.threads)
    assert parallel.log == sequential.log
    assert all(s.list_ready("d0") for s in parallel.sessions)
    for a, b in zip(sequential.sessions, parallel.sessions, strict=True):
        assert [a.masked_card(Slot("d0", i)) for i in range(12)] == [
            b.masked_card(Slot("d0", i)) for i in range(12)
        ]


def test_a_reshuffle_pipelines_too_and_deals_as_before() -> None:
    with CountingExecutor() as worker:
        table = shuffled_table(3, 10, seed=4, parallel=worker)
        before = len(worker.threads)
        sources = [Slot("d0", i) for i in range(6)]
        table.command(lambda s: s.reshuffle("r1", sources))
        assert len(worker.threads) == before + 2
        table.command(lambda s: s.deal({Slot("r1", i): i % 3 for i in range(6)}))
    faces = {table.sessions[i % 3].known_card(Slot("r1", i)) for i in range(6)}
    assert len(faces) == 6 and None not in faces


def test_a_bad_proof_found_while_proving_raises_and_drops_the_own_shuffle() -> None:
    with CountingExecutor() as worker:
        table = keyed_table(3, seed=5, parallel=worker)
        outputs = [s.new_deck("d0", "larry", range(8)) for s in table.sessions]
        honest = outputs[0].messages[0]
        proof = dict(honest["proof"])
        proof["e"] = bytes([proof["e"][0] ^ 1]) + proof["e"][1:]
        nextseat = table.sessions[1]
        with pytest.raises(ProofError) as info:
            nextseat.handle(0, {**honest, "proof": proof})
        assert worker.threads  # the failing check ran on the worker, beside the proof
        assert info.value.seat == 0
        assert nextseat._chains._own_shuffles == {}  # proved, but never kept nor published
        assert not nextseat._sent
        out = nextseat.handle(0, honest)
    assert [m["kind"] for m in out.messages] == ["deck.shuffle"]
    assert [type(e).__name__ for e in out.events] == ["ShuffleVerified"]


def test_seats_that_are_not_next_verify_inline() -> None:
    with CountingExecutor() as worker:
        table = keyed_table(4, seed=6, parallel=worker)
        outputs = [s.new_deck("d0", "larry", range(6)) for s in table.sessions]
        honest = outputs[0].messages[0]
        for seat in (2, 3):  # neither shuffles next: nothing to overlap with
            assert table.sessions[seat].handle(0, honest).messages == []
        assert worker.threads == []
