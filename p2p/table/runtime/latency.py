"""Latency figures of a simulation's summary: count, median and p99 in milliseconds."""

from __future__ import annotations

import statistics
from typing import Any


def latency(samples: list[float]) -> dict[str, float | int]:
    """`samples` in seconds, summarised in milliseconds (`{"count": 0}` for none)."""
    if not samples:
        return {"count": 0}
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {
        "count": len(ordered),
        "median": round(statistics.median(ordered) * 1000, 2),
        "p99": round(p99 * 1000, 2),
    }


def slowest_moves(results: list[Any], count: int = 12) -> list[dict[str, Any]]:
    """The slowest moves over every peer's report, with what the engine did during each (its
    events' names, repeats folded): a slow move's cause, e.g. an L14 reshuffle."""
    moves = [
        (elapsed, result["seat"], events)
        for result in results
        if result
        for elapsed, events in zip(
            result["move_latencies"], result.get("move_events", []), strict=False
        )
    ]
    moves.sort(key=lambda move: -move[0])
    return [
        {"ms": round(elapsed * 1000, 1), "seat": seat, "events": list(dict.fromkeys(events))}
        for elapsed, seat, events in moves[:count]
    ]
