"""A `need` costs what is missing, no more (protocol.md 4.6, p2p/log/answers.py), at a table
in memory: the same `need` a hundred times is answered once, a `need` for what is missing gets
exactly that (the bucket's rate, and an answer waiting for it: tests/p2p/test_need_answers.py)."""

from __future__ import annotations

from tests.p2p.test_relay import open_memory_table

ENVELOPES = 60


def played(count: int = 3):
    network, syncs, ids = open_memory_table(count)
    for n in range(ENVELOPES):
        syncs[n % count].publish("move", {"n": n})
        network.deliver()
    assert all(len(sync.log.entries) == ENVELOPES for sync in syncs)
    return network, syncs, ids


def test_the_same_need_a_hundred_times_is_answered_once() -> None:
    network, syncs, ids = played()
    network.sent.clear()
    need = {"t": "need", "table": syncs[1].log.roster.table, "have": [0, 0, 0]}
    for _ in range(100):
        syncs[2].mesh.send(ids[1].key, need)
    network.deliver()
    answered = [k for src, dst, k in network.sent if (src, dst) == (ids[1].key, ids[2].key)]
    # every envelope once (seat 2 asked from 0, its own too), and the first of each seat once
    # more (it may have refused it, protocol.md 4.4), then a need-done for each need: 6,000
    # envelopes before
    assert answered.count("env") == ENVELOPES + 3, answered.count("env")
    assert answered.count("need-done") == 100


def test_a_need_for_what_is_missing_gets_exactly_that() -> None:
    network, syncs, ids = played()
    network.sent.clear()
    have = [sum(e.seat == seat for e in syncs[1].log.entries) - 2 for seat in range(3)]
    syncs[2].mesh.send(ids[1].key, {"t": "need", "table": b"relay-table", "have": have})
    network.deliver()
    answered = [k for src, dst, k in network.sent if (src, dst) == (ids[1].key, ids[2].key)]
    assert answered == ["env"] * 6 + ["need-done"]
