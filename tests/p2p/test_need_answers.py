"""The answers to `need`s (p2p/log/answers.py, protocol.md 4.6): a peer asking on channel after
channel is answered at a rate, an honest asker that lacks the whole log still gets it at once,
the next envelope an asker lacks goes a second time, once, and an answer past the rate goes
on later with one `need-done`."""

from __future__ import annotations

import asyncio

from fairdeal.p2p.log.answers import NEED_DONE, NeedAnswers, wire_size
from fairdeal.p2p.log.tablelog import Roster, TableLog, seat_order
from tests.p2p.core_support import make_identity
from tests.p2p.test_need_cost import ENVELOPES, played


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def a_log(entries: int) -> TableLog:
    ids = [make_identity(i) for i in range(2)]
    log = TableLog(Roster(b"need", tuple(i.key for i in ids)), seat_order([0, 1]))
    for n in range(entries):
        seat = n % 2
        log.receive(log.author(ids[seat], seat, "move", {"n": n, "pad": b"p" * 900}))
    return log


def test_asking_again_on_new_channels_is_answered_at_the_rate() -> None:
    log = a_log(40)
    size = sum(wire_size(e) for e in log.entries) + NEED_DONE
    clock = Clock()
    answers = NeedAnswers(log, clock, burst=2 * size, rate=1000)
    peer = b"k" * 32
    # an honest asker that lacks everything gets it all at once
    first = answers.answer(peer, [0, 0])
    assert first.done and first.envelopes == log.entries
    # a new channel, the same question, 50 times in 10 s: the burst and then the rate
    for _ in range(50):
        clock.now += 0.2
        answers.channel_up(peer)
        answers.answer(peer, [0, 0])
    assert answers.sent_bytes[peer] <= 2 * size + 1000 * clock.now + NEED_DONE
    assert answers.sent_bytes[peer] < 4 * size  # 51 whole logs before
    # an answer cut short goes on once the bucket allows, and ends with need-done
    assert answers.pending(peer)
    wait = answers.answer(peer).wait
    clock.now += wait + size / 1000
    rest = answers.answer(peer)
    assert rest.done and not answers.pending(peer)


def test_the_next_envelope_an_asker_lacks_goes_again() -> None:
    """Sent once on this channel, but the asker says it still lacks it (it refused it past a
    budget, protocol.md 4.4): the envelope at each seat's `have` goes again, and only that."""
    log = a_log(10)
    answers = NeedAnswers(log, Clock())
    peer = b"k" * 32
    assert answers.answer(peer, [0, 0]).envelopes == log.entries
    again = answers.answer(peer, [3, 1]).envelopes
    assert [(e.seat, e.seq) for e in again] == [(1, 1), (0, 3)]  # in log order
    assert answers.answer(peer, [3, 1]).envelopes == []  # a second time only once
    assert answers.answer(peer, [5, 5]).envelopes == []  # nothing held there


async def test_an_answer_past_the_bucket_goes_on_later_with_one_need_done() -> None:
    """Through TableSync on a loop: an answer the bucket cannot pay is sent in part, the rest
    follows when tokens are back, and `need-done` comes once, at its end, however many needs
    came meanwhile."""
    network, syncs, ids = played()
    log = syncs[1].log
    size = sum(wire_size(e) for e in log.entries)
    syncs[1].answers = NeedAnswers(log, burst=size // 3, rate=size * 10)  # the rest in ~0.1 s
    network.sent.clear()
    need = {"t": "need", "table": log.roster.table, "have": [0, 0, 0]}
    for _ in range(5):
        syncs[2].mesh.send(ids[1].key, need)
    network.deliver()
    answered = [k for src, dst, k in network.sent if (src, dst) == (ids[1].key, ids[2].key)]
    assert 0 < answered.count("env") < ENVELOPES and "need-done" not in answered
    for _ in range(50):
        await asyncio.sleep(0.02)
        network.deliver()
        answered = [k for src, dst, k in network.sent if (src, dst) == (ids[1].key, ids[2].key)]
        if "need-done" in answered:
            break
    assert answered.count("need-done") == 1 and answered[-1] == "need-done"
    assert answered.count("env") >= ENVELOPES
