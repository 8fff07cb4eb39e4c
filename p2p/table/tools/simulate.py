"""Simulate a table of any game: N bot peers as separate OS processes over loopback, full protocol.

`Simulation` prepares DIR (one data directory per seat with its identity, a plan with the game,
roster and options), starts one `python -m fairdeal.p2p.table.tools.sim_peer` per seat, tells each
where the others listen, and collects their JSON lines. Each peer's transcript ends up in
DIR/seatK/. The summary gives the result, the scores, and the time spent in setup, moves and
doubts, per peer CPU seconds and peak RSS; for The Lie also the claim latency (a claim signed to
its card's front known to the claimer), the races decided and the void claims. Tests use the
same class to kill and restart a peer mid-hand or mid-Phase 1.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fairdeal.engine.codec import to_data
from fairdeal.engine.games import default_game, game_of_options, get_game
from fairdeal.p2p import platform
from fairdeal.p2p.errors import P2PError
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.table.core.presenter import presenter_for
from fairdeal.p2p.table.runtime.latency import latency, slowest_moves
from fairdeal.p2p.table.tools.sim_peer import TRANSCRIPT, plan_roster

Progress = Callable[[int, dict[str, Any]], None]
STDERR = "stderr.log"  # in each seat's folder: what its peer process wrote to stderr


@dataclass
class PeerProcess:
    seat: int
    data: Path
    process: asyncio.subprocess.Process | None = None
    port: int | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    moves: int = 0
    claimed: int = 0  # cards whose front reached this seat (The Lie's Phase 1)
    table_started: bool = False  # its table takes messages (a watcher's `watch`) from now on
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None


class Simulation:
    """One simulated table in `directory`; `await run()` plays it and returns the summary.

    The game is that of `options` (the default game's, with `short`, when none are given)."""

    def __init__(
        self,
        peers: int,
        directory: Path,
        *,
        short: bool = False,
        seed: int = 0,
        bot: str = "heuristic",
        silence_limit: float = 30.0,
        timeout: float = 300.0,
        python: str = sys.executable,
        options: Any = None,
        claim_pace: float = 0.0,
        watchers: int = 0,
    ) -> None:
        """`watchers`: peers with no seat following the table (protocol.md 4.8), run in this
        process, each through one seat in turn."""
        self.directory = directory
        self.watchers = watchers
        self.watch_clients: list[Any] = []
        self.seed = seed
        self.timeout = timeout
        self.python = python
        self.options = options if options is not None else _default_options(short)
        self.game = game_of_options(self.options).name
        self.options.validate(peers)
        _check_fresh(directory)
        directory.mkdir(parents=True, exist_ok=True)
        identities = [Identity.generate(f"bot{s}") for s in range(peers)]
        self.peers = [PeerProcess(s, directory / f"seat{s}") for s in range(peers)]
        for peer, identity in zip(self.peers, identities, strict=True):
            peer.data.mkdir(parents=True, exist_ok=True)
            identity.save(peer.data)
        table = secrets.token_bytes(16)
        keys, names = [i.key for i in identities], [i.name for i in identities]
        # every seat signs the roster, as it would in a lobby (the log opens with it, 5.5)
        roster = plan_roster(table, keys, names, self.options).canonical_bytes()
        self.plan = directory / "plan.json"
        self.plan.write_text(
            json.dumps(
                {
                    "table": table.hex(),
                    "keys": [key.hex() for key in keys],
                    "names": names,
                    "game": self.game,
                    "roster_signatures": [i.sign(roster).hex() for i in identities],
                    "options": to_data(self.options),
                    "bot": bot,
                    "silence_limit": silence_limit,
                    "claim_pace": claim_pace,
                    "timeout": timeout,
                }
            )
        )
        self.started = 0.0

    def transcripts(self) -> list[Path]:
        return [peer.data / TRANSCRIPT for peer in self.peers]

    # -- processes -------------------------------------------------------------------------

    async def spawn(self, seat: int) -> None:
        peer = self.peers[seat]
        peer.process = await asyncio.create_subprocess_exec(
            self.python,
            "-m",
            "fairdeal.p2p.table.tools.sim_peer",
            "--plan",
            str(self.plan),
            "--data",
            str(peer.data),
            "--seed",
            str(self.seed),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=open(peer.data / STDERR, "ab"),  # noqa: SIM115 - child owns it
            env=peer_environment(),
        )
        peer.port = None
        peer.result = None
        peer.table_started = False
        peer.reader = asyncio.get_running_loop().create_task(self._read(peer, peer.process))

    async def _read(self, peer: PeerProcess, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        async for raw in process.stdout:
            message = json.loads(raw)
            peer.lines.append(message)
            if "port" in message:
                peer.port = message["port"]
            elif "progress" in message:
                peer.moves = message["progress"]
            elif "table" in message:
                peer.table_started = True
            elif "claimed" in message:
                peer.claimed = message["claimed"]
            elif "result" in message:
                peer.result = message["result"]
            self._wake(peer)
        await process.wait()  # its output ended: wake the waiters once its exit status is known
        self._wake(peer)

    @staticmethod
    def _wake(peer: PeerProcess) -> None:
        peer.changed.set()
        peer.changed = asyncio.Event()  # a waiter never spins on an event left set

    async def wait_for(self, seat: int, predicate: Callable[[PeerProcess], bool]) -> None:
        await self._wait([self.peers[seat]], predicate)

    async def wait_all(self, predicate: Callable[[PeerProcess], bool]) -> None:
        """Wait until `predicate` holds for every peer; a peer that exits first is reported at
        once (PeerExited, with its last error line), whichever seat it is."""
        await self._wait(self.peers, predicate)

    async def _wait(
        self, peers: list[PeerProcess], predicate: Callable[[PeerProcess], bool]
    ) -> None:
        async with asyncio.timeout(self.timeout):
            while waiting := [peer for peer in peers if not predicate(peer)]:
                for peer in waiting:
                    process = peer.process
                    if process is not None and process.returncode is not None:
                        raise PeerExited(peer.seat, process.returncode, peer.data / STDERR)
                changes = [asyncio.ensure_future(peer.changed.wait()) for peer in waiting]
                try:
                    await asyncio.wait(changes, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for change in changes:
                        change.cancel()

    def wire(self, seat: int, dial: str = "higher") -> None:
        addresses = [["127.0.0.1", peer.port] for peer in self.peers]
        process = self.peers[seat].process
        assert process is not None and process.stdin is not None
        process.stdin.write((json.dumps({"addresses": addresses, "dial": dial}) + "\n").encode())

    async def start(self) -> None:
        self.started = time.monotonic()
        for peer in self.peers:
            await self.spawn(peer.seat)
        await self.wait_all(lambda p: p.port is not None)
        for peer in self.peers:
            self.wire(peer.seat)
        if self.watchers:  # a `watch` that came before the seat's table would go unanswered
            await self.wait_all(lambda p: p.table_started)
        await self._start_watchers()

    async def _start_watchers(self) -> None:
        from fairdeal.p2p.table.tools.watch import WatchClient, WatchRefused

        for k in range(self.watchers):
            port = self.peers[k % len(self.peers)].port
            assert port is not None
            for attempt in range(3):  # a channel dropped while the table starts: dial again
                client = WatchClient(Identity.generate(f"watcher{k}"))
                try:
                    await client.connect("127.0.0.1", port, timeout=self.timeout)
                except WatchRefused as error:
                    await client.close()
                    if attempt == 2 or "closed the connection" not in str(error):
                        raise
                    continue
                self.watch_clients.append(client)
                break

    async def _finish_watchers(self) -> list[dict[str, Any]]:
        """What each watcher saw: the log's length and head (equal to the seats' when it
        agrees), and its first fault."""
        seen = []
        for client in self.watch_clients:
            try:
                replay = await client.follow(timeout=60)
            finally:
                await client.close()
            table = client.live.replay.table if client.live and client.live.replay else None
            seen.append(
                {
                    "entries": replay.report.entries,
                    "head": table.head.hex() if table is not None else None,
                    "fault": None if replay.fault is None else str(replay.fault),
                }
            )
        return seen

    def kill(self, seat: int) -> None:
        process = self.peers[seat].process
        assert process is not None
        platform.current().kill(process)

    async def restart(self, seat: int) -> None:
        process = self.peers[seat].process
        assert process is not None
        await process.wait()
        await self.spawn(seat)
        await self.wait_for(seat, lambda p: p.port is not None)
        self.wire(seat, dial="all")

    async def finish(self) -> dict[str, Any]:
        await self.wait_all(lambda p: p.result is not None)
        elapsed = time.monotonic() - self.started
        for peer in self.peers:
            assert peer.process is not None and peer.process.stdin is not None
            peer.process.stdin.write(b"done\n")
        for peer in self.peers:
            assert peer.process is not None
            async with asyncio.timeout(30):
                await peer.process.wait()
            if peer.reader is not None:
                await peer.reader
        watched = await self._finish_watchers()
        summary = self.summary(elapsed)
        if self.watchers:
            summary["watchers"] = watched
            head = self.peers[0].result["head"] if self.peers[0].result else None
            summary["watchers_agree"] = all(w["head"] == head for w in watched)
        return summary

    async def run(self) -> dict[str, Any]:
        try:
            await self.start()
            return await self.finish()
        finally:
            await self.stop()

    async def stop(self) -> None:
        """Kill every peer still running and reap them all (before the loop closes)."""
        for peer in self.peers:
            if peer.process is not None and peer.process.returncode is None:
                platform.current().kill(peer.process)
        for peer in self.peers:
            if peer.reader is not None:
                await peer.reader  # it ends once the process's exit is known
        for client in self.watch_clients:
            await client.close()

    # -- summary ---------------------------------------------------------------------------

    def summary(self, elapsed: float) -> dict[str, Any]:
        results = [peer.result for peer in self.peers]
        assert all(r is not None for r in results)
        first = results[0]
        assert first is not None
        agree = len({r["head"] for r in results if r}) == 1
        moves = [x for r in results if r for x in r["move_latencies"]]
        doubts = [x for r in results if r for x in r["doubt_latencies"]]
        hand_setups = [x for r in results if r for x in r["hand_setups"]]
        fault = next((r["fault"] for r in results if r and r["fault"]), None)
        summary = {
            "result": "aborted" if fault else ("finished" if first["over"] else "unfinished"),
            "fault": fault,
            "agree": agree,
            "winners": first["winners"],
            "scores": first["scores"],
            "hands": first["hands"],
            "peers": len(results),
            "wall_seconds": round(elapsed, 3),
            # connecting every seat, before the tables start (as in a lobby), slowest peer
            "mesh_seconds": round(max(r.get("mesh_seconds", 0.0) for r in results if r), 3),
            "time": {
                "setup_seconds": round(max(r["setup_seconds"] for r in results if r), 3),
                "later_hands_setup_seconds": round(sum(hand_setups) / max(1, len(results)), 3),
                "moves_seconds": round(sum(moves) / max(1, len(results)), 3),
                "doubts_seconds": round(sum(doubts) / max(1, len(results)), 3),
                "game_seconds": round(max(r["game_seconds"] for r in results if r), 3),
            },
            "move_latency_ms": latency(moves),
            "slowest_moves": slowest_moves(results),
            "doubt_resolution_ms": latency(doubts),
            "per_peer": [
                {
                    "seat": r["seat"],
                    "cpu_seconds": round(r["cpu_seconds"], 3),
                    "peak_rss_mb": None  # not measured on this system (p2p/platform.py)
                    if r["peak_rss_mb"] is None
                    else round(r["peak_rss_mb"], 1),
                }
                for r in results
                if r
            ],
            "transcripts": [str(p) for p in self.transcripts()],
        }
        summary.update(presenter_for(self.game).figures(first, [r for r in results if r]))
        return summary


def peer_environment() -> dict[str, str]:
    """This process's environment for a peer: the folder that holds the fairdeal it runs first on
    PYTHONPATH, so that a peer runs the same fairdeal and still finds what our PYTHONPATH adds (a
    game installed by a path entry); and Python's safe-path mode, so that the working directory
    is not searched first: from a checkout's root, its `fairdeal/` folder (the version alone)
    would hide the installed package."""
    import fairdeal

    ours = str(Path(fairdeal.__file__).resolve().parent.parent)
    inherited = os.environ.get("PYTHONPATH")
    path = os.pathsep.join([ours, inherited]) if inherited else ours
    return {**os.environ, "PYTHONPATH": path, "PYTHONSAFEPATH": "1"}


def last_line(path: Path) -> str:
    """The last non-blank line of a peer's stderr log (its error, when it died), or ''."""
    try:
        text = path.read_bytes()[-4096:].decode(errors="replace")
    except OSError:
        return ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


class SimulationError(P2PError):
    """The simulation cannot run as asked (e.g. its directory holds an earlier one)."""


class PeerExited(SimulationError):
    """A peer process ended before the simulation was done with it: its status, the last line
    it wrote to stderr (its error) and where the rest is."""

    def __init__(self, seat: int, status: int, log: Path) -> None:
        error = last_line(log)
        said = f": {error}" if error else ""
        super().__init__(f"seat {seat}'s peer exited with status {status}{said} (see {log})")
        self.seat = seat


def _check_fresh(directory: Path) -> None:
    """A simulation writes new identities and a new table into DIR: over an earlier run's it
    would replace that run's identities and leave its transcripts to a table they do not
    belong to (a peer then waits for ever). Refuse, naming what is there."""
    if not directory.exists():
        return
    if not directory.is_dir():
        raise SimulationError(f"{directory} is not a directory")
    earlier = [directory / "plan.json", *sorted(directory.glob("seat*"))]
    found = [path for path in earlier if path.exists()]
    if found:
        raise SimulationError(
            f"{directory} holds an earlier simulation ({found[0].name}); its identities and "
            "transcripts are kept: give --out a new directory, or remove that one"
        )


def _default_options(short: bool) -> Any:
    """The default game's options; `short`: its short game, where it has one."""
    options = get_game(default_game()).default_options()
    if short and hasattr(options, "short_game"):
        return replace(options, short_game=True)
    return options


def simulate(peers: int, directory: Path, **kwargs: Any) -> dict[str, Any]:
    return asyncio.run(Simulation(peers, directory, **kwargs).run())
