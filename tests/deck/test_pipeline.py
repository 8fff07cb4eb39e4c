"""A shuffle chain that does not wait: every seat verifies other seats' shuffles on a worker
while the chain goes on, and the next seat proves at once; the log is exactly the sequential
one, a list is ready only once every check holds, and a bad proof still raises the fault naming
its author, before any share of the list can be published."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from fairdeal.p2p.deck import DeckUsageError, LoopbackTable, ProofError, Slot
from fairdeal.p2p.deck.session import Output

from .conftest import keyed_table, shuffled_table


class CountingExecutor(ThreadPoolExecutor):
    """A one-worker pool that records which threads ran the submitted work, and which
    functions: each proof checked is weighed once (`weigh`, p2p/deck/batch.py)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="counting-verify")
        self.threads: list[str] = []
        self.functions: list[str] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.functions.append(fn.__name__)

        def run() -> Any:
            self.threads.append(threading.current_thread().name)
            return fn(*args, **kwargs)

        return super().submit(run)


def test_the_pipelined_chain_writes_exactly_the_sequential_log() -> None:
    with CountingExecutor() as worker:
        sequential = shuffled_table(4, 12, seed=3)
        parallel = shuffled_table(4, 12, seed=3, parallel=worker)
        # Each seat weighed the other three seats' shuffles on the worker.
        assert worker.functions.count("weigh") == 4 * 3
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
        before = worker.functions.count("weigh")
        sources = [Slot("d0", i) for i in range(6)]
        table.command(lambda s: s.reshuffle("r1", sources))
        assert worker.functions.count("weigh") == before + 3 * 2
        table.command(lambda s: s.deal({Slot("r1", i): i % 3 for i in range(6)}))
    faces = {table.sessions[i % 3].known_card(Slot("r1", i)) for i in range(6)}
    assert len(faces) == 6 and None not in faces


def tampered(message: dict[str, Any]) -> dict[str, Any]:
    proof = dict(message["proof"])
    s1 = proof["s"][0]
    proof["s"] = [bytes([s1[0] ^ 1]) + s1[1:], *proof["s"][1:]]
    return {**message, "proof": proof}


def test_the_next_seat_proves_before_the_check_is_done() -> None:
    """Seat 1 publishes its shuffle of seat 0's deck without waiting for the deck's check."""
    release = threading.Event()

    def held(fn: Callable[..., Any], *args: Any) -> Any:
        assert release.wait(timeout=30)  # the check cannot finish before the test says so
        return fn(*args)

    with ThreadPoolExecutor(max_workers=1) as pool:

        class Held(ThreadPoolExecutor):
            def submit(self, fn: Callable[..., Any], /, *args: Any, **_: Any) -> Future[Any]:
                return pool.submit(held, fn, *args)

        with Held() as worker:
            table = keyed_table(3, seed=5, parallel=worker)
            outputs = [s.new_deck("d0", "larry", range(8)) for s in table.sessions]
            out = table.sessions[1].handle(0, outputs[0].messages[0])
            assert [m["kind"] for m in out.messages] == ["deck.shuffle"]
            assert [type(e).__name__ for e in out.events] == ["ShuffleApplied"]
            assert not table.sessions[1].list_ready("d0")
            release.set()


def test_a_bad_proof_lets_the_chain_go_on_and_raises_at_its_end_naming_its_author() -> None:
    with CountingExecutor() as worker:
        table = keyed_table(3, seed=5, parallel=worker)
        outputs = [s.new_deck("d0", "larry", range(8)) for s in table.sessions]
        honest = outputs[0].messages[0]
        bad = LoopbackTable(table.sessions, tamper=lambda seat, m: tampered(m) if seat == 0 else m)
        bad.post(0, [Output([honest])])
        with pytest.raises(ProofError) as info:
            bad.run()  # seats 1 and 2 shuffle; seat 2's shuffle, the last, awaits the checks
        assert worker.threads  # the chain's batch ran on the worker
    assert info.value.seat == 0
    assert [seat for seat, _ in bad.log] == [0, 1, 2]
    for session in table.sessions:
        assert not session.list_ready("d0")
        with pytest.raises(DeckUsageError):  # no share of an unverified list
            session.deal({Slot("d0", 0): 1})


def test_every_seat_verifies_on_the_worker() -> None:
    with CountingExecutor() as worker:
        table = keyed_table(4, seed=6, parallel=worker)
        outputs = [s.new_deck("d0", "larry", range(6)) for s in table.sessions]
        honest = outputs[0].messages[0]
        for seat in (2, 3):  # neither shuffles next: the check runs beside their loop
            assert table.sessions[seat].handle(0, honest).messages == []
        assert worker.functions.count("weigh") == 2
