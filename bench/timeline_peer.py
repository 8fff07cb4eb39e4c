"""A simulated peer (p2p/table/tools/sim_peer.py) that records when each thing of its table's setup
happened, for bench/setup_timeline.py. Not part of the program: it wraps a few methods of the
peer's own classes (nothing sent or signed changes) and writes what it saw, as JSON, to
`timeline.json` in the peer's data directory when the process ends.

Events (seconds on the system-wide monotonic clock, comparable between processes):
process start, imports done, listening, wired, table started, channels up, each envelope
signed / sent / first received / applied, each fsync on the loop, each wait of the event loop
in `select` (idle), each job on the deck's verify worker, and the setup's end with this
process's CPU at that moment.
"""

from __future__ import annotations

import time

STARTED = time.monotonic()

import atexit  # noqa: E402
import cProfile  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402  (the start time is taken before anything is imported)
import selectors  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from fairdeal.p2p.table import sim_peer  # noqa: E402

IMPORTED = time.monotonic()
events: list[list[Any]] = [[STARTED, "process"], [IMPORTED, "imported"]]
idle: list[tuple[float, float]] = []
costs: dict[str, float] = {}  # CPU of the loop thread in setup, by what (inclusive)
in_setup = [False]
fsyncs: list[tuple[float, float, float]] = []  # every fsync in setup, any thread: when, wall, CPU
polls = [0, 0]  # the event loop's selects: without waiting, waiting
# a deck worker job: handed over, start, end, its CPU, its wait for a core (runnable)
work: list[tuple[float, float, float, float, float]] = []
deck_cpu: list[tuple[float, float]] = []  # the deck's calls on the loop: when, CPU


def schedstat() -> tuple[float, float]:
    """This thread's time on a core and waiting for one (runnable), seconds."""
    with open("/proc/thread-self/schedstat") as file:
        on_cpu, waiting, _ = file.read().split()
    return int(on_cpu) / 1e9, int(waiting) / 1e9


def thread_cpu() -> dict[str, float]:
    """CPU seconds of each live thread of this process, by its Python name."""
    import threading

    ticks = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for thread in threading.enumerate():
        try:
            with open(f"/proc/self/task/{thread.native_id}/stat") as file:
                fields = file.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        name = thread.name.split("_")[0]
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / ticks
    return out


def note(*event: Any) -> None:
    events.append([time.monotonic(), *event])


def describe(envelope: Any) -> str:
    body = envelope.body
    if envelope.kind == "deck" and isinstance(body, dict):
        return str(body.get("kind", "deck"))
    return str(envelope.kind)


