"""The networked table as the app plays it: gather the seats, then play through a `TablePeer`.

`ui.table_factory` calls `host_table` (open a table on the network; local bot peers fill `bots`
seats, friends take the others) or `join_table` (sit at the table at HOST:PORT); `join_discovered`
joins a table found in the lobby list. Each returns a `NetworkedTable` at once; its `start()`
gathers the table in the background with the same code as `fairdeal host`/`fairdeal bot`
(p2p.table.runtime.gather, p2p.table.runtime.local_bots), then runs the fair-deck table
(p2p.table.runtime.peer) and passes its events on. Where to keep the identity, which address to
listen on and which interfaces mDNS uses come from `NetworkSettings` (the app sets them once with
`use_settings`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from fairdeal.engine.errors import IllegalAction
from fairdeal.engine.games import AnyGame, game_names, game_of_options, get_game
from fairdeal.p2p.errors import P2PError
from fairdeal.p2p.identity import Identity, default_data_dir, load_or_create_identity
from fairdeal.p2p.lobby.discovery import DiscoveredTable, local_addresses
from fairdeal.p2p.log.transcript import SecretStore
from fairdeal.p2p.net.redial import keep_connected
from fairdeal.p2p.table.core.api import EventHistory, FaultDetected, Notice, SeatInfo, TableEvent
from fairdeal.p2p.table.core.presenter import result_so_far
from fairdeal.p2p.table.runtime.gather import Seated, join_found, join_lobby, open_lobby
from fairdeal.p2p.table.runtime.headless import transcript_path
from fairdeal.p2p.table.runtime.local_bots import (
    bot_directory,
    bot_identity,
    local_bots,
    play_seated,
)
from fairdeal.p2p.table.runtime.peer import DEFAULT_SILENCE_LIMIT, LEAVE_FLUSH_S, TablePeer
from fairdeal.p2p.table.tools.rejoin import resume_seated, unfinished_table
from fairdeal.p2p.table.tools.resume import ResumePoint, resume_point

log = logging.getLogger("fairdeal.table")

ANY_ADDRESS = ("0.0.0.0", "")
CLOSE_WAIT_S = 5.0  # how long closing waits, at most, for its cancelled flows to end


@dataclass(frozen=True, slots=True)
class NetworkSettings:
    """How this process takes part in networked tables."""

    data_dir: Path | None = None  # identity, transcripts, secrets (None: the per-user default)
    bind: str = "0.0.0.0"  # the address to listen on
    interfaces: tuple[str, ...] | None = None  # mDNS interfaces (None: every real one)
    advertise: bool = True  # announce hosted tables by mDNS
    silence_limit: float = DEFAULT_SILENCE_LIMIT
    gather_timeout: float | None = None  # give up gathering after this many seconds

    @property
    def data(self) -> Path:
        return self.data_dir if self.data_dir is not None else default_data_dir()


_settings = NetworkSettings()


def use_settings(settings: NetworkSettings) -> NetworkSettings:
    """Use `settings` for the tables opened from now on; returns the previous ones."""
    global _settings
    previous, _settings = _settings, settings
    return previous


def current_settings() -> NetworkSettings:
    return _settings


T = TypeVar("T")


class Spawn(Protocol):
    """Run a flow for as long as the table is open (closing the table cancels it)."""

    def __call__(self, flow: Coroutine[Any, Any, T]) -> asyncio.Task[T]: ...


@dataclass
class Gathering:
    """What a gather flow may do while it seats the table, and what it finds out: wired by the
    table to its own notice, spawn and learn_game, so the flow never holds the table."""

    notice: Callable[[str], None]  # a line for the player ("Table open at …")
    spawn: Spawn  # a flow the table owns
    learn_game: Callable[[str], None]  # the game the joined lobby says
    address: tuple[str, int] | None = None  # where a hosted table listens
    bot_keys: set[bytes] = field(default_factory=set)  # seats played by this process's bots


Gather = Callable[[Gathering], Awaitable[Seated]]


class NetworkedTable:
    """One seat at a networked table, from gathering to the end (a table_api.TableSession)."""

    def __init__(
        self,
        identity: Identity,
        settings: NetworkSettings,
        gather: Gather,
        *,
        seat: int = 0,
        placeholder_seats: int = 0,
        transcript: Path | None = None,
        game: str | None = None,
    ) -> None:
        """`transcript`: where this seat's transcript is (default: DATA/tables/TABLE.transcript).
        `game`: the table's game when the caller knows it before gathering (hosting, a table
        found by mDNS); otherwise it is known once the lobby has said it (`lobby_game`)."""
        self.identity = identity
        self._game = game
        self.lobby_game: str | None = None  # the game the joined lobby shows (set by gather)
        self.settings = settings
        self._gather = gather
        self._seat = seat
        self._placeholders = placeholder_seats
        self._transcript = transcript
        self.peer: TablePeer | None = None
        self.seated: Seated | None = None
        self.gathering = Gathering(self.notice, self.spawn, self.learn_game)
        self._tasks: list[asyncio.Task[Any]] = []
        self._runner: asyncio.Task[None] | None = None  # gathers, then passes the peer's events on
        self.history = EventHistory()
        self._closed = False

    @property
    def bot_keys(self) -> set[bytes]:
        """The seats this process's bot peers play."""
        return self.gathering.bot_keys

    @property
    def address(self) -> tuple[str, int] | None:
        """Where a hosted table listens, once its lobby does."""
        return self.gathering.address

    # -- TableSession ----------------------------------------------------------------------
    @property
    def seat(self) -> int:
        return self._seat

    @property
    def transcript_path(self) -> Path | None:
        """This seat's transcript, once the table is seated (`fairdeal report` makes its page)."""
        return self.peer.transcript_path if self.peer is not None else None

    def round_seen(self, round_no: int) -> None:
        """Nothing waits for the player here: the other seats are people and their own bots."""

    @property
    def game(self) -> AnyGame | None:
        """The table's game (the app picks the table screen by it); None while a table joined
        by address has not said it yet."""
        name = self.seated.game if self.seated is not None else self._game or self.lobby_game
        return get_game(name) if name in game_names() else None

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        if self.peer is None:  # still gathering: this seat, then the seats still to fill
            me = SeatInfo(self.identity.name, self.identity.code, is_bot=False, is_me=True)
            rest = (SeatInfo("(open seat)", "", False, False),) * max(0, self._placeholders - 1)
            return (me, *rest)
        keys = self.peer.roster.keys
        return tuple(
            SeatInfo(info.name, info.fingerprint, keys[s] in self.bot_keys, info.is_me)
            for s, info in enumerate(self.peer.seats)
        )

    def view(self) -> Any:  # the game's view (its table driver's `view`)
        if self.peer is None:
            raise RuntimeError("the table is still gathering its seats")
        return self.peer.view()

    async def act(self, action: Any) -> None:  # an action of the game being played
        if self.peer is None or self.peer.table is None or self.peer.table.state is None:
            raise IllegalAction(self._seat, "the table is still being set up")
        await self.peer.act(action)

    def events(self) -> AsyncIterator[TableEvent]:
        return self.history.replay()

    def end_over_withheld_reveal(self) -> FaultDetected:
        """End the table when a seat withholds its coin reveal (see TablePeer)."""
        if self.peer is None:
            raise IllegalAction(self._seat, "the table is still gathering its seats")
        return self.peer.end_over_withheld_reveal()

    async def start(self) -> None:
        """Gather and play in the background; progress arrives as events. Starting a started
        table does nothing (the app's joining screen starts it before the table screen does)."""
        if self._runner is None:
            self._runner = self.spawn(self._run())

    async def end_table(self, reason: str) -> None:
        """Leave for good: the peer signs `left` for the others (protocol.md 10.12) and reports
        the result so far, which reaches our events before the table closes."""
        if self._closed:
            return
        if self.peer is not None:
            await self.peer.end_table(reason)  # its events end with TableEnded
            if self._runner is not None:  # let the last events through to our readers
                await asyncio.wait([self._runner], timeout=LEAVE_FLUSH_S)
        else:  # still gathering: nobody is seated yet to tell
            self._emit(result_so_far(None, len(self.seats), reason))
        await self.close()

    async def close(self) -> None:
        """Stop this seat's flows, close its peer (the transcript is synced and closed) and its
        mesh. Quitting never waits for good on a flow that does not end when cancelled (a local
        bot's last flush to a peer that reads nothing): it is left after CLOSE_WAIT_S, and the
        peer and the mesh are closed all the same."""
        self._closed = True
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        if tasks:
            done, stuck = await asyncio.wait(tasks, timeout=CLOSE_WAIT_S)
            for task in done:  # retrieved: a flow's failure was said where it happened
                if not task.cancelled():
                    task.exception()
            for task in stuck:
                log.warning("closing the table: %s did not end when cancelled", task.get_name())
        if self.peer is not None:
            await self.peer.close()
        if self.seated is not None:
            await self.seated.close()  # each channel's goodbye is bounded (p2p/net/channel.py)
        self.history.close()

    # -- for tests and callers that wait -----------------------------------------------------
    @property
    def event_count(self) -> int:
        return len(self.history)

    async def wait_for(self, ready: Callable[[], bool], timeout: float | None = None) -> None:
        """Wait until `ready()` holds, checked after every event (raises TimeoutError)."""
        async with asyncio.timeout(timeout):
            while not ready():
                if self._closed:
                    raise RuntimeError("the table closed")
                await self.history.changed()

    # -- internals -------------------------------------------------------------------------
    def notice(self, text: str) -> None:
        self._emit(Notice(text))

    def learn_game(self, game: str) -> None:
        """The joined lobby named its game: say so (the app waits for it to pick a screen)."""
        if self.lobby_game is None:
            self.lobby_game = game
            title = get_game(game).title if game in game_names() else game
            self.notice(f"The table plays {title}.")

    def _emit(self, event: TableEvent) -> None:
        self.history.append(event)

    def spawn(self, flow: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run `flow` for as long as this table is open (close cancels it): the table's own flows
        and those its gather starts (the lobby, local bot seats)."""
        task = asyncio.ensure_future(flow)
        self._tasks.append(task)
        return task

    def _failed_setup(self, error: BaseException) -> None:
        """The table cannot start here (never a screen stuck on "Setting up the table")."""
        log.error("cannot set up the table: %s", error)
        self.notice(f"✗ Could not set up the table: {error}")
        self._closed = True
        self.history.close()

    async def _run(self) -> None:
        try:
            seated = await self._gather(self.gathering)
        except Exception as error:  # a refused connection, a closed lobby: say so and stop
            log.info("gathering failed: %s", error)
            self.notice(f"✗ Could not sit down at the table: {error}")
            self._closed = True
            self.history.close()
            return
        self.seated, self._seat = seated, seated.seat
        data = self.settings.data
        try:
            secrets = SecretStore(data / "secrets")
        except (P2PError, OSError) as error:
            self._failed_setup(error)
            return
        peer = TablePeer.for_seated(
            self.identity,
            seated,
            transcript=self._transcript or transcript_path(data, seated),
            secrets=secrets,
            silence_limit=self.settings.silence_limit,
        )
        self.peer = peer
        self.notice(f"All {len(seated.names)} seats taken; you are seat {seated.seat}.")
        for seat, info in enumerate(self.seats):  # codes to compare aloud: nobody is spoofed
            self.notice(seat_line(seat, info))
        self.notice(
            f"Transcript: {peer.transcript_path} (`fairdeal audit` checks it; after a crash, "
            f"`fairdeal resume {peer.transcript_path}` takes you back to this seat)"
        )
        try:
            await peer.start()
        except (P2PError, OSError) as error:  # a damaged file, a read-only or full disk
            self._failed_setup(error)
            return
        self.spawn(keep_connected(seated.mesh, seated.roster.keys, seated.addresses))
        self.spawn(_unlist_when_over(peer, seated))
        async for event in peer.events():
            self._emit(event)


async def _unlist_when_over(peer: TablePeer, seated: Seated) -> None:
    """A hosted table is listed as playing, for watchers, until its game ends (or stops)."""
    with contextlib.suppress(Exception):  # a fault ends the game too: it was reported already
        await peer.finished()
    await seated.end_listing()


def _bot_kinds(bot_kind: str, bots: int) -> list[str]:
    """ "heuristic,random" names one kind per bot seat in order, repeated if shorter."""
    kinds = [kind.strip() for kind in bot_kind.split(",") if kind.strip()] or ["heuristic"]
    return [kinds[index % len(kinds)] for index in range(bots)]


def host_table(
    *,
    seats: int,
    bots: int,
    options: Any,
    name: str,
    bot_kind: str = "heuristic",
    bot_delay: float = 0.0,
    claim_pace: float = 0.0,
    difficulty: str | None = None,
    settings: NetworkSettings | None = None,
) -> NetworkedTable:
    """Open a table of the game whose `options` these are (LarryOptions, LieOptions) on the
    network for `seats` players; `bots` local bot peers take seats at once, friends take the
    rest (found by mDNS or given HOST:PORT). We are seat 0. The bots think `bot_delay` seconds
    before each move and, in The Lie's Phase 1, claim a card every `claim_pace` seconds, or at a
    `difficulty` choose and react as its bots do (as at a local table)."""
    game = game_of_options(options)
    if not game.min_players <= seats <= game.max_players:
        raise ValueError(
            f"{game.title} is played by {game.min_players} to {game.max_players} players, "
            f"not {seats}"
        )
    options.validate(seats)  # ValueError naming the problem (a hand the deck lacks, …)
    if not 0 <= bots < seats:
        raise ValueError(f"a table of {seats} takes fewer bots than seats: 0 to {seats - 1}")
    if bot_delay < 0 or claim_pace < 0:
        raise ValueError("the bot delay and the claim pace cannot be negative")
    settings = settings or _settings
    identity = load_or_create_identity(settings.data_dir, name)
    data = settings.data
    point = unfinished_table(data, identity, seat=0)
    if point is not None:  # opened again after a crash: the table we hosted, not a new one
        return _resumed(point, settings)
    kinds = _bot_kinds(bot_kind, bots)

    async def gather(table: Gathering) -> Seated:
        address: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
        lobby = table.spawn(
            open_lobby(
                identity,
                seats,
                options,
                name=f"{identity.name}'s table",
                bind=settings.bind,
                advertise=settings.advertise,
                interfaces=list(settings.interfaces) if settings.interfaces else None,
                on_address=address.set_result,
                timeout=settings.gather_timeout,
            )
        )
        waited: list[asyncio.Future[Any]] = [lobby, address]
        await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
        if not address.done():
            return await lobby  # it failed: this raises its error
        bound, port = address.result()
        if bound in ANY_ADDRESS:  # bots reach us (and friends reach them) where we advertise
            bound = local_addresses(settings.interfaces)[0]
        table.address = (bound, port)
        table.bot_keys = {bot_identity(data, index).key for index in range(bots)}
        friends = seats - 1 - bots
        table.notice(
            f"Table open at {bound}:{port}"
            + (f"; waiting for {friends} friend(s) to join." if friends else ".")
        )
        bind = settings.bind if settings.bind not in ANY_ADDRESS else "0.0.0.0"
        for flow in local_bots(
            data,
            bound,
            port,
            kinds,
            bind=bind,
            silence_limit=settings.silence_limit,
            bot_delay=bot_delay,
            claim_pace=claim_pace,
            difficulty=difficulty,
        ):
            table.spawn(flow)
        return await lobby

    return NetworkedTable(identity, settings, gather, placeholder_seats=seats, game=game.name)


def join_table(
    *, host: str, port: int, name: str, settings: NetworkSettings | None = None
) -> NetworkedTable:
    """Sit at the table hosted at host:port (the first free seat)."""
    settings = settings or _settings
    identity = load_or_create_identity(settings.data_dir, name)
    point = unfinished_table(settings.data, identity, host=(host, port))
    if point is not None:  # joined before and crashed: take that seat back
        return _resumed(point, settings)

    async def gather(table: Gathering) -> Seated:
        table.notice(f"Joining the table at {host}:{port}…")
        return await join_lobby(
            identity,
            host,
            port,
            bind=settings.bind,
            timeout=settings.gather_timeout,
            secrets=SecretStore(settings.data / "secrets"),
            on_game=table.learn_game,
        )

    return NetworkedTable(identity, settings, gather)


def join_discovered(
    table: DiscoveredTable, *, name: str, settings: NetworkSettings | None = None
) -> NetworkedTable:
    """Join a table found on the network, trying each address it advertises in turn; the host
    must prove the key its advertisement names (protocol.md 2), or we do not sit down."""
    if table.ad.game not in game_names():  # listed so the user learns why; never joined
        raise ValueError(f"{table.ad.name!r} plays {table.ad.game!r}, a game this fairdeal lacks")
    settings = settings or _settings
    identity = load_or_create_identity(settings.data_dir, name)

    async def gather(session: Gathering) -> Seated:
        session.notice(f"Joining {table.ad.name!r}…")
        return await join_found(
            identity,
            table,
            bind=settings.bind,
            timeout=settings.gather_timeout,
            secrets=SecretStore(settings.data / "secrets"),
        )

    return NetworkedTable(identity, settings, gather, game=table.ad.game)


def resume_table(transcript: Path, settings: NetworkSettings | None = None) -> NetworkedTable:
    """Sit down again at the table of `transcript` (after a crash): the seat's `TablePeer`
    restarts from its transcript and secrets, listens where the seat listened, redials the others
    and catches up. Raises `CannotResume` (naming the file) when that cannot work."""
    settings = settings or _settings
    return _resumed(resume_point(transcript, settings.data), settings)


def _resumed(point: ResumePoint, settings: NetworkSettings) -> NetworkedTable:
    """The seat of `point` taken back; the local bots that sat at that table (DATA/bots/N,
    run by this process when it hosted) take theirs back too."""
    transcript = point.transcript
    data = settings.data

    async def gather(table: Gathering) -> Seated:
        seated = await resume_seated(point, settings.bind)
        table.notice(f"Resuming seat {point.seat} from {transcript}; reconnecting to the table…")
        if not any(a for seat, a in enumerate(point.addresses) if seat != point.seat):
            table.notice("The transcript does not say where the other seats listen.")
        index = 0
        while point.seat == 0 and bot_directory(data, index).is_dir():
            directory, bot = bot_directory(data, index), bot_identity(data, index)
            index += 1
            # Taken back with the seat, even though they kept its `left` (it had left).
            bot_point = unfinished_table(
                directory, bot, table=point.signed.roster.table_id, on_purpose=True
            )
            if bot_point is not None:
                table.bot_keys.add(bot.key)
                flow = play_seated(bot, resume_seated(bot_point, settings.bind), directory)
                table.spawn(flow)
        return seated

    return NetworkedTable(
        point.identity,
        settings,
        gather,
        seat=point.seat,
        transcript=transcript,
        game=point.signed.roster.game,
    )


def seat_line(seat: int, info: SeatInfo) -> str:
    """ "Seat 1: Ada (player), key code …", said once every seat is taken. A bot's name already
    says what it is ("Ada (bot)"): it gets no "(bot)" again, nor "(player)" from a peer that
    cannot tell."""
    who = "you" if info.is_me else "bot" if info.is_bot else "player"
    role = "" if info.name.endswith(" (bot)") and not info.is_me else f" ({who})"
    return f"Seat {seat}: {info.name}{role}, key code {info.fingerprint}"
