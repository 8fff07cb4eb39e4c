"""Play one seat of a started table without a screen: a bot plays, the log says what happened.

Used by `fairdeal host --headless`, `fairdeal bot` and the LAN test, for every game. Every doubt's
verification (Larry: each pile card, who played it, its face, its proof, true against announced
total, verdict), every front the fair deck opened with its proof (The Lie: a claimed card to its
claimer, a trick's plays, the prizes at the end), every fault and every seat holding up the game
is logged; the result is returned as plain data.

A seat that holds up the game is logged when it starts to and when its connection changes, not
at every check. A seat silent past the silence limit with no channel to this one has left: the
table is ended (`left`, protocol.md 10.12) with the reason logged, and the result says so
(`ended`), unless asked to keep waiting for it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

from fairdeal.engine.bots import make_bot
from fairdeal.engine.game import PublicState
from fairdeal.engine.games import game_of_options
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.net.redial import keep_connected
from fairdeal.p2p.table.core.api import (
    CardsVerified,
    FaultDetected,
    Notice,
    SeatStatus,
    Verification,
)
from fairdeal.p2p.table.runtime.gather import Seated
from fairdeal.p2p.table.runtime.peer import LEAVE_FLUSH_S, TablePeer
from fairdeal.p2p.table.runtime.reaction import reactions

log = logging.getLogger("fairdeal.table")


def transcript_path(data: Path, seated: Seated) -> Path:
    return data / "tables" / f"{seated.signed.roster.table_id.hex()}.transcript"


async def play_headless(
    identity: Identity,
    seated: Seated,
    data: Path,
    *,
    bot: str = "heuristic",
    seed: int | None = None,
    silence_limit: float = 30.0,
    timeout: float | None = None,
    bot_delay: float = 0.0,
    claim_pace: float = 0.0,
    difficulty: str | None = None,
    keep_waiting: bool = False,
) -> dict[str, Any]:
    """Play `seated` with a bot of its game until the game ends (or stops on a fault, or a seat
    left: see above; `keep_waiting` waits for it instead); return the result. `bot_delay`:
    seconds the bot thinks before each move; `claim_pace`: before each claim in The Lie's
    Phase 1 (see TablePeer); `difficulty`: the bot chooses at it and races with its human-like
    reaction times instead (p2p/table/runtime/reaction.py)."""
    peer = TablePeer.for_seated(
        identity,
        seated,
        transcript=transcript_path(data, seated),
        secrets=SecretStore(data / "secrets"),
        bot=make_bot(bot, random.Random(seed), game_of_options(seated.options).name, difficulty),
        silence_limit=silence_limit,
        bot_delay=bot_delay,
        claim_pace=claim_pace,
        reactions=None if difficulty is None else reactions(difficulty),
    )
    await peer.start()
    redial = asyncio.get_running_loop().create_task(
        keep_connected(seated.mesh, seated.roster.keys, seated.addresses)
    )
    logged = 0
    holding: dict[int, bool] = {}  # seats holding up the game, as last logged: connected?
    gone: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def log_new_events() -> None:
        nonlocal logged
        for event in peer.history.events[logged:]:
            if isinstance(event, Verification):
                log.info("seat %s: %s", seated.seat, event.log_text())
            elif isinstance(event, CardsVerified):
                cards = ", ".join(
                    f"slot {c.slot}: card {c.face} ({c.proof.value})" for c in event.cards
                )
                log.info("seat %s: %s of seat %s: %s", seated.seat, event.reason, event.seat, cards)
            elif isinstance(event, FaultDetected):
                log.error(
                    "seat %s broke the rules: %s (%s)", event.seat, event.what, event.evidence
                )
            elif isinstance(event, SeatStatus):
                note_holding(event)
            elif isinstance(event, Notice):
                log.info("%s", event.text)
        logged = len(peer.history)

    def note_holding(event: SeatStatus) -> None:
        if event.waiting_seconds is None:
            if holding.pop(event.seat, None) is not None:
                log.info("seat %s is no longer holding up the game", event.seat)
            return
        if holding.get(event.seat) != event.connected:
            holding[event.seat] = event.connected
            log.warning(
                "seat %s is holding up the game (%.0f s, %s)",
                event.seat,
                event.waiting_seconds,
                "connected" if event.connected else "disconnected",
            )
        if not event.connected and not keep_waiting and not gone.done():
            gone.set_result(
                f"seat {event.seat} left: silent for {event.waiting_seconds:.0f} s "
                f"(the silence limit is {silence_limit:g} s) with no connection"
            )

    async def log_as_they_come() -> None:  # a doubt's verification is logged when it happens
        while True:
            log_new_events()
            await peer.history.changed()

    follower = asyncio.get_running_loop().create_task(log_as_they_come())
    ended: str | None = None
    try:
        finished: asyncio.Future[Any] = asyncio.ensure_future(peer.finished(timeout))
        waited: list[asyncio.Future[Any]] = [finished, gone]
        await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
        if finished.done():
            finished.result()  # raises the timeout
        else:
            finished.cancel()
            ended = gone.result()
            log.error("ending the table: %s", ended)
            await peer.end_table(ended)
    finally:
        redial.cancel()
        follower.cancel()
        log_new_events()
        # what this seat sent last goes out, unless a peer reads nothing: then the process ends
        # (or the app closes its table) all the same
        await seated.mesh.drain_within(LEAVE_FLUSH_S)
        await peer.close()  # its transcript closed, its verifier thread ended
    table = peer.table
    assert table is not None and table.state is not None
    state: PublicState = table.state
    return {
        "seat": seated.seat,
        "names": seated.names,
        "over": state.over,
        "winners": list(state.winners),
        "scores": list(state.scores),
        "game": seated.game,
        "hands": state.rounds,  # the hands or rounds begun (PublicState.rounds)
        "rounds": state.rounds,  # the same, under the name a game of rounds reads
        "fault": None if table.fault is None else str(table.fault.what),
        "transcript": str(transcript_path(data, seated)),
        "ended": ended,  # why this seat ended the table before its end (None: it did not)
        "peer": peer,
    }
