"""Latency figures of a simulation's summary: count, median and p99 in milliseconds."""

from __future__ import annotations

import statistics


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
