"""Play one seat of a started table without a screen: a bot plays, the log says what happened.

Used by `fairdeal host --headless`, `fairdeal bot` and the LAN test, for every game. Every doubt's
verification (Larry: each pile card, who played it, its face, its proof, true against announced
total, verdict), every front the fair deck opened with its proof (The Lie: a claimed card to its
claimer, a trick's plays, the prizes at the end), every fault and every seat holding up the game
is logged; the result is returned as plain data.
"""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

from fairdeal.engine.bots import make_bot
from fairdeal.engine.games import game_of_options
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.net.redial import keep_connected
from fairdeal.p2p.table.api import (
    CardsVerified,
    DoubtVerification,
    FaultDetected,
    Notice,
    SeatStatus,
)
from fairdeal.p2p.table.gather import Seated
from fairdeal.p2p.table.peer import TablePeer, describe_verification
from fairdeal.p2p.table.reaction import reactions

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
) -> dict[str, Any]:
    """Play `seated` with a bot of its game until the game ends (or stops on a fault); return
    the result. `bot_delay`: seconds the bot thinks before each move; `claim_pace`: before each
    claim in The Lie's Phase 1 (see TablePeer); `difficulty`: the bot chooses at it and races
    with its human-like reaction times instead (p2p/table/reaction.py)."""
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

    def log_new_events() -> None:
        nonlocal logged
        for event in peer.history.events[logged:]:
            if isinstance(event, DoubtVerification):
                log.info("seat %s: %s", seated.seat, describe_verification(event))
            elif isinstance(event, CardsVerified):
                cards = ", ".join(
                    f"slot {c.slot}: card {c.face} ({c.proof.value})" for c in event.cards
                )
                log.info("seat %s: %s of seat %s: %s", seated.seat, event.reason, event.seat, cards)
            elif isinstance(event, FaultDetected):
                log.error(
                    "seat %s broke the rules: %s (%s)", event.seat, event.what, event.evidence
                )
            elif isinstance(event, SeatStatus) and event.waiting_seconds is not None:
                log.warning(
                    "seat %s is holding up the game (%.0f s, %s)",
                    event.seat,
                    event.waiting_seconds,
                    "connected" if event.connected else "disconnected",
                )
            elif isinstance(event, Notice):
                log.info("%s", event.text)
        logged = len(peer.history)

    async def log_as_they_come() -> None:  # a doubt's verification is logged when it happens
        while True:
            log_new_events()
            await peer.history.changed()

    follower = asyncio.get_running_loop().create_task(log_as_they_come())
    try:
        await peer.finished(timeout)
    finally:
        redial.cancel()
        follower.cancel()
        log_new_events()
        await seated.mesh.drain()
    table = peer.table
    assert table is not None and table.state is not None
    state = table.state
    return {
        "seat": seated.seat,
        "names": seated.names,
        "over": table.state.over,
        "winners": list(table.state.winners),
        "scores": list(table.state.scores),
        "game": seated.game,
        "hands": getattr(state, "hand_no", getattr(state, "round_no", 0)),  # or rounds
        "rounds": getattr(state, "round_no", None),  # The Lie (T9); None at Larry's table
        "fault": None if table.fault is None else str(table.fault.what),
        "transcript": str(transcript_path(data, seated)),
        "peer": peer,
    }
