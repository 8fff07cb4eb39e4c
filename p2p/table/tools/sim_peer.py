"""One bot peer of a simulated table, as its own OS process (`python -m p2p.table.tools.sim_peer`).

Talks to the parent (p2p.table.tools.simulate) by JSON lines: it prints {"port": P} once it listens,
reads {"addresses": [[host, port], ...], "dial": "higher" | "all"} from stdin, connects, plays with
the full protocol, prints {"progress": moves} after each action applied (in turn), {"claimed": n}
each time the front of a card it claimed reaches it (The Lie's Phase 1), and finally
{"result": ...} with its scores, timings, CPU seconds and peak RSS (None where p2p/platform.py
cannot measure it). Started again with the same data directory after a crash, it resumes from its
transcript and catches up. The game is the plan's (`"game"`, Larry when it names none).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sys
import time
from pathlib import Path
from typing import Any

from fairdeal.engine.bots import make_bot
from fairdeal.engine.game import PublicState
from fairdeal.engine.games import default_game, get_game
from fairdeal.p2p import platform
from fairdeal.p2p.errors import P2PError
from fairdeal.p2p.identity import PublicIdentity, load_identity
from fairdeal.p2p.lobby.roster import Roster as LobbyRoster
from fairdeal.p2p.lobby.roster import SignedRoster
from fairdeal.p2p.log.envelope import Envelope
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.net.redial import keep_connected
from fairdeal.p2p.table.core.api import CardsVerified, FaultDetected, SeatStatus, Verification
from fairdeal.p2p.table.core.games import table_class_for
from fairdeal.p2p.table.runtime.peer import TablePeer
from fairdeal.p2p.table.runtime.timings import PeerTimings

TRANSCRIPT = "table.transcript"
# How long a peer waits for every seat's channel before it starts its table anyway (as a lobby's
# seat does: p2p/table/runtime/gather.py); the redialling goes on after that.
MESH_TIMEOUT_S = 10.0


def emit(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def plan_roster(table: bytes, keys: list[bytes], names: list[str], options: Any) -> LobbyRoster:
    """The roster a lobby would have fixed for the simulated table (protocol.md 5.3)."""
    seats = tuple(PublicIdentity(key, name) for key, name in zip(keys, names, strict=True))
    driver = table_class_for(options)
    return LobbyRoster.build(table, driver.game_name, driver.lobby_options(options), seats)


def load_plan(path: Path) -> tuple[Roster, Any, dict[str, Any], SignedRoster]:
    """The table's roster, options, plan and the roster every seat signed (as in a lobby)."""
    plan = json.loads(path.read_text())
    table, keys = bytes.fromhex(plan["table"]), [bytes.fromhex(k) for k in plan["keys"]]
    options = get_game(plan.get("game", default_game())).options_from_data(plan["options"])
    lobby_roster = plan_roster(table, keys, plan["names"], options)
    signatures = tuple(bytes.fromhex(s) for s in plan["roster_signatures"])
    signed = SignedRoster.verified(lobby_roster, signatures)
    return Roster(table, tuple(keys)), options, plan, signed


