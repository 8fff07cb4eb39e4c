"""bench/fairdeck.py's headline shuffle figures are later shuffles, and the targets judge them.

A deck's first shuffle starts from the public deck (every A = G) and is 13–17 % cheaper than
every later shuffle of the chain (7 of 8 at an 8-seat table): a headline taken from it flatters
the table. These tests run the bench's shuffle figures on a tiny deck, once.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from fairdeal.p2p.deck.group import G


def test_the_headline_shuffle_figures_are_measured_on_a_shuffled_deck(
    monkeypatch: pytest.MonkeyPatch, load_bench: Callable[[str], ModuleType]
) -> None:
    fairdeck = load_bench("fairdeck")
    starting: list[bool] = []  # per shuffle proved: was its input the public starting deck?
    real = fairdeck.shuffle_and_prove

    def recording(table: bytes, deck_id: str, seat: int, joint: Any, deck: Any) -> Any:
        starting.append(all(card.a == G for card in deck))
        return real(table, deck_id, seat, joint, deck)

    decks: dict[str, bool] = {}

    def once(run: Callable[[], Any], repeat: int, name: str) -> float:
        before = len(starting)
        run()
        if name.startswith("shuffle_prove"):
            (decks[name],) = starting[before:]
        return 1.0

    monkeypatch.setattr(fairdeck, "shuffle_and_prove", recording)
    monkeypatch.setattr(fairdeck, "median_ms", once)
    figures = fairdeck.bench_shuffle(5, repeat=1)
    assert decks == {"shuffle_prove_5": False, "shuffle_prove_5_first": True}
    assert set(figures) == {
        "shuffle_prove_5",
        "shuffle_verify_5",
        "shuffle_prove_5_first",
        "shuffle_verify_5_first",
    }


def test_the_targets_judge_the_headline_figures_only(
    load_bench: Callable[[str], ModuleType],
) -> None:
    fairdeck = load_bench("fairdeck")
    assert not any(name.endswith(("_first", "_later")) for name in fairdeck.TARGETS_MS)
    assert {"shuffle_prove_54", "shuffle_verify_96"} <= set(fairdeck.TARGETS_MS)


def test_the_model_table_waits_for_the_checks_and_overlaps_the_seats(
    load_bench: Callable[[str], ModuleType],
) -> None:
    """Two seats, Larry's setup and an L14 reshuffle on the model table: each step's critical
    path is no shorter than the busiest seat's work on its loop and worker together can be
    (half of it) and no longer than every seat's CPU in a row; the reshuffle and its draw are
    measured."""
    fairdeck = load_bench("fairdeck")
    report = fairdeck.bench_larry(2)
    assert list(report) == ["keys", "coin", "shuffle", "deal", "reshuffle", "draw"]
    for step in ("shuffle", "reshuffle"):
        figures = report[step]
        assert figures["max_seat_ms"] / 2 <= figures["critical_path_ms"]
        assert figures["critical_path_ms"] <= figures["total_cpu_ms"]
