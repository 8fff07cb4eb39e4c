"""How busy the machine was: libsodium's primitive costs and the load average, for every bench.

Other processes on this 2-core machine slow every figure (CPU time included: the cores share
caches and, on a virtual machine, the host). Each bench prints `calibration_line()` before and
after its figures and `load_warning()` when either says the machine was loaded, so that a
figure is never read against its target without knowing how quiet the run was.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from fairdeal.p2p.deck.group import G, add, is_valid_point, mul, mul_base

QUIET_US = {"mul_us": 57.0, "mul_base_us": 18.7, "add_us": 16.0, "validate_us": 5.4}
"""Ristretto255 through rbcl on this machine when it was quiet (load below 0.5)."""
BUSY_FACTOR = 1.15  # a primitive this much slower than quiet means a loaded machine
BUSY_LOAD = 1.5  # 1-minute load average above this (2 cores, the bench itself ≤ 1): other work


def cpu_median_us(call: Callable[[], Any], calls: int = 100, repeat: int = 5) -> float:
    """Median CPU time of one call, in µs, over `repeat` batches of `calls` calls."""
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(calls):
            call()
        samples.append((time.process_time() - start) / calls * 1e6)
    return statistics.median(samples)


def calibrate(repeat: int = 5) -> dict[str, float]:
    """The cost of libsodium's Ristretto255 primitives now, in µs, and the load average."""
    point, k = mul_base(987654321), 123456789123456789
    return {
        "mul_us": cpu_median_us(lambda: mul(k, point), repeat=repeat),
        "mul_base_us": cpu_median_us(lambda: mul_base(k), repeat=repeat),
        "add_us": cpu_median_us(lambda: add(point, G), repeat=repeat),
        "validate_us": cpu_median_us(lambda: is_valid_point(point), repeat=repeat),
        "load_1min": os.getloadavg()[0],
    }


def calibration_line(cal: dict[str, float], when: str) -> str:
    quiet = ", ".join(f"{QUIET_US[k]:g}" for k in QUIET_US)
    return (
        f"libsodium {when} (µs): mul {cal['mul_us']:.1f}, base {cal['mul_base_us']:.1f}, "
        f"add {cal['add_us']:.1f}, validate {cal['validate_us']:.1f} (quiet: {quiet}); "
        f"load average {cal['load_1min']:.2f}"
    )


def load_warning(calibrations: list[dict[str, float]]) -> str | None:
    """A warning when any calibration shows a loaded machine, else None."""
    slowdown = max(c["mul_us"] / QUIET_US["mul_us"] for c in calibrations)
    load = max(c["load_1min"] for c in calibrations)
    if slowdown <= BUSY_FACTOR and load <= BUSY_LOAD:
        return None
    return (
        f"WARNING: the machine was loaded (load average up to {load:.2f}, scalar mult "
        f"{slowdown:.2f}× its quiet cost): these figures are not comparable with the "
        "targets, which are for a quiet machine; rerun when it is idle"
    )
