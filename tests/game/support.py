"""N networked peers of any game in one asyncio loop over loopback (full crypto, real channels).

The game is that of the options (Larry's short game when none are given)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fairdeal.engine.bots import Bot, make_bot
from fairdeal.engine.games import game_of_options
from fairdeal.engine.larry import LarryOptions
from fairdeal.p2p.identity import Identity
from fairdeal.p2p.lobby.roster import Roster as LobbyRoster
from fairdeal.p2p.lobby.roster import SignedRoster
from fairdeal.p2p.log.tablelog import Roster
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.net.mesh import Mesh
from fairdeal.p2p.table.core.driver import TableDriver
from fairdeal.p2p.table.core.games import table_class_for
from fairdeal.p2p.table.runtime.peer import TablePeer
from fairdeal.p2p.table.runtime.reaction import Reactions
from fairdeal.p2p.table.runtime.timings import PeerTimings

MakeTable = type[TableDriver]


def identity(index: int) -> Identity:
    return Identity.generate(f"peer{index}", lambda n: bytes([index + 1]) * n)


@dataclass
class LocalTable:
    peers: list[TablePeer]
    meshes: list[Mesh]
    roster: Roster
    directory: Path

    def transcript(self, seat: int) -> Path:
        return self.directory / f"seat{seat}" / "table.transcript"

    async def close(self) -> None:
        for peer in self.peers:
            await peer.close()
        for mesh in self.meshes:
            await mesh.close()


def make_peer(
    seat: int,
    roster: Roster,
    mesh: Mesh,
    directory: Path,
    options: Any,
    *,
    seed: int = 0,
    make_table: MakeTable | None = None,
    silence_limit: float = 30.0,
    bot: bool = True,
    signed_roster: SignedRoster | None = None,
    bot_delay: float = 0.0,
    bot_sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    claim_pace: float = 0.0,
    reactions: Reactions | None = None,
) -> TablePeer:
    data = directory / f"seat{seat}"
    game = game_of_options(options).name
    data.mkdir(parents=True, exist_ok=True)
    return TablePeer(
        identity(seat),
        roster,
        seat,
        options,
        mesh,
        transcript=data / "table.transcript",
        secrets=SecretStore(data / "secrets"),
        bot=make_bot("heuristic", random.Random(seed * 100 + seat), game) if bot else None,
        table_class=make_table or table_class_for(options),
        silence_limit=silence_limit,
        signed_roster=signed_roster,
        bot_delay=bot_delay,
        bot_sleep=bot_sleep,
        claim_pace=claim_pace,
        reactions=reactions,
        reaction_rng=random.Random(seed * 100 + seat),
        timings=PeerTimings(),  # the tests read what a seat measured, as simulate does
        # pinned seat contributions: the shuffles, and so the whole game, are reproducible
        new_contribution=lambda: bytes([seed, seat + 1]) * 16,
    )


async def restart_seat(table: LocalTable, seat: int, directory: Path, *, seed: int) -> TablePeer:
    """Start `seat` again from its files on a new mesh, in place of its old peer (as `fairdeal
    resume` does after a crash); the caller connects it to the seats it should meet first."""
    mesh = Mesh(identity(seat))
    await mesh.start("127.0.0.1", 0)
    restarted = make_peer(
        seat,
        table.roster,
        mesh,
        directory,
        table.peers[0].options,
        seed=seed,
        signed_roster=table.peers[0].signed_roster,
    )
    table.peers[seat], table.meshes[seat] = restarted, mesh
    await restarted.start()
    return restarted


async def rejoin_seat(table: LocalTable, seat: int, directory: Path, *, seed: int) -> TablePeer:
    """`restart_seat`, then connect the restarted seat to every other seat."""
    restarted = await restart_seat(table, seat, directory, seed=seed)
    for other in range(len(table.peers)):
        if other != seat:
            address = table.meshes[other].address
            assert address is not None
            await table.meshes[seat].connect(*address, expected_peer=identity(other).key)
    return restarted


def sign_roster(ids: list[Identity], table_id: bytes, options: Any) -> SignedRoster:
    """The roster a lobby would have had every seat sign (protocol.md 5.3)."""
    driver = table_class_for(options)
    roster = LobbyRoster.build(
        table_id, driver.game_name, driver.lobby_options(options), tuple(i.public for i in ids)
    )
    signatures = tuple(i.sign(roster.canonical_bytes()) for i in ids)
    return SignedRoster.verified(roster, signatures)


async def open_table(
    seats: int,
    directory: Path,
    options: Any = None,
    *,
    seed: int = 0,
    tables: dict[int, MakeTable] | None = None,
    silence_limit: float = 30.0,
    bots: bool = True,
    wrap: dict[int, Callable[[Bot], Bot | None]] | None = None,
    signed_roster: bool = True,
    bot_delay: float = 0.0,
    bot_sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    claim_pace: float = 0.0,
    reactions: Reactions | None = None,
    record_addresses: bool = False,
) -> LocalTable:
    """Start `seats` bot peers, connect them in a full mesh and start the table (which opens
    with the roster they all signed, as after a lobby, unless `signed_roster` is False).
    `record_addresses`: each seat knows where the others listen, as after a lobby (its
    transcript's header keeps them, its watchers are told)."""
    options = options or LarryOptions(short_game=True)
    ids = [identity(s) for s in range(seats)]
    roster = Roster(bytes([seed % 256]) * 16, tuple(i.key for i in ids))
    signed = sign_roster(ids, roster.table, options) if signed_roster else None
    meshes = [Mesh(i) for i in ids]
    addresses = [await mesh.start("127.0.0.1", 0) for mesh in meshes]
    peers = [
        make_peer(
            s,
            roster,
            meshes[s],
            directory,
            options,
            seed=seed,
            make_table=(tables or {}).get(s),
            silence_limit=silence_limit,
            bot=bots,
            signed_roster=signed,
            bot_delay=bot_delay,
            bot_sleep=bot_sleep,
            claim_pace=claim_pace,
            reactions=reactions,
        )
        for s in range(seats)
    ]
    for peer in peers:
        if record_addresses:
            peer.seat_addresses = list(addresses)
        if wrap and peer.seat in wrap and peer.bot is not None:
            peer.bot = wrap[peer.seat](peer.bot)
            peer.check_own_actions = False  # a deliberate cheat: its moves go unchecked
        await peer.start()
    for i in range(seats):
        for j in range(i + 1, seats):
            await meshes[i].connect(*addresses[j], expected_peer=ids[j].key)
    return LocalTable(peers, meshes, roster, directory)


async def play_to_end(table: LocalTable, timeout: float = 60.0) -> None:
    await asyncio.gather(*(peer.finished(timeout) for peer in table.peers))


def play_a_game(
    seats: int, directory: Path, options: Any = None, *, timeout: float = 60.0, **kwargs: Any
) -> None:
    """Outside any event loop (a module-scoped fixture): open a table of `seats` bot peers in
    `directory` (`open_table`'s options), play it to its end and close it."""

    async def play() -> None:
        table = await open_table(seats, directory, options, **kwargs)
        try:
            await play_to_end(table, timeout)
        finally:
            await table.close()

    asyncio.run(play())