async def serve(args: argparse.Namespace) -> int:
    roster, options, plan, signed = load_plan(args.plan)
    identity = load_identity(args.data)
    seat = roster.keys.index(identity.key)
    mesh = Mesh(identity)
    _host, port = await mesh.start("127.0.0.1", 0)
    emit({"port": port, "seat": seat})
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    wiring = json.loads(line)
    # A new table: the mesh first, as a lobby's seat has it (p2p/lobby/session.py, `form_mesh`),
    # so the table's setup waits on no handshake. A restarted seat (dialling all): its table
    # first, as before, so that it answers the `need` a seat sends as soon as their channel is
    # up (only its transcript may hold its last envelopes).
    restarted = wiring.get("dial") == "all"
    mesh_seconds = 0.0 if restarted else await connect(mesh, roster, seat, wiring)
    game = plan.get("game", default_game())
    kinds = str(plan.get("bot", "heuristic")).split(",")  # by seat, the last fills the rest
    kind = kinds[min(seat, len(kinds) - 1)]
    bot = make_bot(kind, random.Random(args.seed * 1000 + seat), game)
    timings = PeerTimings()  # what the simulation reports of this seat
    peer = TablePeer(
        identity,
        roster,
        seat,
        options,
        mesh,
        transcript=args.data / TRANSCRIPT,
        secrets=SecretStore(args.data / "secrets"),
        names=plan.get("names"),
        bot=bot,
        silence_limit=float(plan.get("silence_limit", 30.0)),
        signed_roster=signed,
        claim_pace=float(plan.get("claim_pace", 0.0)),
        timings=timings,
    )
    await peer.start()
    # watchers may ask for the log from now on; `connected`: the seats it started with
    emit({"table": "started", "seat": seat, "connected": len(mesh.peers)})
    moves = 0

    act_kind = table_class_for(options).act_kind

    def on_applied(envelope: Envelope) -> None:
        nonlocal moves
        if envelope.kind == act_kind:
            moves += 1
            emit({"progress": moves, "seat": seat})

    assert peer.sync is not None
    peer.sync.log.on_applied(on_applied)
    if restarted:
        mesh_seconds = await connect(mesh, roster, seat, wiring)
    watcher = asyncio.get_running_loop().create_task(report_events(peer, seat))
    addresses = [(host, port) for host, port in wiring["addresses"]]
    redial = asyncio.get_running_loop().create_task(keep_connected(mesh, roster.keys, addresses))
    try:
        await peer.finished(timeout=float(plan.get("timeout", 300)))
    except TimeoutError:
        table, sync = peer.table, peer.sync
        assert table is not None and sync is not None
        logging.error(
            "seat %s gave up waiting: %s due after %s entries; buffered %s; connected to %s",
            seat,
            table.expected(),
            len(sync.log.entries),
            [str(e) for e in sync.log.buffered],
            sorted(roster.keys.index(k) for k in mesh.peers),
        )
        raise
    await mesh.drain()
    table = peer.table
    assert table is not None and table.state is not None
    state: PublicState = table.state
    emit(
        {
            "result": {
                "seat": seat,
                "over": state.over,
                "phase": str(state.phase),
                "winners": list(state.winners),
                "scores": list(state.scores),
                "hands": state.rounds,  # the hands or rounds begun (PublicState.rounds)
                "fault": None
                if table.fault is None
                else {"seat": table.fault.seat, "what": table.fault.what},
                "setup_seconds": (timings.setup_done or timings.started) - timings.started,
                "mesh_seconds": mesh_seconds,
                "game_seconds": (timings.finished or time.monotonic()) - timings.started,
                "move_latencies": timings.move_latencies,
                "move_events": timings.move_events,
                "doubt_latencies": timings.doubt_latencies,
                "hand_setups": timings.hand_setups,
                "claim_latencies": timings.claim_latencies,
                "counters": table.counters(),
                "cpu_seconds": time.process_time(),  # user + system, on every platform
                "peak_rss_mb": platform.current().peak_rss_mb(),
                "head": table.head.hex(),
            }
        }
    )
    # Stay until the parent says everyone is done, so late "need" requests are answered.
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    watcher.cancel()
    redial.cancel()
    await peer.close()
    await mesh.close()
    return 0


async def connect(mesh: Mesh, roster: Roster, seat: int, wiring: dict[str, Any]) -> float:
    """Dial every seat the wiring says this one dials, all at once; unless it dials all, wait
    for the others to dial it too (at most MESH_TIMEOUT_S: then `keep_connected` goes on).
    Returns the seconds it took."""
    begun = time.monotonic()
    dial_all = wiring.get("dial") == "all"
    await asyncio.gather(
        *(
            dial(mesh, other, host, port, roster.keys[other])
            for other, (host, port) in enumerate(wiring["addresses"])
            if other != seat and (dial_all or other > seat)
        )
    )
    if not dial_all:
        others = [key for s, key in enumerate(roster.keys) if s != seat]
        try:
            await mesh.wait_for_peers(others, MESH_TIMEOUT_S)
        except TimeoutError:
            logging.warning("seat %s starts its table without every seat connected", seat)
    return time.monotonic() - begun


async def dial(mesh: Mesh, seat: int, host: str, port: int, key: bytes) -> None:
    try:
        await mesh.connect(host, port, expected_peer=key)
    except OSError as exc:  # that peer may be down (it will dial us when it is back)
        logging.warning("cannot reach seat %s: %s", seat, exc)


async def report_events(peer: TablePeer, seat: int) -> None:
    claimed = 0
    async for event in peer.events():
        if isinstance(event, CardsVerified) and event.reason == "claim":
            claimed += len(event.cards)
            emit({"claimed": claimed, "seat": seat})
        elif isinstance(event, Verification):
            emit({"doubt": seat, **event.facts()})
        elif isinstance(event, FaultDetected):
            emit({"fault": {"seat": event.seat, "what": event.what, "evidence": event.evidence}})
        elif isinstance(event, SeatStatus) and event.waiting_seconds is not None:
            emit({"waiting": event.seat, "seconds": round(event.waiting_seconds, 2)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fairdeal.p2p.table.tools.sim_peer")
    parser.add_argument("--plan", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        return asyncio.run(serve(args))
    except (P2PError, OSError) as error:  # a damaged or foreign transcript, an unreadable plan
        emit({"error": str(error)})
        print(f"simulated peer in {args.data}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