def install() -> None:
    from fairdeal.p2p.log.sync import TableSync
    from fairdeal.p2p.log.transcript import Transcript
    from fairdeal.p2p.net.mesh import Mesh
    from fairdeal.p2p.table.runtime.peer import TablePeer
    from fairdeal.p2p.table.runtime.timings import TimingWatch

    unsent: list[tuple[int, int]] = []

    original_publish = TableSync.publish

    def publish(self: TableSync, kind: str, body: Any) -> Any:
        begun = time.monotonic()
        envelope = original_publish(self, kind, body)
        note("sign", envelope.seat, envelope.seq, describe(envelope), begun)
        unsent.append((envelope.seat, envelope.seq))
        return envelope

    TableSync.publish = publish  # type: ignore[method-assign]

    original_release = Mesh.release

    def release(self: Mesh) -> None:
        begun = time.monotonic()
        had = bool(self._queued)
        original_release(self)
        if had and unsent and not self._queued:
            note("sent", list(unsent), begun)
            unsent.clear()

    Mesh.release = release  # type: ignore[method-assign]

    original_on_env = TableSync._on_env

    def on_env(self: TableSync, peer: Any, message: dict[str, Any]) -> None:
        signature = message.get("s")
        fresh = not (isinstance(signature, bytes) and self._held.get(signature) == message.get("d"))
        seat = self.log.roster.seat_of(peer.key)
        begun = time.monotonic()
        original_on_env(self, peer, message)
        if fresh:
            note("recv", seat, signature[:8].hex() if isinstance(signature, bytes) else "", begun)

    TableSync._on_env = on_env  # type: ignore[method-assign]

    original_applied = TableSync._applied

    def applied(self: TableSync, envelope: Any) -> None:
        note("apply", envelope.seat, envelope.seq, describe(envelope), envelope.signature[:8].hex())
        original_applied(self, envelope)

    TableSync._applied = applied  # type: ignore[method-assign]

    original_sync = Transcript.sync

    def sync(self: Transcript) -> None:
        begun = time.monotonic()
        original_sync(self)
        events.append([begun, "fsync", time.monotonic() - begun])

    Transcript.sync = sync  # type: ignore[method-assign]

    original_start = TablePeer.start
    profile_path = os.environ.get("TIMELINE_PROFILE")
    profiler = cProfile.Profile(time.thread_time) if profile_path else None

    async def start(self: TablePeer) -> None:
        note("table", time.process_time(), time.thread_time(), *schedstat(), thread_cpu())
        in_setup[0] = True
        if profiler is not None and self.seat == 1:
            profiler.enable()
        await original_start(self)

    TablePeer.start = start  # type: ignore[method-assign]

    original_adopt = Mesh._adopt

    async def adopt(self: Mesh, channel: Any) -> None:
        await original_adopt(self, channel)
        note("up")

    Mesh._adopt = adopt  # type: ignore[method-assign]

    original_observe = TimingWatch.observe

    def observe(self: TimingWatch, event: Any, simultaneous: bool, now: float) -> None:
        before = self.timings.setup_done
        original_observe(self, event, simultaneous, now)
        if before is None and self.timings.setup_done is not None:
            note("setup", time.process_time(), time.thread_time(), *schedstat(), thread_cpu())
            in_setup[0] = False
            if profiler is not None and profile_path:
                profiler.disable()
                profiler.dump_stats(profile_path)

    TimingWatch.observe = observe  # type: ignore[method-assign]

    original_fsync = os.fsync

    def fsync(fd: int) -> None:
        cpu, begun = time.thread_time(), time.monotonic()
        original_fsync(fd)
        if in_setup[0]:
            fsyncs.append((begun, time.monotonic() - begun, time.thread_time() - cpu))

    os.fsync = fsync

    original_select = selectors.EpollSelector.select

    def select(self: selectors.EpollSelector, timeout: float | None = None) -> Any:
        polls[0 if timeout is not None and timeout <= 0 else 1] += 1
        begun = time.monotonic()
        ready = original_select(self, timeout)
        ended = time.monotonic()
        if ended - begun > 0.0002:
            idle.append((begun, ended))
        return ready

    selectors.EpollSelector.select = select  # type: ignore[method-assign]

    from concurrent.futures import ThreadPoolExecutor

    original_submit = ThreadPoolExecutor.submit

    def submit(self: ThreadPoolExecutor, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        if not self._thread_name_prefix.startswith("deck-verify"):
            return original_submit(self, fn, *args, **kwargs)

        submitted = time.monotonic()

        def timed() -> Any:
            begun, (cpu, runnable) = time.monotonic(), schedstat()
            try:
                return fn(*args, **kwargs)
            finally:
                cpu_after, runnable_after = schedstat()
                work.append(
                    (begun, time.monotonic(), cpu_after - cpu, runnable_after - runnable, submitted)
                )

        return original_submit(self, timed)

    ThreadPoolExecutor.submit = submit  # type: ignore[method-assign]

    from fairdeal.p2p.deck.session import DeckSession

    depth = [0]

    def on_loop(name: str) -> None:
        original = getattr(DeckSession, name)

        def timed(self: DeckSession, *args: Any, **kwargs: Any) -> Any:
            depth[0] += 1
            cpu = time.thread_time()
            try:
                return original(self, *args, **kwargs)
            finally:
                depth[0] -= 1
                if depth[0] == 0:
                    deck_cpu.append((time.monotonic(), time.thread_time() - cpu))

        setattr(DeckSession, name, timed)

    for name in ("start", "new_deck", "reshuffle", "deal", "reveal", "give", "coin", "parse"):
        on_loop(name)
    on_loop("handle")

    import fairdeal.p2p.log.envelope as envelope_module
    import fairdeal.p2p.log.sync as sync_module
    import fairdeal.p2p.net.mesh as mesh_module
    from fairdeal.p2p.log.tablelog import TableLog
    from fairdeal.p2p.net import framing
    from fairdeal.p2p.net.channel import CipherState, SecureChannel
    from fairdeal.p2p.table.runtime.pump import Pump
    from fairdeal.p2p.table.runtime.reporting import Reporter

    def account(owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            cpu = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent = time.thread_time() - cpu
                if in_setup[0]:
                    costs[label] = costs.get(label, 0.0) + spent

        setattr(owner, name, timed)

    account(CipherState, "decrypt", "decrypt a frame")
    account(CipherState, "encrypt", "encrypt a frame")
    account(framing, "unpack_message", "msgpack a frame in")
    account(mesh_module, "pack_message", "msgpack a frame out")
    account(sync_module, "parse_envelope", "decode an envelope (canonical check)")
    account(TableLog, "verify", "check an envelope's signature")
    account(envelope_module, "sign_envelope", "sign an envelope (canonical, decode)")
    account(SecureChannel, "send_payloads", "send (encrypt, write)")
    account(Transcript, "append_applied", "transcript: applied record")
    account(Transcript, "append_signed", "transcript: signed record")
    account(Transcript, "hand_over", "transcript: hand over")
    account(TableSync, "_on_env", "receive an envelope (all of it)")
    account(TableSync, "_on_need", "answer a need")
    account(Pump, "run", "the pump (all of it)")
    account(Reporter, "drain", "report table events")

    original_emit = sim_peer.emit

    def emit(message: dict[str, Any]) -> None:
        if "port" in message:
            note("listening")
        original_emit(message)

    sim_peer.emit = emit


def main() -> int:
    argv = sys.argv[1:]
    if argv[:2] == ["-m", "fairdeal.p2p.table.tools.sim_peer"]:
        argv = argv[2:]
    data = Path(argv[argv.index("--data") + 1])
    switch = os.environ.get("TIMELINE_SWITCH_INTERVAL")  # seconds: the GIL's, to compare
    if switch:
        sys.setswitchinterval(float(switch))
    install()

    def write() -> None:
        out = {
            "events": events,
            "idle": idle,
            "work": work,
            "deck_cpu": deck_cpu,
            "polls": polls,
            "costs": costs,
            "fsyncs": fsyncs,
            "cpu_end": time.process_time(),
        }
        (data / "timeline.json").write_text(json.dumps(out))

    atexit.register(write)
    return sim_peer.main(argv)


if __name__ == "__main__":
    sys.exit(main())
