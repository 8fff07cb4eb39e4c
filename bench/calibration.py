"""How busy the machine was: libsodium's primitive costs and the load, for every bench.

Other processes on this 2-core machine slow every figure (CPU time included: the cores share
caches and, on a virtual machine, the host). Every bench opens a `BenchRun` before its figures
and calls its `finish()` after them: it prints libsodium's calibration and the load average
before and after, the CPU other processes used while the bench ran (`OthersMeter`), and a
warning when any of them says the machine was loaded; `finish()` returns the same as a dict for
the bench's JSON. A figure is never read against its target without knowing how quiet the run
was.

The load average *after* a run counts the bench's own work (a whole-game bench runs 4–8 peer
processes: a load of 4 after it is its own), so it is printed but not judged; what other
processes did during the run is judged instead, from /proc/stat less the CPU of this process
and of its children.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fairdeal.p2p.deck.group import G, add, is_valid_point, mul, mul_base

QUIET_US = {"mul_us": 57.0, "mul_base_us": 18.7, "add_us": 16.0, "validate_us": 5.4}
"""Ristretto255 through rbcl on this machine when it was quiet (load below 0.5)."""
BUSY_FACTOR = 1.15  # a primitive this much slower than quiet means a loaded machine
BUSY_LOAD = 1.0  # 1-minute load average above this before a bench starts: other work
BUSY_OTHERS = 0.25  # cores used on average by other processes during the run


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


def load_warning(
    calibrations: list[dict[str, float]], others_cores: float | None = None
) -> str | None:
    """A warning when the machine was loaded, else None.

    Judged: libsodium's slowdown in every calibration, the load average in the *first* one
    (taken before the bench starts any work: all of it is other processes'), and the cores
    other processes used during the run. A later calibration's load average counts the
    bench's own processes and is not judged.
    """
    slowdown = max(c["mul_us"] / QUIET_US["mul_us"] for c in calibrations)
    load = calibrations[0]["load_1min"]
    busy = others_cores is not None and others_cores > BUSY_OTHERS
    if slowdown <= BUSY_FACTOR and load <= BUSY_LOAD and not busy:
        return None
    others = "" if others_cores is None else f", other processes used {others_cores:.2f} cores"
    return (
        f"WARNING: the machine was loaded (load average {load:.2f} before the run{others}, "
        f"scalar mult up to {slowdown:.2f}× its quiet cost): these figures are not comparable "
        "with the targets, which are for a quiet machine; rerun when it is idle"
    )


def _busy_seconds() -> float | None:
    """CPU seconds every core has spent busy since boot (/proc/stat; None where there is none).

    Steal (the host running something else on this virtual CPU) counts as busy: it is time
    this machine did not get."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    # cpu user nice system idle iowait irq softirq steal [guest guest_nice: inside user/nice]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _own_seconds() -> float:
    """CPU seconds of this process (every thread) and of its children that have been waited
    for (a whole-game bench waits for its peer processes before it finishes)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


@dataclass
class OthersMeter:
    """The CPU other processes used while a bench ran, in cores (0 to the machine's count)."""

    _start_busy: float | None = field(default_factory=_busy_seconds)
    _start_own: float = field(default_factory=_own_seconds)
    _start_wall: float = field(default_factory=time.monotonic)

    def cores(self) -> float | None:
        busy = _busy_seconds()
        if busy is None or self._start_busy is None:
            return None
        wall = time.monotonic() - self._start_wall
        others = (busy - self._start_busy) - (_own_seconds() - self._start_own)
        # /proc/stat counts in clock ticks: a short run reads a tick or two either way
        return max(0.0, others / wall) if wall > 0 else None


class BenchRun:
    """Calibration before, the others' CPU during, calibration after; printed and returned.

    ``run = BenchRun()`` before the figures (prints the calibration before), then
    ``figures |= run.finish()`` after them (prints the calibration after, the others' CPU and
    the warning, if any), or ``return run.conclude(figures, args.json)`` to write them too."""

    def __init__(self, repeat: int = 5) -> None:
        self.repeat = repeat
        self.before = calibrate(repeat)
        print(calibration_line(self.before, "before"))
        self.meter = OthersMeter()

    def finish(self) -> dict[str, Any]:
        others = self.meter.cores()
        after = calibrate(self.repeat)
        print(calibration_line(after, "after") + " (this bench's own processes count in it)")
        cores = os.cpu_count() or 0
        if others is not None:
            print(f"other processes used {others:.2f} of {cores} cores during the run")
        warning = load_warning([self.before, after], others)
        if warning:
            print(warning)
        return {
            "calibration_before": self.before,
            "calibration_after": after,
            "others_cpu_cores": None if others is None else round(others, 3),
            "cores": cores,
            "loaded_warning": warning,
        }

    def conclude(
        self, figures: dict[str, Any], json_path: Path | None, *, sort_keys: bool = False
    ) -> int:
        """`finish()` added to the bench's `figures`, all written to `json_path` when one is
        given (its folder made if need be); the bench's exit status."""
        figures |= self.finish()
        if json_path is not None:
            json_path.parent.mkdir(parents=True, exist_ok=True)
            json_path.write_text(json.dumps(figures, indent=2, sort_keys=sort_keys))
            print(f"wrote {json_path}")
        return 0
