"""The oracle's quicker shuffle makes the library's draws: the same order, the generator left in
the same state (engine/oracle.py `shuffle`), so seeded games are the same games."""

from __future__ import annotations

import random

from fairdeal.engine.oracle import shuffle


def test_shuffle_is_the_librarys() -> None:
    for seed in range(200):
        for size in (0, 1, 2, 3, 7, 16, 33, 96, 200):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, library = list(range(size)), list(range(size))
            shuffle(ours, mine)
            theirs.shuffle(library)
            assert mine == library
            assert ours.getstate() == theirs.getstate()


class _Biased(random.Random):
    """A generator with its own `random`: the library draws through it, so must the oracle."""

    def random(self) -> float:
        return 0.0


def test_another_generator_shuffles_its_own_way() -> None:
    mine, library = list(range(10)), list(range(10))
    shuffle(_Biased(1), mine)
    _Biased(1).shuffle(library)
    assert mine == library
